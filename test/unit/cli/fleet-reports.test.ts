// `fleet` writes its reports from its journal, entry by entry, in the fleet's order whatever order the configs
// finished in; `merge-reports` from the merged blobs. Both give, byte for byte, what the whole-string renderers
// give on the whole report; every report is whole or absent.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fleetReportsFromJournal, fleetReportsOf, writeFleetReports } from "../../../harness/cli/fleet-reports.ts";
import { renderReport, REPORT_FORMATS, type ReportTarget, type FleetFormat } from "../../../harness/cli/report-targets.ts";
import { readBlob } from "../../../harness/fleet/blob.ts";
import { fleetReport } from "../../../harness/fleet/fleet-report.ts";
import { fleetSarif } from "../../../harness/fleet/fleet-sarif.ts";
import { mergeBlobs } from "../../../harness/fleet/merge-blobs.ts";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import { buildScenarioReport } from "../../../harness/report/build-report.ts";
import { a1Run, c1Run, candidateOnlyRun, errorRun, fRun, weakEtagRun, x1Run } from "../../fixtures/observations/scenarios.ts";
import { fleetFixture, manifestOf, sampleLint, SIDES, tempDir, writeBlob, writeShardBlobs } from "../fleet/fleet-blobs.ts";

const TOOL = "0.1.0";
const scenarios = [a1Run(), fRun(), c1Run(), x1Run(), weakEtagRun(), errorRun(), candidateOnlyRun()].map((run) => buildScenarioReport(judgeScenario(run)));
const one = fleetFixture(scenarios, 1, { copy: true, lint: new Map([[0, await sampleLint("rhel-balancer", "fleet/site-1")], [2, await sampleLint("app-htaccess", "fleet/site-3")]]) });
const manifest = manifestOf(one, 1);
const whole = fleetReport({ manifest, sides: SIDES, entries: one.entries, durationMs: 42_000, engines: null, toolVersion: TOOL });
const FORMATS: FleetFormat[] = [...REPORT_FORMATS, "sarif"];

function targets(dir: string): Array<ReportTarget<FleetFormat>> {
  return FORMATS.map((format) => ({ format, path: join(dir, "reports", `fleet.${format}`) }));
}

function expected(format: FleetFormat): string {
  if (format === "sarif") return `${JSON.stringify(fleetSarif(one.entries, { toolVersion: TOOL, cwd: process.cwd() }), null, 2)}\n`;
  if (format === "blob") throw new Error("the blob is the journal");
  return renderReport(whole, format);
}

describe("fleet reports written from the journal", () => {
  const dir = tempDir("fleet-reports-");
  // Finished in another order than the fleet's (the journal's order), as a run with several at once has them.
  const journal = writeBlob(join(dir, "journal.jsonl"), { manifest, entries: [...one.entries].reverse() });
  const order = one.configs.map((c) => c.id);
  const reports = fleetReportsFromJournal({ manifest, sides: SIDES, durationMs: 42_000, engines: null, toolVersion: TOOL }, journal, order);
  writeFleetReports(reports, journal, [...targets(dir), { format: "blob", path: join(dir, "reports", "shard.blob") }]);

  it.each(FORMATS)("writes the %s report the whole report renders, byte for byte", (format) => {
    expect(readFileSync(join(dir, "reports", `fleet.${format}`), "utf8")).toBe(expected(format));
  });

  it("says what the whole report says: the fleet's configs, summary and causes", () => {
    expect([reports.frame.fleet, reports.frame.summary, reports.frame.candidates]).toEqual([whole.fleet, whole.summary, whole.candidates]);
  });

  it("copies the journal as the blob, and leaves no temporary file", () => {
    expect(readFileSync(join(dir, "reports", "shard.blob"), "utf8")).toBe(readFileSync(journal, "utf8"));
    expect(readdirSync(join(dir, "reports")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses a journal that lacks an entry of the order", () => {
    expect(() => fleetReportsFromJournal({ manifest, sides: SIDES, durationMs: 1, engines: null, toolVersion: TOOL }, journal, [...order, "site-gone"])).toThrow(/no entry for site-gone/);
  });
});

describe("merge-reports' reports", () => {
  it("are the very bytes of one run's", () => {
    const dir = tempDir("fleet-merge-reports-");
    const three = fleetFixture(scenarios, 3, { copy: true, lint: new Map([[0, one.entries[0]!.lint], [2, one.entries[2]!.lint]]) });
    const merged = mergeBlobs(writeShardBlobs(three, dir).map((path) => readBlob(path)));
    writeFleetReports(fleetReportsOf({ ...merged, toolVersion: TOOL }), null, targets(dir));
    for (const format of FORMATS) expect(readFileSync(join(dir, "reports", `fleet.${format}`), "utf8")).toBe(expected(format));
  });
});

describe("a report that cannot be written", () => {
  it("leaves every report absent, none half written", () => {
    const dir = tempDir("fleet-reports-refused-");
    const journal = writeBlob(join(dir, "journal.jsonl"), { manifest, entries: one.entries });
    const reports = fleetReportsFromJournal({ manifest, sides: SIDES, durationMs: 1, engines: null, toolVersion: TOOL }, journal, one.configs.map((c) => c.id));
    // The second target's directory is a file: its report cannot be made.
    const blocked = join(dir, "journal.jsonl", "x.html");
    expect(() => writeFleetReports(reports, journal, [{ format: "json", path: join(dir, "out", "fleet.json") }, { format: "html", path: blocked }])).toThrow(/Could not write the html report/);
    expect(existsSync(join(dir, "out", "fleet.json"))).toBe(false);
    expect(readdirSync(join(dir, "out"))).toEqual([]);
  });
});
