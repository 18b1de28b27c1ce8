import { describe, expect, it } from "vitest";
import { probeMatrix } from "../../../harness/report/probe-matrix.ts";
import type { ReportProbeCell } from "../../../harness/report/report-model.ts";
import { ADMIN, HOSTILE_REGION, PROBE_CELLS } from "./probe-report.ts";

describe("probeMatrix", () => {
  const matrix = probeMatrix(PROBE_CELLS);

  it("has one row per vhost, section and path, in order of first appearance", () => {
    expect(matrix.rows.map((r) => [r.region, r.path])).toEqual([
      [ADMIN, "/admin/probe.html"],
      ["<Location /cgi-bin>", "/cgi-bin/probe.cgi"],
      ["/", "/index.html"],
      [HOSTILE_REGION, "/x/<b>probe</b>.txt"],
      ["<Directory /srv/www/private>", null],
    ]);
  });

  it("has one column per client, credential state and user, in order of first appearance", () => {
    expect(matrix.columns.map((c) => c.label)).toEqual(["outsider · none", "10.0.0.0/8 · valid admin", "10.0.0.0/8 · wrong-password admin"]);
  });

  it("puts every cell in exactly one slot, the methods of one slot together in the cells' order", () => {
    const [admin] = matrix.rows;
    const [outsider, valid, wrong] = matrix.columns;
    expect(matrix.at(admin!, outsider!).map((c) => c.method)).toEqual(["GET", "HEAD"]);
    expect(matrix.at(admin!, valid!).map((c) => c.class)).toEqual(["equal"]);
    expect(matrix.at(admin!, wrong!)).toEqual([]);
    const placed = matrix.rows.flatMap((row) => matrix.columns.flatMap((column) => matrix.at(row, column)));
    expect(placed).toHaveLength(PROBE_CELLS.length);
    expect(new Set(placed.map((c) => c.cell)).size).toBe(PROBE_CELLS.length);
  });

  it("keeps apart places whose parts would run together if joined", () => {
    const base = PROBE_CELLS[0]!;
    const cells: ReportProbeCell[] = [
      { ...base, cell: "a", vhost: "h", region: "a|b", path: "/c" },
      { ...base, cell: "b", vhost: "h", region: "a", path: "b|/c" },
      { ...base, cell: "c", vhost: "h", region: "a", path: null },
      { ...base, cell: "d", vhost: "h", region: "a", path: "null" },
    ];
    expect(probeMatrix(cells).rows).toHaveLength(4);
  });
});
