// Pure: a probe run's cells laid out as a matrix, the shape a reader checks a proof by: one row per place (vhost,
// section, path), one column per asker (client, credential state, user), both in order of first appearance, and in
// each slot the cells that share both (one per method). Keys go through a Map, so a matrix of thousands of cells
// is laid out in one pass.
import { askerText } from "./probe-classes.ts";
import type { ReportProbeCell } from "./report-model.ts";

export interface ProbeRow {
  key: string;
  vhost: string;
  region: string;
  /** null: the cells no probe could reach. */
  path: string | null;
}

export interface ProbeColumn {
  key: string;
  client: string;
  credentials: string;
  user: string | null;
  /** "outsider · none", "10.0.0.0/8 · valid admin". */
  label: string;
}

export interface ProbeMatrix {
  rows: ProbeRow[];
  columns: ProbeColumn[];
  /** The cells of one row and column, in the cells' order; empty when none. */
  at(row: ProbeRow, column: ProbeColumn): readonly ReportProbeCell[];
}

// JSON of a tuple: no separator a vhost or a path could contain makes two keys collide.
const rowKey = (cell: ReportProbeCell): string => JSON.stringify([cell.vhost, cell.region, cell.path]);
const columnKey = (cell: ReportProbeCell): string => JSON.stringify([cell.client, cell.credentials, cell.user]);

export function probeMatrix(cells: readonly ReportProbeCell[]): ProbeMatrix {
  const rows = new Map<string, ProbeRow>();
  const columns = new Map<string, ProbeColumn>();
  const slots = new Map<string, ReportProbeCell[]>();
  for (const cell of cells) {
    const row = rowKey(cell);
    const column = columnKey(cell);
    if (!rows.has(row)) rows.set(row, { key: row, vhost: cell.vhost, region: cell.region, path: cell.path });
    if (!columns.has(column)) columns.set(column, { key: column, client: cell.client, credentials: cell.credentials, user: cell.user, label: askerText(cell) });
    const slot = `${row}\n${column}`;
    const held = slots.get(slot);
    if (held === undefined) slots.set(slot, [cell]);
    else held.push(cell);
  }
  return { rows: [...rows.values()], columns: [...columns.values()], at: (row, column) => slots.get(`${row.key}\n${column.key}`) ?? [] };
}
