import { describe, expect, it } from "vitest";
import { judgeRun, summarize, summarizeRows } from "../../../harness/judge/judge-run.ts";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import { VERDICTS, worst } from "../../../harness/judge/verdicts.ts";
import type { RunSide } from "../../../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { BASELINE, CANDIDATE } from "../../../harness/plan/side.ts";
import {
  a1Run,
  c1Observations,
  c1Run,
  c1SeedClaimRun,
  c1Yaml,
  candidateOnlyRun,
  errorRun,
  fRun,
  run,
  scenario,
  weakEtagRun,
  x1Run,
} from "../../fixtures/observations/scenarios.ts";

const SIDES: RunSide[] = [
  { side: BASELINE, image: "httpd:2.2.34", version: "2.2.34", missing: false },
  { side: CANDIDATE, image: "httpd:2.4.62", version: "2.4.62", missing: false },
];

const D5_NOTE = "2.4.62 answers 500, not 502: mod_proxy turns the failed handshake into ap_proxyerror(500)";

describe("verdicts", () => {
  it("ranks the most urgent first", () => {
    expect(VERDICTS).toEqual(["regression", "error", "broken-on-both", "unverified", "expected-change", "noise", "same"]);
  });

  it("picks the most urgent verdict, same for none", () => {
    expect([worst([]), worst(["same", "noise"]), worst(["noise", "expected-change", "same"]), worst(["expected-change", "error"]), worst(["error", "regression"])]).toEqual([
      "same",
      "noise",
      "expected-change",
      "error",
      "regression",
    ]);
  });
});

