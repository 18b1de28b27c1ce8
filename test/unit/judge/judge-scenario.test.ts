import { describe, expect, it } from "vitest";
import { judgeScenario, type ScenarioJudgement } from "../../../harness/judge/judge-scenario.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { planScenario } from "../../../harness/plan/plan-scenario.ts";
import { BASELINE, CANDIDATE, type Side } from "../../../harness/plan/side.ts";
import { recordedInspection } from "../../fixtures/observations/recorded.ts";
import {
  A1_YAML,
  F_YAML,
  MISSING_BASELINE,
  X1_YAML,
  a1Observations,
  a1Run,
  c1Observations,
  c1Run,
  c1SeedClaimRun,
  c1Yaml,
  candidateOnlyRun,
  errorRun,
  fObservations,
  fRun,
  run,
  scenario,
  weakEtagRun,
  x1Observations,
  x1Run,
} from "../../fixtures/observations/scenarios.ts";

const MET = { ok: true, stated: true, failures: [], skipped: null };

function verdictOf(scenarioRun: ScenarioRun): Pick<ScenarioJudgement, "verdict" | "coverage"> {
  const { verdict, coverage } = judgeScenario(scenarioRun);
  return { verdict, coverage };
}

/** Each side's expectation check, without its observation. */
function sideResults(judgement: ScenarioJudgement) {
  return judgement.sides.map(({ side, ok, stated, failures, skipped }) => ({ side: side.id, ok, stated, failures, skipped }));
}

describe("judgeScenario, verdict", () => {
  it("is error when the harness could not run the scenario, whatever else holds", () => {
    const judgement = judgeScenario(errorRun());
    expect([judgement.verdict, sideResults(judgement), judgement.comparisons]).toEqual([
      "error",
      [
        { side: "baseline", ok: false, stated: false, failures: [], skipped: "the scenario could not run" },
        { side: "candidate", ok: false, stated: false, failures: [], skipped: "the scenario could not run" },
      ],
      [],
    ]);
    const c1 = scenario(c1Yaml("{ status: 502 }"));
    const withObservations = run(c1, c1Observations(c1), { error: { code: "HARNESS_CONTAINER", message: "x" } });
    expect(verdictOf(withObservations).verdict).toBe("error");
  });

  it("is regression when a side misses a stated expectation, though the differences alone would be expected changes", () => {
    const judgement = judgeScenario(c1SeedClaimRun());
    expect(judgement.verdict).toBe("regression");
    expect(sideResults(judgement)).toEqual([
      { side: "baseline", ...MET },
      {
        side: "candidate",
        ok: false,
        stated: true,
        failures: [{ kind: "status", request: "proxied", field: "status", expected: "status 502", actual: "status 500", at: { file: "x.scenario.yaml", line: 21, column: 14 } }],
        skipped: null,
      },
    ]);
  });

  it("is regression when the baseline misses its stated expectation", () => {
    // 2.2 logs the denial at level error, not crit.
    const a1 = scenario(A1_YAML.replace("[{ level: error, message", "[{ level: crit, message"));
    const judgement = judgeScenario(run(a1, a1Observations(a1)));
    expect([judgement.verdict, ...judgement.sides.map((s) => [s.side.id, s.ok])]).toEqual(["regression", ["baseline", false], ["candidate", true]]);
  });

  it("is otherwise the worst class among the differences", () => {
    expect([verdictOf(a1Run()), verdictOf(fRun()), verdictOf(c1Run()), verdictOf(x1Run()), verdictOf(weakEtagRun())]).toEqual([
      { verdict: "noise", coverage: "both" }, // Date, Server, reworded 403 document
      { verdict: "expected-change", coverage: "both" }, // D3 ETag
      { verdict: "expected-change", coverage: "both" }, // 200 vs 500, met expectations
      { verdict: "expected-change", coverage: "both" }, // config test, start
      { verdict: "regression", coverage: "both" }, // weak ETag
    ]);
  });

  it("is same when nothing differs", () => {
    const f = scenario(F_YAML);
    const { candidate } = fObservations(f);
    expect(verdictOf(run(f, { baseline: { ...candidate, side: BASELINE }, candidate }))).toEqual({ verdict: "same", coverage: "both" });
  });

  it("compares the candidate with the baseline: server differences, and each request's", () => {
    const x1 = judgeScenario(x1Run());
    expect(x1.comparisons.map((c) => c.candidate)).toEqual(["candidate"]);
    expect(x1.comparisons[0]?.server.map((d) => [d.field, d.class, d.seed])).toEqual([
      ["configTest", "expected-change", ["X1"]],
      ["started", "expected-change", ["X1"]],
    ]);
    const f = judgeScenario(fRun());
    expect(f.comparisons[0]?.server).toEqual([]);
    expect(f.comparisons[0]?.requests.map((r) => [r.name, r.differences.map((d) => `${d.field}: ${d.class}`)])).toEqual([
      ["file", ["header:date: noise", "header:server: noise", "header:etag: expected-change"]],
    ]);
  });

  it("keeps the run it judged", () => {
    const scenarioRun = fRun();
    expect(judgeScenario(scenarioRun).run).toBe(scenarioRun);
  });
});

