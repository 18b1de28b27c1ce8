import { describe, expect, it } from "vitest";
import { judgeRun } from "../../../harness/judge/judge-run.ts";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import type { RunSide } from "../../../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { BASELINE, CANDIDATE } from "../../../harness/plan/side.ts";
import { buildReport, buildScenarioReport, describeRequest, reportFailure } from "../../../harness/report/build-report.ts";
import { LINES, records, requestObservation, response, sideObservation } from "../../fixtures/observations/recorded.ts";
import {
  a1Run,
  c1Run,
  c1SeedClaimRun,
  candidateOnlyRun,
  errorRun,
  fRun,
  run,
  scenario,
  x1Run,
} from "../../fixtures/observations/scenarios.ts";

/** The report of one scenario, judged first as the run command does. */
function report(scenarioRun: ScenarioRun) {
  return buildScenarioReport(judgeScenario(scenarioRun));
}

const SIDES: RunSide[] = [
  { side: BASELINE, image: "httpd:2.2.34", version: "2.2.34", missing: false },
  { side: CANDIDATE, image: "httpd:2.4.62", version: "2.4.62", missing: false },
];

describe("reportFailure", () => {
  it("keeps the failure's parts, writes its position as file:line:column and words it in one sentence", () => {
    expect(
      reportFailure({ kind: "status", request: "proxied", field: "status", expected: "status 502", actual: "status 500", at: { file: "x.scenario.yaml", line: 21, column: 14 } }),
    ).toEqual({
      kind: "status",
      request: "proxied",
      field: "status",
      expected: "status 502",
      actual: "status 500",
      at: "x.scenario.yaml:21:14",
      message: "request proxied: status: expected status 502, got status 500 (x.scenario.yaml:21:14)",
    });
    expect(reportFailure({ kind: "started", request: null, field: "started", expected: "to start", actual: "did not start", at: null })).toMatchObject({
      at: null,
      message: "started: expected to start, got did not start",
    });
  });
});