describe("summarize", () => {
  const runs = (): ScenarioRun[] => [a1Run(), fRun(), c1Run(), c1SeedClaimRun(), x1Run(), weakEtagRun(), errorRun(), candidateOnlyRun()];

  it("counts verdicts, met and failed expectations per side, regressions, and lists where the guide is wrong", () => {
    const scenarios = runs().map((r) => judgeScenario(r));
    expect(summarize(scenarios, SIDES, 98_765)).toEqual({
      scenarios: 8,
      byVerdict: { same: 0, "expected-change": 3, regression: 2, noise: 1, error: 1, unverified: 1, "broken-on-both": 0 },
      // stated and ok: a1, f, c1, c1-seed-claim (2.2 side), x1, weak-ETag (both sides); candidate-only a1 (2.4).
      expectationsMet: { baseline: 6, candidate: 6 },
      // c1 with the seed's 502 on 2.4; the error run and the skipped baseline are not failures.
      expectationsFailed: { baseline: 0, candidate: 1 },
      guideWrong: [
        { id: "https-proxy-expired-backend", seed: ["D5"], notes: [D5_NOTE] },
        { id: "https-proxy-expired-backend", seed: ["D5"], notes: [D5_NOTE] },
      ],
      // a1, x1 and the candidate-only a1 (its 2.4 guide is met).
      guideHolds: 3,
      regressions: 2,
      rows: { covered: 4, guideHolds: 3, differ: 3, guideWrong: [{ row: "D5", scenarios: ["https-proxy-expired-backend", "https-proxy-expired-backend"], note: D5_NOTE }] },
      // By cause, worst first: x1's refusal (B4 claims it; the scenario predicts it, so it does not gate), the
      // 500 of c1 with the seed's claim and the weak ETag nothing explains, then the changes c1 and f predict,
      // credited to their seed rows (no rule for them yet: the known difference's reason, else the scenario's title).
      findings: [
        // An inline config: the line the config test names is of the rendered httpd.conf.
        { rule: "M5", severity: "blocking", security: false, title: "User and Group need mod_unixd on 2.4", scenarios: ["user-without-unixd"], requests: 0, config: [{ file: "/usr/local/apache2/conf/httpd.conf", line: 35, directive: null }], gating: false },
        { rule: "unexplained", severity: "unexplained", security: false, title: "differences no rule explains", scenarios: ["etag-default-without-inode"], requests: 1, config: [], gating: true },
        { rule: "D5", severity: "behaviour", security: false, title: "SSLProxyCheckPeerExpire defaults to On on 2.4: an expired backend certificate is refused", scenarios: ["https-proxy-expired-backend"], requests: 2, config: [], gating: false },
        { rule: "D3", severity: "expected", security: false, title: 'FileETag defaults to "MTime Size" on 2.4: ETags lose their inode part', scenarios: ["etag-default-without-inode"], requests: 1, config: [], gating: false },
      ],
      ignored: { byRule: {} },
      durationMs: 98_765,
    });
  });

  it("counts expectations for every side of the run, by its id", () => {
    const third: RunSide = { side: { id: "candidate-2", role: "candidate" }, image: "httpd:2.4.68", version: "2.4.68", missing: false };
    const summary = summarize([a1Run(), c1SeedClaimRun()].map((r) => judgeScenario(r)), [...SIDES, third], 1);
    expect([summary.expectationsMet, summary.expectationsFailed]).toEqual([
      { baseline: 2, candidate: 1, "candidate-2": 0 },
      { baseline: 0, candidate: 1, "candidate-2": 0 },
    ]);
  });

  it("lists the guide's failures, with the version, as the notes of a wrong guide claim that has no notes", () => {
    const c1 = scenario(c1Yaml().replace(/\n {2}notes: \[[^\n]*/, ""));
    expect(summarize([judgeScenario(run(c1, c1Observations(c1)))], SIDES, 1).guideWrong).toEqual([
      { id: "https-proxy-expired-backend", seed: ["D5"], notes: ["2.4.62: request proxied: status: expected status 502, got status 500 (x.scenario.yaml:23:14)"] },
    ]);
  });
});

describe("summarizeRows", () => {
  it("counts the rows the scenarios exercise, where the versions differ and where the guide is wrong, in row order", () => {
    const scenarios = [x1Run(), fRun(), c1Run(), a1Run()].map((r) => judgeScenario(r));
    expect(summarizeRows(scenarios)).toEqual({
      covered: 4,
      guideHolds: 3,
      // X1 (config test), D3 (ETag), D5 (200 vs 500); A6's differences are noise.
      differ: 3,
      guideWrong: [{ row: "D5", scenarios: ["https-proxy-expired-backend"], note: D5_NOTE }],
    });
  });

  it("is empty for no scenarios", () => {
    expect(summarizeRows([])).toEqual({ covered: 0, guideHolds: 0, differ: 0, guideWrong: [] });
  });
});

describe("judgeRun", () => {
  it("judges every scenario of the run and keeps the run's identity", () => {
    const startedAt = new Date("2026-11-21T22:40:00Z");
    const judgement = judgeRun({ startedAt, sides: SIDES, runs: [a1Run(), c1SeedClaimRun()], durationMs: 4321 });
    expect({ ...judgement, scenarios: judgement.scenarios.map((s) => [s.run.scenario.id, s.verdict]) }).toEqual({
      startedAt,
      sides: SIDES,
      candidates: [
        {
          side: SIDES[1]!.side,
          label: SIDES[1]!.image,
          axis: "upstream",
          image: SIDES[1]!.image,
          version: SIDES[1]!.version,
          byVerdict: { same: 0, "expected-change": 0, regression: 1, noise: 1, error: 0, unverified: 0, "broken-on-both": 0 },
        },
      ],
      scenarios: [
        ["server-status-directory-deny", "noise"],
        ["https-proxy-expired-backend", "regression"],
      ],
      summary: {
        scenarios: 2,
        byVerdict: { same: 0, "expected-change": 0, regression: 1, noise: 1, error: 0, unverified: 0, "broken-on-both": 0 },
        expectationsMet: { baseline: 2, candidate: 1 },
        expectationsFailed: { baseline: 0, candidate: 1 },
        guideWrong: [{ id: "https-proxy-expired-backend", seed: ["D5"], notes: [D5_NOTE] }],
        guideHolds: 1,
        regressions: 1,
        rows: { covered: 2, guideHolds: 1, differ: 1, guideWrong: [{ row: "D5", scenarios: ["https-proxy-expired-backend"], note: D5_NOTE }] },
        findings: [{ rule: "D5", severity: "behaviour", security: false, title: "SSLProxyCheckPeerExpire defaults to On on 2.4: an expired backend certificate is refused", scenarios: ["https-proxy-expired-backend"], requests: 1, config: [], gating: false }],
        ignored: { byRule: {} },
        durationMs: 4321,
      },
    });
  });

  it("skips the scenarios an interrupted run never got to", () => {
    const runs: ScenarioRun[] = new Array(3);
    runs[0] = a1Run();
    const judgement = judgeRun({ startedAt: new Date(0), sides: SIDES, runs, durationMs: 1 });
    expect(judgement.scenarios.map((s) => s.run.scenario.id)).toEqual(["server-status-directory-deny"]);
    expect(judgement.summary.scenarios).toBe(1);
  });
});