describe("judgeScenario, sides", () => {
  it("judges every side of the plan, baseline first, each against its own version's statements", () => {
    const judgement = judgeScenario(a1Run());
    expect(judgement.sides.map((s) => [s.side, s.observation?.server.version.text, s.ok, s.stated])).toEqual([
      [BASELINE, "2.2.34", true, true],
      [CANDIDATE, "2.4.62", true, true],
    ]);
  });

  it("compares each further candidate with the baseline", () => {
    const f = scenario(F_YAML);
    const second: Side = { id: "candidate-2", role: "candidate" };
    const { baseline, candidate } = fObservations(f);
    const plan = planScenario(f, [
      { side: BASELINE, inspection: recordedInspection("2.2") },
      { side: CANDIDATE, inspection: recordedInspection("2.4") },
      { side: second, inspection: recordedInspection("2.4") },
    ]);
    const judgement = judgeScenario({ ...run(f, { baseline, candidate }), plan, observations: [baseline, candidate, { ...candidate, side: second }] });
    expect(judgement.sides.map((s) => s.side.id)).toEqual(["baseline", "candidate", "candidate-2"]);
    expect(judgement.comparisons.map((c) => [c.candidate, c.requests[0]?.differences.map((d) => d.field)])).toEqual([
      ["candidate", ["header:date", "header:server", "header:etag"]],
      ["candidate-2", ["header:date", "header:server", "header:etag"]],
    ]);
  });

  it("says a planned side that recorded nothing was not run", () => {
    const a1 = scenario(A1_YAML);
    const judgement = judgeScenario(run(a1, { baseline: a1Observations(a1).baseline }));
    expect(sideResults(judgement)[1]).toEqual({ side: "candidate", ok: false, stated: false, failures: [], skipped: "not run" });
    expect(judgement.comparisons).toEqual([]);
  });
});

describe("judgeScenario, what could not be compared", () => {
  // X1 without its expectations: 2.4 refuses `User` without mod_unixd and does not start, and nothing says so.
  const unexpectedX1 = (): ReturnType<typeof scenario> => scenario(X1_YAML.replace(/\nexpect:[\s\S]*$/, "\n"));

  it("is an error, not unverified, when there is no baseline and the candidate's config does not load", () => {
    const x1 = unexpectedX1();
    const judgement = judgeScenario(run(x1, { candidate: x1Observations(x1).candidate }, { skipped: [MISSING_BASELINE] }));
    expect(verdictOf(judgement.run)).toEqual({ verdict: "error", coverage: "candidate-only" });
  });

  it("is broken-on-both when neither side starts, alike, and the scenario did not expect it", () => {
    const x1 = unexpectedX1();
    const down = x1Observations(x1).candidate;
    const judgement = judgeScenario(run(x1, { baseline: { ...down, side: BASELINE }, candidate: down }));
    expect(judgement.verdict).toBe("broken-on-both");
  });

  it("keeps the scenario's own verdict where it expects a side not to start (X1 on 2.4)", () => {
    expect(judgeScenario(x1Run()).verdict).not.toBe("broken-on-both");
    expect(judgeScenario(x1Run()).verdict).not.toBe("error");
  });
});

