import { describe, expect, it } from "vitest";
import { renderReport, REPORT_FORMATS } from "../../../harness/cli/report-targets.ts";
import { readBlob } from "../../../harness/fleet/blob.ts";
import { fleetReport, reportTally } from "../../../harness/fleet/fleet-report.ts";
import { fleetSarif } from "../../../harness/fleet/fleet-sarif.ts";
import { type MergedFleet, mergeBlobs } from "../../../harness/fleet/merge-blobs.ts";
import { summarize, tallyOf } from "../../../harness/judge/judge-run.ts";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import type { ScenarioJudgement } from "../../../harness/judge/judge-scenario.ts";
import type { RunSide } from "../../../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { BASELINE, CANDIDATE } from "../../../harness/plan/side.ts";
import { buildScenarioReport } from "../../../harness/report/build-report.ts";
import type { Report } from "../../../harness/report/report-model.ts";
import { a1Run, c1Run, c1SeedClaimRun, candidateOnlyRun, errorRun, fRun, weakEtagRun, x1Run } from "../../fixtures/observations/scenarios.ts";
import { fleetFixture, type FleetFixture, manifestOf, sampleLint, SIDES, writeShardBlobs } from "./fleet-blobs.ts";

const TOOL = "0.1.0";
const RUN_SIDES: RunSide[] = [
  { side: BASELINE, image: SIDES.sides[0]!.image, version: "2.2.34", missing: false },
  { side: CANDIDATE, image: SIDES.sides[1]!.image, version: "2.4.62", missing: false },
];

/** The fixtures' runs, each the run of one config of the fleet (site-1 … site-8), judged as run-fleet judges. */
const runs: ScenarioRun[] = [a1Run(), fRun(), c1Run(), c1SeedClaimRun(), x1Run(), weakEtagRun(), errorRun(), candidateOnlyRun()].map((run, i) => ({
  ...run,
  scenario: { ...run.scenario, id: `site-${i + 1}` },
}));
const judgements: ScenarioJudgement[] = runs.map((run) => judgeScenario(run));
const scenarios = judgements.map(buildScenarioReport);

// Lint on real trees for three of the configs, so the SARIF has findings to compare.
const lint = new Map([
  [0, await sampleLint("rhel-balancer", "fleet/site-1")],
  [3, await sampleLint("app-htaccess", "fleet/site-4")],
  [5, await sampleLint("debian-ssl", "fleet/site-6")],
]);

function fixture(count: number): FleetFixture {
  return fleetFixture(scenarios, count, { copy: true, lint });
}

function reportOf(merged: MergedFleet): Report {
  return fleetReport({ ...merged, toolVersion: TOOL });
}

function sarifOf(merged: MergedFleet): string {
  return `${JSON.stringify(fleetSarif(merged.entries, { toolVersion: TOOL, cwd: "/work" }), null, 2)}\n`;
}

describe("a fleet merged from shards", () => {
  const one = fixture(1);
  const three = fixture(3);
  const single = mergeBlobs(writeShardBlobs(one).map((path) => readBlob(path)));
  // Given in reverse: the order of the blobs on the command line changes nothing.
  const merged = mergeBlobs(writeShardBlobs(three).reverse().map((path) => readBlob(path)));

  it("has every config on one shard in the single run, and on each of three in the sharded one, of the same inputs", () => {
    expect(new Set(single.manifest.configs.map((c) => c.shard))).toEqual(new Set([1]));
    expect(new Set(merged.manifest.configs.map((c) => c.shard))).toEqual(new Set([1, 2, 3]));
    expect(merged.manifest.inputsHash).toBe(single.manifest.inputsHash);
  });

  it("renders the same JUnit report as one run, byte for byte", () => {
    expect(renderReport(reportOf(merged), "junit")).toBe(renderReport(reportOf(single), "junit"));
  });

  it("renders the same SARIF as one run, byte for byte", () => {
    const sarif = sarifOf(merged);
    expect(sarif).toBe(sarifOf(single));
    // It holds the linted trees' findings, a result per cause and a location per place: three, and the copy of the first.
    const results = (JSON.parse(sarif) as { runs: Array<{ results: Array<{ locations: unknown[] }> }> }).runs[0]!.results;
    const places = results.reduce((sum, result) => sum + result.locations.length, 0);
    expect(places).toBe([...lint.values()].reduce((sum, l) => sum + l.findings.length, 0) + lint.get(0)!.findings.length);
    expect(places).toBeGreaterThan(lint.get(0)!.findings.length);
  });

  // The reports do not say how many shards ran the fleet: a merge gives exactly the report one run gives.
  it.each(REPORT_FORMATS)("renders the %s report of one run byte for byte", (format) => {
    expect(renderReport(reportOf(merged), format)).toBe(renderReport(reportOf(single), format));
  });

  it("renders what `fleet` renders from its entries in memory, before any blob is written", () => {
    const inMemory = fleetReport({ manifest: manifestOf(one, 1), sides: SIDES, entries: one.entries, durationMs: 42_000, engines: null, toolVersion: TOOL });
    for (const format of REPORT_FORMATS) expect(renderReport(reportOf(single), format)).toBe(renderReport(inMemory, format));
    expect(sarifOf(single)).toBe(`${JSON.stringify(fleetSarif(one.entries, { toolVersion: TOOL, cwd: "/work" }), null, 2)}\n`);
  });
});

