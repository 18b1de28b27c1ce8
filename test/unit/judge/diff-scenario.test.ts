import { describe, expect, it } from "vitest";
import { BODY_TEXT_LIMIT } from "../../../harness/clients/http-request.ts";
import { checkExpectations } from "../../../harness/judge/check-expectations.ts";
import { classify, diffScenario, type DiffInput } from "../../../harness/judge/diff-scenario.ts";
import type { Difference } from "../../../harness/judge/difference.ts";
import type { SideObservation } from "../../../harness/observe/observation.ts";
import { BASELINE } from "../../../harness/plan/side.ts";
import type { Scenario } from "../../../harness/scenario/scenario.ts";
import { ETAGS, F_TXT_HEADERS, basicHeaders, requestObservation, response, sideObservation } from "../../fixtures/observations/recorded.ts";
import {
  A1_YAML,
  F_YAML,
  type Observed,
  X1_YAML,
  a1Observations,
  c1Observations,
  c1Yaml,
  fObservations,
  scenario,
  x1Observations,
} from "../../fixtures/observations/scenarios.ts";

/** Whether a side met its stated expectations for a request (null: the server), as the judge decides it. */
function metBy(scenarioValue: Scenario, observation: SideObservation): (request: string | null) => boolean {
  const { failures } = checkExpectations(scenarioValue, observation, "expect");
  return (request) => !failures.some((f) => f.request === request);
}

/** The candidate against the baseline, each side's expectations checked first, as judgeScenario does. */
function diff(scenarioValue: Scenario, { baseline, candidate }: Observed, options: Partial<Pick<DiffInput, "guideWrong">> = {}) {
  return diffScenario({
    scenario: scenarioValue,
    baseline,
    candidate,
    met: { baseline: metBy(scenarioValue, baseline), candidate: metBy(scenarioValue, candidate) },
    guideWrong: options.guideWrong ?? false,
  });
}

/** The differences of one request, by field: [class, seed, reason]. */
function byField(differences: Difference[]): Record<string, [string, string[], string]> {
  return Object.fromEntries(differences.map((d) => [d.field, [d.class, d.seed, d.reason]]));
}

const NOISE_CLOCK: [string, string[], string] = ["noise", [], "the Date header is the clock"];
const NOISE_BANNER: [string, string[], string] = ["noise", [], "the Server header names the version under test"];

function context(scenarioValue: Scenario, overrides: Partial<Parameters<typeof classify>[3]> = {}): Parameters<typeof classify>[3] {
  return {
    scenario: scenarioValue,
    request: "file",
    noisy: new Set(),
    volatile: new Map(),
    predictedByExpectations: new Set(),
    credit: scenarioValue.seed,
    baselineStatus: 200,
    candidateStatus: 200,
    baselineFamily: "2.2",
    candidateFamily: "2.4",
    ...overrides,
  };
}

