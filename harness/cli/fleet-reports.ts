// The reports of `fleet` and `merge-reports`, written entry by entry: the head of each format (verdicts, causes,
// the fleet's configs) from the entries' outlines, then every scenario's details from the entries themselves, read
// as they are written (a run's from its journal, a merge's from its blobs). Every report is staged in a temporary
// file first and renamed into place once all are written: each is whole or absent. One source for both commands,
// so a merge writes the very bytes a single run writes.
import { HarnessError } from "../errors.ts";
import { type FleetEntry, publishBlob } from "../fleet/blob.ts";
import { type FleetReportInput, fleetReport } from "../fleet/fleet-report.ts";
import { fleetSarifChunks } from "../fleet/fleet-sarif.ts";
import { entriesAt, type EntryPlace, journalEntries } from "../fleet/journal-entries.ts";
import { scenarioOutline } from "../fleet/scenario-outline.ts";
import { StringPool } from "../fleet/string-pool.ts";
import type { Report } from "../report/report-model.ts";
import { type FleetFormat, type ReportTarget, reportChunks, type StagedReport, stageReport } from "./report-targets.ts";

export interface FleetReports {
  /** The report with each scenario as an outline: enough for the text summary, the exit status and the head of
   * every format. */
  frame: Report;
  /** The whole entries in the report's order, read again at each call. */
  entries: () => Iterable<FleetEntry>;
}

/** What the report keeps of an entry while the details stream, its texts shared with the other entries' (a fleet
 * repeats most of them from config to config). */
function outline(entry: FleetEntry, pool: StringPool): FleetEntry {
  return { config: entry.config, scenario: pool.intern(scenarioOutline(entry.scenario)), lint: null };
}

/** Entries held already (merged blobs). */
export function fleetReportsOf(input: FleetReportInput): FleetReports {
  const all = input.entries;
  const pool = new StringPool();
  return { frame: fleetReport({ ...input, entries: all.map((entry) => outline(entry, pool)) }), entries: () => all };
}

/** A finished journal's entries, in `order` (config ids, the fleet's order); only their outlines and places are
 * held. */
export function fleetReportsFromJournal(input: Omit<FleetReportInput, "entries">, journal: string, order: readonly string[]): FleetReports {
  const outlines = new Map<string, FleetEntry>();
  const places = new Map<string, EntryPlace>();
  const pool = new StringPool();
  for (const { entry, place } of journalEntries(journal)) {
    outlines.set(entry.config, outline(entry, pool));
    places.set(entry.config, place);
  }
  const missing = order.filter((id) => !places.has(id));
  if (missing.length > 0) throw new HarnessError("HARNESS_BLOB", `${journal}: no entry for ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}.`);
  const ordered = order.map((id) => places.get(id)!);
  return { frame: fleetReport({ ...input, entries: order.map((id) => outlines.get(id)!) }), entries: () => entriesAt(journal, ordered) };
}

/** Every report written to its temporary file, then all renamed into place (the blob copied from the journal). */
export function writeFleetReports(reports: FleetReports, journal: string | null, targets: ReadonlyArray<ReportTarget<FleetFormat>>): void {
  const staged: StagedReport[] = [];
  try {
    for (const target of targets) {
      if (target.format === "blob") continue;
      if (target.format === "sarif") {
        staged.push(stageReport(target, fleetSarifChunks(reports.entries, { toolVersion: reports.frame.tool.version, cwd: process.cwd() })));
        continue;
      }
      const format = target.format;
      staged.push(stageReport(target, reportChunks(reports.frame, format, function* () {
        for (const entry of reports.entries()) yield entry.scenario;
      })));
    }
  } catch (error) {
    for (const report of staged) report.discard();
    throw error;
  }
  for (const report of staged) report.publish();
  for (const target of targets) if (target.format === "blob" && journal) publishBlob(journal, target.path);
  for (const target of targets) process.stderr.write(`wrote ${target.format} report: ${target.path}\n`);
}
