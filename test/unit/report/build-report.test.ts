import { describe, expect, it } from "vitest";
import { buildReport, buildScenarioReport, summarize } from "../../../harness/report/build-report.ts";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import type { ScenarioRun } from "../../../harness/run/scenario-run.ts";
import { F_TXT_HEADERS, requestObservation, response, sideObservation } from "../../fixtures/observations/recorded.ts";
import {
  A1_YAML,
  F_YAML,
  X1_YAML,
  a1Observations,
  c1Observations,
  c1Yaml,
  fObservations,
  run,
  scenario,
  x1Observations,
} from "../../fixtures/observations/scenarios.ts";

const MET = { ok: true, stated: true, failures: [], skipped: null };

// The runs of the recorded cases, each judged on its own.
function a1Run(): ScenarioRun {
  return run(scenario(A1_YAML), a1Observations());
}
function fRun(): ScenarioRun {
  return run(scenario(F_YAML), fObservations());
}
function c1Run(): ScenarioRun {
  return run(scenario(c1Yaml()), c1Observations());
}
/** c1 with the seed's claim (502 on 2.4) as the expectation: the real 2.4 answers 500. */
function c1SeedClaimRun(): ScenarioRun {
  return run(scenario(c1Yaml("{ status: 502 }")), c1Observations());
}
function x1Run(): ScenarioRun {
  return run(scenario(X1_YAML), x1Observations());
}
/** Case f where 2.4 sends a weak ETag: a difference nothing predicts. */
function weakEtagRun(): ScenarioRun {
  const observations = fObservations();
  const headers = F_TXT_HEADERS["2.4"].map(([name, value]): [string, string] => [name, name === "ETag" ? 'W/"b-660d105d79f91"' : value]);
  observations.candidate.requests = [requestObservation("file", "2.4", { outcome: response(200, headers, "hello etag\n") })];
  return run(scenario(F_YAML), observations);
}
function errorRun(): ScenarioRun {
  return run(scenario(c1Yaml()), {}, { error: { code: "HARNESS_CONTAINER", message: "backend backend did not start" } });
}
function candidateOnlyRun(): ScenarioRun {
  return run(scenario(A1_YAML), { candidate: a1Observations().candidate }, { skipped: { baseline: "baseline image httpd:2.2.34 missing" } });
}

function verdictOf(scenarioRun: ScenarioRun): Pick<ReportScenario, "verdict" | "coverage"> {
  const { verdict, coverage } = buildScenarioReport(scenarioRun);
  return { verdict, coverage };
}

describe("buildScenarioReport, verdict", () => {
  it("is error when the harness could not run the scenario, whatever else holds", () => {
    const report = buildScenarioReport(errorRun());
    expect([report.verdict, report.error, report.expectations]).toEqual([
      "error",
      { code: "HARNESS_CONTAINER", message: "backend backend did not start" },
      {
        baseline: { ok: false, stated: false, failures: [], skipped: "the scenario could not run" },
        candidate: { ok: false, stated: false, failures: [], skipped: "the scenario could not run" },
      },
    ]);
    const withObservations = run(scenario(c1Yaml("{ status: 502 }")), c1Observations(), { error: { code: "HARNESS_CONTAINER", message: "x" } });
    expect(verdictOf(withObservations).verdict).toBe("error");
  });

  it("is regression when a side misses a stated expectation, though the differences alone would be expected changes", () => {
    const report = buildScenarioReport(c1SeedClaimRun());
    expect([report.verdict, report.expectations]).toEqual([
      "regression",
      { baseline: MET, candidate: { ok: false, stated: true, failures: ["request proxied: expected status 502, got status 500 (x.scenario.yaml:21:14)"], skipped: null } },
    ]);
  });

  it("is regression when the baseline misses its stated expectation", () => {
    // 2.2 logs the denial at level error, not crit.
    const a1 = scenario(A1_YAML.replace("[{ level: error, message", "[{ level: crit, message"));
    const report = buildScenarioReport(run(a1, a1Observations()));
    expect([report.verdict, report.expectations.baseline.ok, report.expectations.candidate.ok]).toEqual(["regression", false, true]);
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
    const { candidate } = fObservations();
    expect(verdictOf(run(scenario(F_YAML), { baseline: { ...candidate, side: "baseline" }, candidate }))).toEqual({ verdict: "same", coverage: "both" });
  });

  it("puts the server differences on the scenario and each request's differences on the request", () => {
    const x1 = buildScenarioReport(x1Run());
    expect(x1.differences.map((d) => [d.field, d.class, d.seed])).toEqual([
      ["configTest", "expected-change", ["X1"]],
      ["started", "expected-change", ["X1"]],
    ]);
    const f = buildScenarioReport(fRun());
    expect(f.differences).toEqual([]);
    expect(f.requests.map((r) => [r.name, r.differences.map((d) => `${d.field}: ${d.class}`)])).toEqual([
      ["file", ["header:date: noise", "header:server: noise", "header:etag: expected-change"]],
    ]);
  });
});

