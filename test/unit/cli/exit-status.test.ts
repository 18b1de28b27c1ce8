import { describe, expect, it } from "vitest";
import { EXIT, exitStatusFor, runExitStatus } from "../../../harness/cli/exit-status.ts";
import type { HarnessErrorCode } from "../../../harness/errors.ts";
import { judgeRun } from "../../../harness/judge/judge-run.ts";
import type { TriageInputs } from "../../../harness/judge/triage.ts";
import type { RunSide } from "../../../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { BASELINE, CANDIDATE } from "../../../harness/plan/side.ts";
import { buildReport } from "../../../harness/report/build-report.ts";
import { parseIgnoreFile } from "../../../harness/rules/ignore-file.ts";
import { CONFIG_TESTS, observePlan, sidePlan } from "../../fixtures/observations/recorded.ts";
import { MISSING_BASELINE, a1Run, run, scenario, weakEtagRun } from "../../fixtures/observations/scenarios.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";

// The contract of README.md ("exit status") and docs/errors.md: bad input 2, environment 3, Ctrl-C 130.
const CONTRACT: Record<HarnessErrorCode, number> = {
  HARNESS_USAGE: 2,
  HARNESS_FLEET_FILE: 2,
  HARNESS_MATRIX_FILE: 2,
  HARNESS_BLOB: 2,
  HARNESS_ENGINE_MISMATCH: 3,
  HARNESS_SCENARIO_PARSE: 2,
  HARNESS_SCENARIO_INVALID: 2,
  HARNESS_SCENARIO_NOT_FOUND: 2,
  HARNESS_CONFIG_FILE: 2,
  HARNESS_IGNORE_FILE: 2,
  HARNESS_ACCESS_LOG: 2,
  HARNESS_MODULE_UNKNOWN: 2,
  HARNESS_ENGINE_UNAVAILABLE: 3,
  HARNESS_IMAGE_MISSING: 3,
  HARNESS_IMAGE_BUILD: 3,
  HARNESS_IMAGE_UNSUPPORTED: 3,
  HARNESS_CONTAINER: 3,
  HARNESS_CLIENT_ADDRESS: 3,
  HARNESS_REPORT_WRITE: 3,
  HARNESS_DEADLINE: 1,
  HARNESS_INTERRUPTED: 130,
  HARNESS_INTERNAL: 3,
};

describe("exitStatusFor", () => {
  it("maps usage and scenario errors to 2, engine and image errors to 3, an interrupt to 130", () => {
    const codes = Object.keys(CONTRACT) as HarnessErrorCode[];
    expect(Object.fromEntries(codes.map((code) => [code, exitStatusFor(code)]))).toEqual(CONTRACT);
  });

  it("names the statuses of the contract", () => {
    expect(EXIT).toEqual({ ok: 0, regressions: 1, badInput: 2, environment: 3, interrupted: 130 });
  });

  it("agrees with the table in docs/errors.md", async () => {
    const { readFile } = await import("node:fs/promises");
    const doc = await readFile(new URL("../../../docs/errors.md", import.meta.url), "utf8");
    const rows = [...doc.matchAll(/^\| `(HARNESS_[A-Z_]+)` \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(CONTRACT);
  });
});

describe("runExitStatus", () => {
  const SIDES: RunSide[] = [
    { side: BASELINE, image: "httpd:2.2.34", version: "2.2.34", missing: false },
    { side: CANDIDATE, image: "httpd:2.4.62", version: "2.4.62", missing: false },
  ];
  const reportOf = (runs: ScenarioRun[], inputs: TriageInputs = { rules: [], lint: new Map(), ignore: null }, sides = SIDES) =>
    buildReport(judgeRun({ startedAt: new Date(0), sides, runs, durationMs: 1 }, inputs), "0.1.0");

  it("is 0 when nothing differs but noise", () => {
    expect(runExitStatus(reportOf([a1Run()]))).toBe(EXIT.ok);
  });

  it("is 1 for a regression no rule explains, and 0 once the ignore file silences it, counting it by rule", () => {
    expect(runExitStatus(reportOf([weakEtagRun()]))).toBe(EXIT.regressions);
    const ignore = parseIgnoreFile("ignore:\n  - header: ETag\n    reason: our caches do not use ETags\n", "fleet.yaml");
    const report = reportOf([weakEtagRun()], { rules: [], lint: new Map(), ignore });
    expect([runExitStatus(report), report.summary.ignored.byRule, report.scenarios[0]!.verdict]).toEqual([EXIT.ok, { unexplained: 1 }, "noise"]);
  });

  it("is 1 for a config 2.4 refuses when no baseline ran, whatever the rules know", () => {
    const site = scenario("id: site\ntitle: a tree's smoke request\nrequests:\n  - { name: home, path: / }\n");
    const candidate = observePlan(sidePlan(site, "2.4"), { configTest: CONFIG_TESTS.d1User24, started: false });
    const sides: RunSide[] = [{ side: BASELINE, image: "httpd:2.2.34", version: null, missing: true }, SIDES[1]!];
    const report = reportOf([run(site, { candidate }, { skipped: [MISSING_BASELINE] })], undefined, sides);
    expect([runExitStatus(report), report.scenarios[0]!.verdict, report.scenarios[0]!.findings.map((f) => [f.rule, f.gating])]).toEqual([EXIT.regressions, "error", [["unexplained", true]]]);
  });

  it("is 1 for a gating finding even when every verdict is benign, 0 when no finding gates", () => {
    const quiet = structuredClone(sampleReport);
    for (const s of quiet.scenarios) {
      s.verdict = "same";
      s.error = null;
    }
    quiet.summary.byVerdict = { same: quiet.scenarios.length, "expected-change": 0, regression: 0, noise: 0, error: 0, unverified: 0, "broken-on-both": 0 };
    expect(runExitStatus(quiet)).toBe(EXIT.regressions);
    for (const s of quiet.scenarios) for (const f of s.findings) f.gating = false;
    expect(runExitStatus(quiet)).toBe(EXIT.ok);
  });

  it("is 2 when a scenario was bad input, before any finding", () => {
    const bad = structuredClone(sampleReport);
    bad.scenarios[0]!.error = { code: "HARNESS_SCENARIO_INVALID", message: "x" };
    expect(runExitStatus(bad)).toBe(EXIT.badInput);
  });
});