describe("classify", () => {
  const f = scenario(F_YAML);

  it("takes the ETag without its inode part for the D3 change", () => {
    expect(classify("header:etag", ETAGS.fTxt22, ETAGS.fTxt24, context(f))).toEqual({
      field: "header:etag",
      baseline: ETAGS.fTxt22,
      candidate: ETAGS.fTxt24,
      class: "expected-change",
      seed: ["D3"],
      reason: 'FileETag defaults to "MTime Size" on 2.4: the inode part is gone',
    });
  });

  it("takes any other ETag difference for a regression", () => {
    expect(classify("header:etag", ETAGS.fTxt22, '"b-660d105d79f92"', context(f))).toEqual({
      field: "header:etag",
      baseline: ETAGS.fTxt22,
      candidate: '"b-660d105d79f92"',
      class: "regression",
      seed: [],
      reason: "nothing predicts it",
    });
  });

  it("takes Date and Server for noise", () => {
    const [date22, server22] = F_TXT_HEADERS["2.2"];
    const [date24, server24] = F_TXT_HEADERS["2.4"];
    expect([classify("header:date", date22![1], date24![1], context(f)).class, classify("header:server", server22![1], server24![1], context(f)).class]).toEqual([
      "noise",
      "noise",
    ]);
  });

  it("takes a field that also differs between two answers of one side for noise, before any prediction", () => {
    expect(classify("header:etag", ETAGS.fTxt22, '"b-660d105d79f92"', context(f, { noisy: new Set(["header:etag"]) }))).toMatchObject({
      class: "noise",
      seed: [],
      reason: "it also differs between two answers of one side",
    });
  });

  it("applies an ignore rule first, whatever the case of its field name, with its reason", () => {
    const ignoring = scenario(`${F_YAML}ignore:\n  - { field: "header:ETag", reason: "the site sets FileETag per version" }\n`);
    expect(classify("header:etag", ETAGS.fTxt22, ETAGS.fTxt24, context(ignoring, { noisy: new Set(["header:etag"]) }))).toMatchObject({
      class: "noise",
      seed: [],
      reason: "ignored: the site sets FileETag per version",
    });
  });

  it("takes a field the scenario predicts for an expected change with the prediction's seeds, for its request only", () => {
    const predicting = scenario(`${F_YAML}predicted:\n  - { field: status, request: file, seed: [D5, S1] }\n  - { field: "header:Content-Type", seed: [E1] }\n`);
    expect([
      classify("status", "200", "500", context(predicting)),
      classify("status", "200", "500", context(predicting, { request: "other" })),
      classify("header:content-type", "text/plain", "text/html", context(predicting, { request: "other" })),
    ]).toEqual([
      { field: "status", baseline: "200", candidate: "500", class: "expected-change", seed: ["D5", "S1"], reason: "the scenario names the seed rows that predict it" },
      { field: "status", baseline: "200", candidate: "500", class: "regression", seed: [], reason: "nothing predicts it" },
      {
        field: "header:content-type",
        baseline: "text/plain",
        candidate: "text/html",
        class: "expected-change",
        seed: ["E1"],
        reason: "the scenario names the seed rows that predict it",
      },
    ]);
  });

  it("takes a field both sides' met expectations speak about for an expected change with the scenario's seeds", () => {
    expect(classify("status", "200", "500", context(f, { predictedByExpectations: new Set(["status"]) }))).toMatchObject({
      class: "expected-change",
      seed: ["D3"],
      reason: "each side meets what the scenario states for its version",
    });
  });
});