describe("buildScenarioReport, coverage", () => {
  it("is candidate-only when the baseline was skipped, and checks the candidate alone", () => {
    const report = buildScenarioReport(candidateOnlyRun());
    expect({ verdict: report.verdict, coverage: report.coverage, expectations: report.expectations, servers: report.servers.baseline }).toEqual({
      verdict: "same",
      coverage: "candidate-only",
      expectations: { baseline: { ok: false, stated: false, failures: [], skipped: "baseline image httpd:2.2.34 missing" }, candidate: MET },
      servers: null,
    });
    expect(report.requests.map((r) => [r.name, r.baseline, r.candidate?.status, r.differences])).toEqual([["status", null, 403, []]]);
  });

  it("is regression on a candidate-only run when the candidate misses its expectation", () => {
    // 2.4 logs the denial from access_compat (Order/Deny), not from authz_core.
    const a1 = scenario(A1_YAML.replace("module: access_compat", "module: authz_core"));
    const report = buildScenarioReport(run(a1, { candidate: a1Observations().candidate }, { skipped: { baseline: "baseline image httpd:2.2.34 missing" } }));
    expect([report.verdict, report.coverage]).toEqual(["regression", "candidate-only"]);
  });
});

describe("buildScenarioReport, guide", () => {
  it("holds when every guide expectation is met (a1 on 2.4, X1's config-test message)", () => {
    expect([buildScenarioReport(a1Run()).guide, buildScenarioReport(x1Run()).guide]).toEqual([
      { claim: "2.4 answers 403 and logs AH01797 with the filesystem path", holds: true, notes: [], failures: [] },
      { claim: "Invalid command 'User' ... => load mod_unixd", holds: true, notes: [], failures: [] },
    ]);
  });

  it("does not hold when the real server parts from it, naming the version (c1: 500, not the guide's 502)", () => {
    expect(buildScenarioReport(c1Run()).guide).toEqual({
      claim: "2.4 checks the backend certificate's expiry by default and answers 502",
      holds: false,
      notes: ["2.4.62 answers 500, not 502: mod_proxy turns the failed handshake into ap_proxyerror(500)"],
      failures: ["2.4: request proxied: expected status 502, got status 500 (x.scenario.yaml:24:14)"],
    });
  });

  it("is null when the scenario states no guide expectation", () => {
    expect(buildScenarioReport(fRun()).guide).toEqual({ claim: null, holds: null, notes: [], failures: [] });
    expect(buildScenarioReport(errorRun()).guide.holds).toBeNull();
  });
});

describe("buildScenarioReport, contents", () => {
  it("copies the scenario, the config tests and the servers", () => {
    const report = buildScenarioReport(x1Run());
    expect({ id: report.id, title: report.title, file: report.file, seed: report.seed, durationMs: report.durationMs, error: report.error }).toEqual({
      id: "user-without-unixd",
      title: "User without mod_unixd",
      file: "x.scenario.yaml",
      seed: ["X1"],
      durationMs: 1234,
      error: null,
    });
    expect(report.configTest).toEqual({
      baseline: { ok: true, exitCode: 0, messages: ["Syntax OK"] },
      candidate: {
        ok: false,
        exitCode: 1,
        messages: [
          "AH00526: Syntax error on line 35 of /usr/local/apache2/conf/httpd.conf:",
          "Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration",
        ],
      },
    });
    expect(report.servers.candidate).toEqual({
      image: "httpd:2.4.62",
      version: "2.4.62",
      family: "2.4",
      started: false,
      missingModules: [],
      startupLog: [],
      renderedConfig: "# rendered config of the 2.4 side\n",
    });
  });

  it("reports each side's answer and its error-log lines, parsed", () => {
    const [request] = buildScenarioReport(a1Run()).requests;
    expect(request?.baseline?.errorLog).toEqual([
      {
        code: null,
        level: "error",
        module: null,
        message: "client denied by server configuration: /usr/local/apache2/htdocs/server-status",
        event: "AH01797",
        raw: "[Sat Nov 21 22:41:21 2026] [error] [client 172.17.0.1] client denied by server configuration: /usr/local/apache2/htdocs/server-status",
      },
    ]);
    expect(request?.candidate).toMatchObject({ outcome: "response", status: 403, transportError: null, exec: null });
    expect(request?.candidate?.errorLog.map((line) => [line.code, line.module, line.event])).toEqual([["AH01797", "access_compat", "AH01797"]]);
  });
});