describe("buildScenarioReport", () => {
  it("takes the verdict, coverage and error as judged, and copies the scenario", () => {
    const x1 = report(x1Run());
    expect({ id: x1.id, title: x1.title, file: x1.file, seed: x1.seed, verdict: x1.verdict, coverage: x1.coverage, durationMs: x1.durationMs, error: x1.error }).toEqual({
      id: "user-without-unixd",
      title: "User without mod_unixd",
      file: "x.scenario.yaml",
      seed: ["X1"],
      verdict: "expected-change",
      coverage: "both",
      durationMs: 1234,
      error: null,
    });
    const error = report(errorRun());
    expect([error.verdict, error.error, error.expectations]).toEqual([
      "error",
      { code: "HARNESS_CONTAINER", message: "backend backend did not start" },
      {
        baseline: { ok: false, stated: false, failures: [], skipped: "the scenario could not run" },
        candidate: { ok: false, stated: false, failures: [], skipped: "the scenario could not run" },
      },
    ]);
  });

  it("reports each side's unmet expectations as structured failures with a message", () => {
    expect(report(c1SeedClaimRun()).expectations).toEqual({
      baseline: { ok: true, stated: true, failures: [], skipped: null },
      candidate: {
        ok: false,
        stated: true,
        failures: [
          {
            kind: "status",
            request: "proxied",
            field: "status",
            expected: "status 502",
            actual: "status 500",
            at: "x.scenario.yaml:21:14",
            message: "request proxied: status: expected status 502, got status 500 (x.scenario.yaml:21:14)",
          },
        ],
        skipped: null,
      },
    });
  });

  it("reports the guide's failures with the side and version that parted from it", () => {
    expect(report(c1Run()).guide).toEqual({
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
          at: "x.scenario.yaml:24:14",
          message: "request proxied: status: expected status 502, got status 500 (x.scenario.yaml:24:14)",
          side: "candidate",
          version: "2.4.62",
        },
      ],
    });
    expect([report(a1Run()).guide.holds, report(fRun()).guide]).toEqual([true, { claim: null, holds: null, notes: [], failures: [] }]);
  });

  it("puts the server differences on the scenario and each request's differences on the request", () => {
    const x1 = report(x1Run());
    expect(x1.differences.map((d) => [d.field, d.class, d.seed])).toEqual([
      ["configTest", "expected-change", ["X1"]],
      ["started", "expected-change", ["X1"]],
    ]);
    const f = report(fRun());
    expect(f.differences).toEqual([]);
    expect(f.requests.map((r) => [r.name, r.differences.map((d) => `${d.field}: ${d.class}`)])).toEqual([
      ["file", ["header:date: noise", "header:server: noise", "header:etag: expected-change"]],
    ]);
  });

  it("copies the config tests, with the syntax error httpd named", () => {
    expect(report(x1Run()).configTest).toEqual({
      baseline: { ok: true, exitCode: 0, messages: ["Syntax OK"], syntaxError: null },
      candidate: {
        ok: false,
        exitCode: 1,
        messages: [
          "AH00526: Syntax error on line 35 of /usr/local/apache2/conf/httpd.conf:",
          "Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration",
        ],
        syntaxError: {
          file: "/usr/local/apache2/conf/httpd.conf",
          line: 35,
          reason: "Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration",
        },
      },
    });
  });

  it("copies the servers: version and family, start, the config the plan rendered, and the trailing log", () => {
    const x1Run_ = x1Run();
    const x1 = report(x1Run_);
    expect(x1.servers.candidate).toEqual({
      image: "httpd:2.4.62",
      version: "2.4.62",
      family: "2.4",
      started: false,
      startFailure: null,
      missingModules: [],
      startupLog: [],
      trailingLog: [],
      renderedConfig: x1Run_.plan.sides[1]!.config.text,
      tree: null,
    });
    // The candidate's minimal base without mod_unixd, as planned: User stays, its module does not load.
    expect(x1.servers.candidate?.renderedConfig).toContain("\nUser daemon\n");
    expect(x1.servers.candidate?.renderedConfig).not.toContain("mod_unixd.so");
    expect(x1.servers.baseline).toMatchObject({ version: "2.2.34", family: "2.2", started: true });

    const started = x1Run();
    const candidate = started.observations[1]!;
    started.observations[1] = {
      ...candidate,
      startFailure: { exitCode: 1, logTail: ["(98)Address already in use"] },
      trailingLog: records("2.4", [LINES.startup["2.4"][0]!]),
    };
    expect(report(started).servers.candidate).toMatchObject({
      startFailure: { exitCode: 1, logTail: ["(98)Address already in use"] },
      trailingLog: [expect.objectContaining({ code: "AH01873", level: "warn", module: "ssl" })],
    });
  });

  it("reports each side's answer with its HTTP version, body digest and error-log lines, parsed", () => {
    const [request] = report(a1Run()).requests;
    expect(request?.baseline?.errorLog).toEqual([
      {
        code: null,
        level: "error",
        module: null,
        message: "client denied by server configuration: /usr/local/apache2/htdocs/server-status",
        event: "AH01797",
        raw: LINES.a1.denied22,
      },
    ]);
    expect(request?.candidate).toMatchObject({
      outcome: "response",
      status: 403,
      httpVersion: "1.1",
      bodyBytes: 199,
      bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      transportError: null,
      exec: null,
    });
    expect(request?.candidate?.errorLog.map((line) => [line.code, line.module, line.event])).toEqual([["AH01797", "access_compat", "AH01797"]]);
  });

  it("keeps the start of a long body and its full length and digest", () => {
    const text = "id: big\ntitle: T\nrequests:\n  - { name: page, path: /big.html }\n";
    const big = scenario(text);
    const body = "x".repeat(10_000);
    const answer = requestObservation("page", "2.4", { outcome: response(200, [], body) });
    const scenarioRun = run(big, { baseline: sideObservation("2.2", { requests: [{ ...answer, errorLog: [] }] }, big), candidate: sideObservation("2.4", { requests: [answer] }, big) });
    const side = report(scenarioRun).requests[0]?.candidate;
    expect([side?.body?.length, side?.bodyBytes, side?.bodySha256]).toEqual([4096, 10_000, answer.outcome.kind === "response" ? answer.outcome.bodySha256 : ""]);
  });

  it("says what was sent from the plan, with the scenario's variables filled", () => {
    const text = `id: sent
title: T
backends: [{ name: backend, kind: http-origin }]
requests:
  - { name: vhost, path: "/x?port={{backends.backend.port}}", host: "{{backends.backend.host}}", auth: { user: alice, password: secret } }
  - { name: raw, raw: "GET /{{server.docroot}} HTTP/1.0\\r\\n\\r\\n" }
  - { name: hash, exec: "htpasswd -nb u p" }
`;
    const sent = scenario(text);
    expect(report(run(sent, {})).requests.map((r) => [r.name, r.sent, r.baseline, r.candidate])).toEqual([
      ["vhost", "GET /x?port=80 (Host: backend) as alice", null, null],
      ["raw", "raw: GET //usr/local/apache2/htdocs HTTP/1.0", null, null],
      ["hash", "exec: htpasswd -nb u p", null, null],
    ]);
    // Without a plan, the request as the scenario writes it.
    expect(describeRequest(sent.requests[0]!)).toBe("GET /x?port={{backends.backend.port}} (Host: {{backends.backend.host}}) as alice");
  });

  it("leaves the baseline empty on a candidate-only run", () => {
    const candidateOnly = report(candidateOnlyRun());
    expect({ coverage: candidateOnly.coverage, servers: candidateOnly.servers.baseline, configTest: candidateOnly.configTest.baseline, expectations: candidateOnly.expectations.baseline }).toEqual({
      coverage: "candidate-only",
      servers: null,
      configTest: null,
      expectations: { ok: false, stated: false, failures: [], skipped: "baseline image httpd:2.2.34 missing" },
    });
    expect(candidateOnly.requests.map((r) => [r.name, r.baseline, r.candidate?.status, r.differences])).toEqual([["status", null, 403, []]]);
  });
});