describe("judgeScenario, coverage", () => {
  it("is candidate-only and unverified when the baseline was skipped: checks the candidate alone and compares nothing", () => {
    const judgement = judgeScenario(candidateOnlyRun());
    expect({ verdict: judgement.verdict, coverage: judgement.coverage, sides: sideResults(judgement), comparisons: judgement.comparisons }).toEqual({
      verdict: "unverified",
      coverage: "candidate-only",
      sides: [
        { side: "baseline", ok: false, stated: false, failures: [], skipped: "baseline image httpd:2.2.34 missing" },
        { side: "candidate", ...MET },
      ],
      comparisons: [],
    });
    expect(judgement.sides[0]?.observation).toBeNull();
  });

  it("is regression on a candidate-only run when the candidate misses its expectation", () => {
    // 2.4 logs the denial from access_compat (Order/Deny), not from authz_core.
    const a1 = scenario(A1_YAML.replace("module: access_compat", "module: authz_core"));
    const judgement = judgeScenario(run(a1, { candidate: a1Observations(a1).candidate }, { skipped: [MISSING_BASELINE] }));
    expect([judgement.verdict, judgement.coverage]).toEqual(["regression", "candidate-only"]);
  });
});

describe("judgeScenario, guide", () => {
  it("holds when every guide expectation is met (a1 on 2.4, X1's config-test message)", () => {
    expect([judgeScenario(a1Run()).guide, judgeScenario(x1Run()).guide]).toEqual([
      { claim: "2.4 answers 403 and logs AH01797 with the filesystem path", holds: true, notes: [], failures: [] },
      { claim: "Invalid command 'User' ... => load mod_unixd", holds: true, notes: [], failures: [] },
    ]);
  });

  it("does not hold when the real server parts from it, naming the side and the version (c1: 500, not the guide's 502)", () => {
    expect(judgeScenario(c1Run()).guide).toEqual({
      claim: "2.4 checks the backend certificate's expiry by default and answers 502",
      holds: false,
      notes: ["2.4.62 answers 500, not 502: mod_proxy turns the failed handshake into ap_proxyerror(500)"],
      failures: [
        {
          kind: "status",
          request: "proxied",
          field: "status",
          expected: "status 502",
          actual: "status 500",
          at: { file: "x.scenario.yaml", line: 24, column: 14 },
          side: "candidate",
          version: "2.4.62",
        },
      ],
    });
  });

  it("credits no seed row for the differences the expectations explain when the guide does not hold", () => {
    const c1 = judgeScenario(c1Run());
    const status = c1.comparisons[0]?.requests[0]?.differences.find((d) => d.field === "status");
    expect(status).toMatchObject({ class: "expected-change", seed: [] });
    expect(status?.reason).toMatch(/the scenario finds the guide wrong here$/);
    // Where the guide holds, the same kind of difference is credited to the scenario's rows.
    const x1 = judgeScenario(x1Run());
    expect(x1.comparisons[0]?.server.map((d) => d.seed)).toEqual([["X1"], ["X1"]]);
  });

  it("is null when the scenario states no guide expectation, or nothing was observed", () => {
    expect(judgeScenario(fRun()).guide).toEqual({ claim: null, holds: null, notes: [], failures: [] });
    expect(judgeScenario(errorRun()).guide.holds).toBeNull();
  });
});

describe("judgeScenario, version ranges", () => {
  // Patch levels of one line that behave differently: the candidate's own version picks the statement.
  const text = (range: string) => `id: ranged
title: A request 2.4 answers differently from 2.4.63 on
seed: [D3]
server:
  files: { htdocs/f.txt: "hello etag\\n" }
requests:
  - name: file
    path: /f.txt
    expect:
      "2.2": { status: 200 }
      "2.4":
        "${range}": { status: 404 }
        default: { status: 200 }
`;

  it("checks a side against the range its version is in, else the default", () => {
    const after = scenario(text(">=2.4.63"));
    const before = scenario(text("<2.4.63"));
    // The recorded 2.4 is 2.4.62, which answers 200.
    expect(verdictOf(run(after, fObservations(after))).verdict).toBe("expected-change");
    const judged = judgeScenario(run(before, fObservations(before)));
    expect([judged.verdict, judged.sides[1]?.failures.map((f) => [f.expected, f.actual])]).toEqual(["regression", [["status 404", "status 200"]]]);
  });
});