describe("summarize and buildReport", () => {
  const runs = (): ScenarioRun[] => [a1Run(), fRun(), c1Run(), c1SeedClaimRun(), x1Run(), weakEtagRun(), errorRun(), candidateOnlyRun()];

  it("counts verdicts, met and failed expectations, regressions, and lists where the guide is wrong", () => {
    const scenarios = runs().map(buildScenarioReport);
    expect(summarize(scenarios, 98_765)).toEqual({
      scenarios: 8,
      byVerdict: { same: 1, "expected-change": 3, regression: 2, noise: 1, error: 1 },
      // stated and ok: a1, f, c1, c1-seed-claim (2.2 side), x1, weak-ETag (both sides); candidate-only a1 (2.4).
      expectationsMet: { baseline: 6, candidate: 6 },
      // c1 with the seed's 502 on 2.4; the error run and the skipped baseline are not failures.
      expectationsFailed: { baseline: 0, candidate: 1 },
      guideWrong: [
        {
          id: "https-proxy-expired-backend",
          seed: ["D5"],
          notes: ["2.4.62 answers 500, not 502: mod_proxy turns the failed handshake into ap_proxyerror(500)"],
        },
        {
          id: "https-proxy-expired-backend",
          seed: ["D5"],
          notes: ["2.4.62 answers 500, not 502: mod_proxy turns the failed handshake into ap_proxyerror(500)"],
        },
      ],
      // a1, x1 and the candidate-only a1 (its 2.4 guide is met).
      guideHolds: 3,
      regressions: 2,
      rows: { covered: 4, guideHolds: 3, differ: 3, guideWrong: [{ row: "D5", scenarios: ["https-proxy-expired-backend", "https-proxy-expired-backend"], note: "2.4.62 answers 500, not 502: mod_proxy turns the failed handshake into ap_proxyerror(500)" }] },
      durationMs: 98_765,
    });
  });

  it("lists the guide's failures as the notes of a wrong guide claim that has no notes", () => {
    const c1 = scenario(c1Yaml().replace(/\n {2}notes: \[[^\n]*/, ""));
    expect(summarize([buildScenarioReport(run(c1, c1Observations()))], 1).guideWrong).toEqual([
      { id: "https-proxy-expired-backend", seed: ["D5"], notes: ["2.4: request proxied: expected status 502, got status 500 (x.scenario.yaml:23:14)"] },
    ]);
  });

  it("wraps the scenarios with the run's identity and the summary", () => {
    const report = buildReport({
      toolVersion: "0.1.0",
      startedAt: new Date("2026-11-21T22:40:00Z"),
      baseline: { image: "httpd:2.2.34", version: "2.2.34", missing: false },
      candidate: { image: "httpd:2.4.62", version: "2.4.62" },
      runs: [a1Run(), c1SeedClaimRun()],
      durationMs: 4321,
    });
    expect({ ...report, scenarios: report.scenarios.map((s) => [s.id, s.verdict]) }).toEqual({
      schemaVersion: "1.0",
      tool: { name: "httpd-upgrade-harness", version: "0.1.0" },
      startedAt: "2026-11-21T22:40:00.000Z",
      baseline: { image: "httpd:2.2.34", version: "2.2.34", missing: false },
      candidate: { image: "httpd:2.4.62", version: "2.4.62" },
      scenarios: [
        ["server-status-directory-deny", "noise"],
        ["https-proxy-expired-backend", "regression"],
      ],
      summary: {
        scenarios: 2,
        byVerdict: { same: 0, "expected-change": 0, regression: 1, noise: 1, error: 0 },
        expectationsMet: { baseline: 2, candidate: 1 },
        expectationsFailed: { baseline: 0, candidate: 1 },
        guideWrong: [
          { id: "https-proxy-expired-backend", seed: ["D5"], notes: ["2.4.62 answers 500, not 502: mod_proxy turns the failed handshake into ap_proxyerror(500)"] },
        ],
        guideHolds: 1,
        regressions: 1,
        rows: { covered: 2, guideHolds: 1, differ: 1, guideWrong: [{ row: "D5", scenarios: ["https-proxy-expired-backend"], note: "2.4.62 answers 500, not 502: mod_proxy turns the failed handshake into ap_proxyerror(500)" }] },
        durationMs: 4321,
      },
    });
  });
});