describe("buildReport", () => {
  it("wraps the judged scenarios with the run's identity, its sides and the summary", () => {
    const judgement = judgeRun({ startedAt: new Date("2026-11-21T22:40:00Z"), sides: SIDES, runs: [a1Run(), c1SeedClaimRun()], durationMs: 4321 });
    const built = buildReport(judgement, "0.1.0");
    expect({ ...built, scenarios: built.scenarios.map((s) => [s.id, s.verdict]) }).toEqual({
      schemaVersion: "2.4",
      tool: { name: "httpd-upgrade-harness", version: "0.1.0" },
      startedAt: "2026-11-21T22:40:00.000Z",
      sides: [
        { id: "baseline", role: "baseline", image: "httpd:2.2.34", version: "2.2.34", missing: false },
        { id: "candidate", role: "candidate", image: "httpd:2.4.62", version: "2.4.62", missing: false },
      ],
      baseline: { image: "httpd:2.2.34", version: "2.2.34", missing: false },
      candidate: { image: "httpd:2.4.62", version: "2.4.62" },
      candidates: [
        {
          side: "candidate",
          label: "httpd:2.4.62",
          axis: "upstream",
          image: "httpd:2.4.62",
          version: "2.4.62",
          byVerdict: { same: 0, "expected-change": 0, regression: 1, noise: 1, error: 0, unverified: 0, "broken-on-both": 0 },
        },
      ],
      engines: null,
      scenarios: [
        ["server-status-directory-deny", "noise"],
        ["https-proxy-expired-backend", "regression"],
      ],
      summary: { ...judgement.summary, expectationsMet: { baseline: 2, candidate: 1 }, expectationsFailed: { baseline: 0, candidate: 1 } },
      fleet: null,
    });
    expect(built.scenarios).toEqual(judgement.scenarios.map(buildScenarioReport));
    // Each scenario leads with its findings as the judge told them, the differences each folds kept with it.
    expect(built.scenarios.map((s) => [s.id, s.findings.map((f) => [f.rule, f.severity, f.gating, f.requests, f.differences.map((d) => `${d.request}: ${d.field}`)])])).toEqual([
      ["server-status-directory-deny", []],
      ["https-proxy-expired-backend", [["D5", "behaviour", false, { count: 1, examples: ["GET /"] }, ["proxied: status", "proxied: header:content-length", "proxied: header:content-type", "proxied: body", "proxied: errorLog"]]]],
    ]);
    expect(built.scenarios[1]!.ignored).toEqual({ byRule: {}, differences: [] });
  });

  it("says which engine ran each scenario when the run spread over several, and what each engine ran", () => {
    const engines = [
      { name: "unix:///var/run/docker.sock", concurrency: 2, scenarios: 1, lost: null },
      { name: "tcp://198.19.7.2:2375", concurrency: 1, scenarios: 1, lost: "stopped answering during q6: connect ECONNREFUSED 198.19.7.2:2375" },
    ];
    const runs = [{ ...a1Run(), engine: engines[0]!.name }, { ...c1SeedClaimRun(), engine: engines[1]!.name }];
    const built = buildReport(judgeRun({ startedAt: new Date(0), sides: SIDES, runs, durationMs: 1, engines }), "0.1.0");
    expect(built.engines).toEqual(engines);
    expect(built.scenarios.map((s) => [s.id, s.engine])).toEqual([
      ["server-status-directory-deny", "unix:///var/run/docker.sock"],
      ["https-proxy-expired-backend", "tcp://198.19.7.2:2375"],
    ]);
    // One engine: no engine anywhere, as before --engines.
    const one = buildReport(judgeRun({ startedAt: new Date(0), sides: SIDES, runs: [a1Run()], durationMs: 1, engines: engines.slice(0, 1) }), "0.1.0");
    expect([one.engines, one.scenarios[0]!.engine]).toEqual([null, null]);
  });

  it("says the baseline is missing when the run had no baseline image", () => {
    const sides: RunSide[] = [{ side: BASELINE, image: "httpd:2.2.34", version: null, missing: true }, SIDES[1]!];
    const built = buildReport(judgeRun({ startedAt: new Date(0), sides, runs: [candidateOnlyRun()], durationMs: 1 }), "0.1.0");
    expect([built.baseline, built.candidate, built.sides[0], built.summary.expectationsMet]).toEqual([
      { image: "httpd:2.2.34", version: null, missing: true },
      { image: "httpd:2.4.62", version: "2.4.62" },
      { id: "baseline", role: "baseline", image: "httpd:2.2.34", version: null, missing: true },
      { baseline: 0, candidate: 1 },
    ]);
  });
});