describe("fleetReport", () => {
  const one = fixture(1);
  const merged = mergeBlobs(writeShardBlobs(fixture(3)).map((path) => readBlob(path)));
  const report = reportOf(merged);
  // The copy of site-1 is judged as site-1 was, under its own id.
  const copy = judgeScenario({ ...runs[0]!, scenario: { ...runs[0]!.scenario, id: "site-copy" } });

  it("tallies each scenario of the report as the judge tallied its judgement", () => {
    const sides = report.sides;
    expect(report.scenarios.map((s) => reportTally(s, sides))).toEqual([...judgements, copy].map(tallyOf));
  });

  it("sums up the fleet as the judge sums up the judgements its entries were built from", () => {
    expect(report.summary).toEqual(summarize([...judgements, copy], RUN_SIDES, 42_000));
    expect(report.summary.scenarios).toBe(9);
  });

  it("lists each config with its path, verdict, causes and the tree it is a copy of, in the fleet's order", () => {
    expect(report.fleet!.configs.map((c) => [c.id, c.path, c.verdict, c.findings.map((f) => f.rule).join(" "), c.sameAs])).toEqual(
      [...judgements, copy].map((j, i) => [j.run.scenario.id, i < 8 ? `fleet/site-${i + 1}` : "fleet/site-copy", j.verdict, j.findings.map((f) => f.rule).join(" "), i < 8 ? null : "site-1"]),
    );
    expect(report.fleet!.configs.find((c) => c.id === "site-7")!.error).toBe("HARNESS_CONTAINER: backend backend did not start");
    expect([report.fleet!.duplicates, report.fleet!.inputsHash]).toEqual([1, manifestOf(one, 1).inputsHash]);
    expect(report.scenarios.map((s) => s.file)).toEqual(report.fleet!.configs.map((c) => c.path));
  });
});

describe("a config no version starts", () => {
  const one = fixture(1);
  const dead = (findings: Report["scenarios"][number]["findings"]) => {
    const scenario = structuredClone(one.entries[0]!.scenario);
    scenario.verdict = "broken-on-both";
    scenario.findings = findings;
    const failed = { ok: false, exitCode: 1, syntaxError: null, messages: ["[Thu Nov 26 22:02:47.023455 2026] [core:warn] [pid 9:tid 9] AH00111: Config variable ${APACHE_LOG_DIR} is not defined", "(2)No such file or directory: AH02291: Cannot access directory '/var/log/apache2/' for error log", "AH00014: Configuration check failed"] };
    scenario.configTest = { baseline: failed, candidate: failed };
    const entries = [{ ...one.entries[0]!, scenario }, ...one.entries.slice(1)];
    return fleetReport({ manifest: manifestOf(one, 1), sides: SIDES, entries, durationMs: 1, engines: null, toolVersion: TOOL }).fleet!.configs[0]!;
  };

  it("says why from the config test when no rule names a cause, never just nothing", () => {
    expect(dead([]).error).toBe("neither version starts: (2)No such file or directory: AH02291: Cannot access directory '/var/log/apache2/' for error log");
  });

  it("leaves it to the findings when a rule names the cause", () => {
    expect(dead(structuredClone(one.entries.find((e) => e.scenario.findings.length > 0)!.scenario.findings)).error).toBeNull();
  });
});