describe("diffScenario", () => {
  it("finds no errorLog difference between 2.2's denial line and 2.4's AH01797 line (case a1), only noise", () => {
    const a1 = scenario(A1_YAML);
    const result = diff(a1, a1Observations());
    expect(result.server).toEqual([]);
    expect(result.requests.map((r) => r.name)).toEqual(["status"]);
    expect(result.requests[0]!.differences).toEqual([
      { field: "header:date", baseline: "Sat, 21 Nov 2026 22:45:47 GMT", candidate: "Sat, 21 Nov 2026 22:45:50 GMT", ...noise("the Date header is the clock") },
      {
        field: "header:server",
        baseline: "Apache/2.2.34 (Unix) mod_ssl/2.2.34 OpenSSL/1.0.2s",
        candidate: "Apache/2.4.62 (Unix) OpenSSL/3.0.20",
        ...noise("the Server header names the version under test"),
      },
      { field: "header:content-length", baseline: "215", candidate: "199", ...noise("follows the body (the built-in error and redirect documents are worded differently on 2.4; same status)") },
      {
        field: "body",
        baseline: expect.stringContaining("You don't have permission to access /server-status\non this server."),
        candidate: expect.stringContaining("You don't have permission to access this resource."),
        ...noise("the built-in error and redirect documents are worded differently on 2.4; same status"),
      },
    ]);
  });

  it("keeps a reworded error document a regression when the statuses differ", () => {
    const a1 = scenario(A1_YAML);
    const observations = a1Observations();
    const request = observations.candidate.requests[0]!;
    if (request.outcome.kind !== "response") throw new Error("fixture");
    request.outcome = { ...request.outcome, status: 401, body: request.outcome.body.replace("403 Forbidden", "401 Unauthorized") };
    request.repeat = request.outcome;
    const fields = byField(diff(a1, observations).requests[0]!.differences);
    expect([fields.status?.[0], fields.body?.[0], fields["header:content-length"]?.[0]]).toEqual(["regression", "regression", "regression"]);
  });

  it("calls the same body framed two ways noise: a Content-Length on one side, chunked on the other", () => {
    // A CGI script's output goes out either way from one request to the next, on 2.2.34 and 2.4.68 alike
    // (configs/official-stock's /cgi-bin/probe.cgi); the client gets the same bytes.
    const f = scenario(F_YAML);
    const observations = fObservations();
    const request = observations.candidate.requests[0]!;
    if (request.outcome.kind !== "response") throw new Error("fixture");
    const headers = request.outcome.headers.filter(([name]) => name.toLowerCase() !== "content-length");
    request.outcome = { ...request.outcome, headers: [...headers, ["Transfer-Encoding", "chunked"]] };
    request.repeat = request.outcome;
    const fields = byField(diff(f, observations).requests[0]!.differences);
    const framing: [string, string[], string] = ["noise", [], "framing only: the same body, with a Content-Length on one side and chunked on the other"];
    expect([fields["header:content-length"], fields["header:transfer-encoding"], fields.body]).toEqual([framing, framing, undefined]);
    // With a body that differs too, the length is the body's, not framing.
    request.outcome = { ...request.outcome, body: `${request.outcome.body}x`, bodyBytes: request.outcome.bodyBytes + 1, bodySha256: "0".repeat(64) };
    request.repeat = request.outcome;
    const changed = byField(diff(f, observations).requests[0]!.differences);
    expect(changed["header:transfer-encoding"]).toEqual(["regression", [], "nothing predicts it"]);
  });

  it("classifies the default ETag change as D3 (case f), and Date and Server as noise", () => {
    const result = diff(scenario(F_YAML), fObservations());
    expect(result).toEqual({
      server: [],
      requests: [
        {
          name: "file",
          differences: [
            { field: "header:date", baseline: "Sat, 21 Nov 2026 22:45:47 GMT", candidate: "Sat, 21 Nov 2026 22:45:50 GMT", ...noise("the Date header is the clock") },
            {
              field: "header:server",
              baseline: "Apache/2.2.34 (Unix) mod_ssl/2.2.34 OpenSSL/1.0.2s",
              candidate: "Apache/2.4.62 (Unix) OpenSSL/3.0.20",
              ...noise("the Server header names the version under test"),
            },
            {
              field: "header:etag",
              baseline: ETAGS.fTxt22,
              candidate: ETAGS.fTxt24,
              class: "expected-change",
              seed: ["D3"],
              reason: 'FileETag defaults to "MTime Size" on 2.4: the inode part is gone',
            },
          ],
        },
      ],
    });
  });

  it("takes an ETag of another shape for a regression", () => {
    const observations = fObservations();
    const headers = F_TXT_HEADERS["2.4"].map(([name, value]): [string, string] => [name, name === "ETag" ? 'W/"b-660d105d79f91"' : value]);
    const weak = response(200, headers, "hello etag\n");
    observations.candidate.requests = [requestObservation("file", "2.4", { outcome: weak }, { outcome: weak })];
    const fields = byField(diff(scenario(F_YAML), observations).requests[0]!.differences);
    expect(fields).toEqual({ "header:date": NOISE_CLOCK, "header:server": NOISE_BANNER, "header:etag": ["regression", [], "nothing predicts it"] });
  });

  it("learns noise from the repeat: a body that differs between two answers of one side is noise", () => {
    // GET /server-status?auto (case a3 from 127.0.0.1 answers 200 on both): the counters move between answers.
    const text = `id: status-auto\ntitle: T\nrequests:\n  - name: status\n    path: /server-status?auto\n`;
    const answer = (family: "2.2" | "2.4", accesses: number) => {
      const body = `${family === "2.4" ? "ServerVersion: Apache/2.4.62 (Unix)\n" : ""}Total Accesses: ${accesses}\nUptime: ${accesses + 2}\n`;
      return response(200, basicHeaders(family, body.length, "text/plain; charset=ISO-8859-1"), body);
    };
    const observations = {
      baseline: sideObservation("2.2", { requests: [requestObservation("status", "2.2", { outcome: answer("2.2", 1) }, { outcome: answer("2.2", 2) })] }),
      candidate: sideObservation("2.4", { requests: [requestObservation("status", "2.4", { outcome: answer("2.4", 1) }, { outcome: answer("2.4", 2) })] }),
    };
    expect(byField(diff(scenario(text), observations).requests[0]!.differences)).toEqual({
      "header:date": NOISE_CLOCK,
      "header:server": NOISE_BANNER,
      "header:content-length": ["noise", [], "follows the body (it also differs between two answers of one side)"],
      body: ["noise", [], "it also differs between two answers of one side"],
    });
  });

  it("does not compare the bodies of two status pages of the same status: each shows its own server's state", () => {
    // A probe is sent once (no repeat to learn from): the uptime and counters of two server-status pages differ.
    const text = `id: status-page\ntitle: T\nrequests:\n  - name: status\n    path: /server-status\n`;
    const page = (family: "2.2" | "2.4", uptime: string, status = 200) => {
      const body = `<html><head>\n<title>Apache Status</title>\n</head><body>\n<dt>Server uptime: ${uptime}</dt>\n</body></html>\n`;
      return response(status, basicHeaders(family, body.length, "text/html; charset=ISO-8859-1"), body);
    };
    const judged = (a: ReturnType<typeof page>, b: ReturnType<typeof page>) =>
      byField(
        diff(scenario(text), {
          baseline: sideObservation("2.4", { requests: [requestObservation("status", "2.4", { outcome: a })] }),
          candidate: sideObservation("2.4", { requests: [requestObservation("status", "2.4", { outcome: b })] }),
        }).requests[0]!.differences,
      );
    const reason = "a status page (server-status, server-info, balancer-manager) shows each server's own state";
    expect(judged(page("2.4", "1 second"), page("2.4", "12 seconds"))).toEqual({
      "header:content-length": ["noise", [], `follows the body (${reason})`],
      body: ["noise", [], reason],
    });
    // A page that answers otherwise is compared as any other: the status change is what the config decided.
    expect(judged(page("2.4", "1 second"), page("2.4", "12 seconds", 403)).status?.[0]).toBe("regression");
    // A body that is not a status page stays a regression.
    const other = (text: string) => response(200, basicHeaders("2.4", text.length, "text/html"), text);
    expect(judged(other("<title>Home</title>a"), other("<title>Home</title>ab")).body?.[0]).toBe("regression");
  });

  it("makes an ignored field noise with the rule's reason", () => {
    const ignoring = scenario(`${F_YAML}ignore:\n  - { field: "header:ETag", reason: "the site sets FileETag per version" }\n`);
    expect(byField(diff(ignoring, fObservations()).requests[0]!.differences)["header:etag"]).toEqual([
      "noise",
      [],
      "ignored: the site sets FileETag per version",
    ]);
  });

  it("makes a predicted field an expected change with the prediction's seeds (case c1 without expectations)", () => {
    const c1 = scenario(`${c1Yaml("{}")}predicted:\n  - { field: status, request: proxied, seed: [D5] }\n`.replace(/\n {6}"2\.2": \{[^\n]*/, ""));
    const fields = byField(diff(c1, c1Observations(c1)).requests[0]!.differences);
    expect(fields.status).toEqual(["expected-change", ["D5"], "the scenario names the seed rows that predict it"]);
    expect(fields.errorLog).toEqual(["regression", [], "nothing predicts it"]);
  });

  it("makes the fields both versions' met expectations state expected changes with the scenario's seeds (case c1: 200 vs 500)", () => {
    const result = diff(scenario(c1Yaml()), c1Observations());
    expect(result.server).toEqual([]);
    expect(byField(result.requests[0]!.differences)).toEqual({
      status: ["expected-change", ["D5"], "each side meets what the scenario states for its version"],
      "header:date": NOISE_CLOCK,
      "header:server": NOISE_BANNER,
      "header:content-length": ["expected-change", ["D5"], "follows the status (each side meets what the scenario states for its version)"],
      // Both versions' statements on Content-Type are the same: it is no predicted change, it follows the status.
      "header:content-type": ["expected-change", ["D5"], "follows the status (each side meets what the scenario states for its version)"],
      body: ["expected-change", ["D5"], "each side meets what the scenario states for its version"],
      errorLog: ["expected-change", ["D5"], "each side meets what the scenario states for its version"],
    });
    expect(result.requests[0]!.differences.find((d) => d.field === "errorLog")).toMatchObject({ baseline: null, candidate: "AH00898\nAH01084\nAH01097" });
  });

  it("keeps the differences regressions when one side misses its expectation (the seed's 502 on 2.4)", () => {
    const c1 = scenario(c1Yaml("{ status: 502 }"));
    const fields = byField(diff(c1, c1Observations(c1)).requests[0]!.differences);
    expect(fields).toEqual({
      status: ["regression", [], "nothing predicts it"],
      "header:date": NOISE_CLOCK,
      "header:server": NOISE_BANNER,
      "header:content-length": ["regression", [], "nothing predicts it"],
      "header:content-type": ["regression", [], "nothing predicts it"],
      body: ["regression", [], "nothing predicts it"],
      errorLog: ["regression", [], "nothing predicts it"],
    });
  });

  it("counts lines that must not be logged as a statement about the error log (2.2: none at all, 2.4: no AH02004)", () => {
    const c1 = scenario(c1Yaml("{ status: 500, noErrorLog: [{ code: AH02004 }] }"));
    const fields = byField(diff(c1, c1Observations(c1)).requests[0]!.differences);
    expect(fields.errorLog).toEqual(["expected-change", ["D5"], "each side meets what the scenario states for its version"]);
  });

  it("does not count a field only one version's expectation states (the error log); the body follows the status", () => {
    const c1 = scenario(c1Yaml("{ status: 500 }"));
    const fields = byField(diff(c1, c1Observations(c1)).requests[0]!.differences);
    expect([fields.status?.[0], fields.body?.[0], fields.errorLog?.[0]]).toEqual(["expected-change", "expected-change", "regression"]);
    expect(fields.body?.[2]).toMatch(/^follows the status/);
  });

  it("normalises config-test line numbers and makes the d1 config test and start expected changes (seed X1)", () => {
    const result = diff(scenario(X1_YAML), x1Observations());
    expect(result).toEqual({
      server: [
        {
          field: "configTest",
          baseline: "ok\nSyntax OK",
          candidate:
            "failed\nAH00526: Syntax error on line <n> of /usr/local/apache2/conf/httpd.conf:\n" +
            "Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration",
          class: "expected-change",
          seed: ["X1"],
          reason: "each side meets what the scenario states for its version",
        },
        { field: "started", baseline: "true", candidate: "false", class: "expected-change", seed: ["X1"], reason: "each side meets what the scenario states for its version" },
      ],
      requests: [],
    });
  });

  it("reports a request the side that did not start never sent as one outcome difference, classed like the start", () => {
    const x1 = scenario(`${X1_YAML}requests:\n  - { name: index, path: / }\n`);
    const observations = x1Observations(x1);
    const answer = response(200, basicHeaders("2.2", 3, "text/html"), "hi\n");
    observations.baseline.requests = [requestObservation("index", "2.2", { outcome: answer })];
    // The candidate did not start: observe records its planned request as not run.
    expect(observations.candidate.requests.map((r) => r.outcome.kind)).toEqual(["not-run"]);
    const result = diff(x1, observations);
    expect(result.requests).toEqual([
      {
        name: "index",
        differences: [
          {
            field: "outcome",
            baseline: "status 200",
            candidate: "not-run: the server did not start",
            class: "expected-change",
            seed: ["X1"],
            reason: "one side did not start (each side meets what the scenario states for its version)",
          },
        ],
      },
    ]);
  });

  it("keeps server differences regressions when a side misses its server expectation", () => {
    const { baseline } = x1Observations();
    const started24 = sideObservation("2.4", { startupLog: [] });
    const result = diff(scenario(X1_YAML), { baseline, candidate: { ...started24, configTest: { ...started24.configTest, ok: false, exitCode: 1 } } });
    expect(result.server.map((d) => [d.field, d.class])).toEqual([["configTest", "regression"]]);
  });

  it("finds no difference in a config test that fails at different lines on the two sides", () => {
    const text = `id: t\ntitle: T\n`;
    const at = (line: number) => ({
      exitCode: 1,
      output: [`AH00526: Syntax error on line ${line} of /usr/local/apache2/conf/httpd.conf:`, "KeepAlive must be On or Off"],
    });
    const baseline = { ...sideObservation("2.4", { configTest: at(36), started: false }), side: BASELINE };
    const candidate = sideObservation("2.4", { configTest: at(41), started: false });
    expect(diff(scenario(text), { baseline, candidate }).server).toEqual([]);
  });

  it("reports the modules one image lacks as a server difference", () => {
    const disk = scenario(`id: t\ntitle: T\nserver:\n  modules: [disk_cache]\n`);
    const observations = { baseline: sideObservation("2.2", {}, disk), candidate: sideObservation("2.4", {}, disk) };
    // The plan found it: 2.4.62 has mod_cache_disk, not mod_disk_cache.
    expect([observations.baseline.missingModules, observations.candidate.missingModules]).toEqual([[], ["disk_cache"]]);
    const result = diff(disk, observations);
    expect(result.server).toEqual([
      { field: "missingModules", baseline: null, candidate: "disk_cache", class: "regression", seed: [], reason: "nothing predicts it" },
    ]);
  });

  it("credits no seed row for the differences the expectations explain when the scenario finds the guide wrong", () => {
    const c1 = scenario(c1Yaml());
    const observations = c1Observations(c1);
    const credited = byField(diff(c1, observations).requests[0]!.differences);
    const wrong = byField(diff(c1, observations, { guideWrong: true }).requests[0]!.differences);
    const why = "each side meets what the scenario states for its version; not the guide's prediction: the scenario finds the guide wrong here";
    expect(credited.status).toEqual(["expected-change", ["D5"], "each side meets what the scenario states for its version"]);
    expect(wrong).toEqual({
      status: ["expected-change", [], why],
      "header:date": NOISE_CLOCK,
      "header:server": NOISE_BANNER,
      "header:content-length": ["expected-change", [], `follows the status (${why})`],
      "header:content-type": ["expected-change", [], `follows the status (${why})`],
      body: ["expected-change", [], why],
      errorLog: ["expected-change", [], why],
    });
  });

  it("keeps the seeds of a difference the scenario predicts by name, even when it finds the guide wrong", () => {
    const c1 = scenario(`${c1Yaml("{}")}predicted:\n  - { field: status, request: proxied, seed: [D5] }\n`.replace(/\n {6}"2\.2": \{[^\n]*/, ""));
    const fields = byField(diff(c1, c1Observations(c1), { guideWrong: true }).requests[0]!.differences);
    expect(fields.status).toEqual(["expected-change", ["D5"], "the scenario names the seed rows that predict it"]);
  });

  it("takes the ETag change for D3 only from a 2.2 baseline to a 2.4 candidate", () => {
    const f = scenario(F_YAML);
    const { baseline, candidate } = fObservations(f);
    // The same answers, both sides on 2.4 (a 2.4 upgrade): the rule does not apply.
    const baseline24 = { ...baseline, server: candidate.server };
    expect(byField(diff(f, { baseline, candidate }).requests[0]!.differences)["header:etag"]?.[0]).toBe("expected-change");
    expect(byField(diff(f, { baseline: baseline24, candidate }).requests[0]!.differences)["header:etag"]).toEqual(["regression", [], "nothing predicts it"]);
  });

  it("reports the HTTP version of a response that changed", () => {
    const f = scenario(F_YAML);
    const observations = fObservations(f);
    const answer = { ...response(200, F_TXT_HEADERS["2.4"], "hello etag\n"), httpVersion: "1.0" };
    observations.candidate.requests = [requestObservation("file", "2.4", { outcome: answer }, { outcome: answer })];
    expect(byField(diff(f, observations).requests[0]!.differences).httpVersion).toEqual(["regression", [], "nothing predicts it"]);
  });

  it("does not take a statement both versions share as the prediction of a change (body contains the same text on both)", () => {
    const shared = scenario(
      'id: shared\ntitle: Both versions state the same body\nrequests:\n  - { name: file, path: /p, expect: { both: { status: 200, body: "It works" } } }\n',
    );
    const answer = (family: "2.2" | "2.4", text: string) => response(200, basicHeaders(family, text.length, "text/html"), text);
    const observations = {
      baseline: sideObservation("2.2", { requests: [requestObservation("file", "2.2", { outcome: answer("2.2", "It works! old footer") })] }, shared),
      candidate: sideObservation("2.4", { requests: [requestObservation("file", "2.4", { outcome: answer("2.4", "It works! new footer") })] }, shared),
    };
    const fields = byField(diff(shared, observations).requests[0]!.differences);
    expect(fields.body).toEqual(["regression", [], "nothing predicts it"]);
  });

  it("finds two bodies different when only the bytes past what was kept differ, and says so with lengths and digests", () => {
    const big = scenario("id: big\ntitle: A body longer than the client keeps\nrequests:\n  - { name: file, path: /big.bin }\n");
    // The clients keep the first 64 KiB as text and hash every byte: two 100,000-byte files that differ at the end.
    const kept = "x".repeat(BODY_TEXT_LIMIT);
    const answer = (family: "2.2" | "2.4", sha: string) => ({
      ...response(200, basicHeaders(family, 100_000, "application/octet-stream"), kept),
      bodyBytes: 100_000,
      bodySha256: sha,
    });
    const observations = {
      baseline: sideObservation("2.2", { requests: [requestObservation("file", "2.2", { outcome: answer("2.2", "a".repeat(64)) })] }, big),
      candidate: sideObservation("2.4", { requests: [requestObservation("file", "2.4", { outcome: answer("2.4", "b".repeat(64)) })] }, big),
    };
    const body = diff(big, observations).requests[0]!.differences.find((d) => d.field === "body");
    expect(body).toEqual({
      field: "body",
      baseline: `(the first 65536 characters kept are the same; 100000 bytes, sha256 ${"a".repeat(16)}…)`,
      candidate: `(the first 65536 characters kept are the same; 100000 bytes, sha256 ${"b".repeat(16)}…)`,
      class: "regression",
      seed: [],
      reason: "nothing predicts it",
    });
  });

  it("shows a long body difference as a window around the first differing character", () => {
    const long = scenario("id: long\ntitle: A long page\nrequests:\n  - { name: page, path: /page.html }\n");
    const page = (word: string) => `${"a".repeat(1000)}${word}${"z".repeat(1000)}`;
    const answer = (family: "2.2" | "2.4", word: string) => response(200, basicHeaders(family, 2005, "text/html"), page(word));
    const observations = {
      baseline: sideObservation("2.2", { requests: [requestObservation("page", "2.2", { outcome: answer("2.2", "HELLO") })] }, long),
      candidate: sideObservation("2.4", { requests: [requestObservation("page", "2.4", { outcome: answer("2.4", "WORLD") })] }, long),
    };
    const body = diff(long, observations).requests[0]!.differences.find((d) => d.field === "body");
    // 80 characters before the first difference, 400 from it on.
    expect(body).toMatchObject({
      baseline: `…(from character 920) ${"a".repeat(80)}HELLO${"z".repeat(395)}…`,
      candidate: `…(from character 920) ${"a".repeat(80)}WORLD${"z".repeat(395)}…`,
      class: "regression",
    });
  });
});

function noise(reason: string): Pick<Difference, "class" | "seed" | "reason"> {
  return { class: "noise", seed: [], reason };
}
