import { describe, expect, it } from "vitest";
import { checkExpectations, describeLogMatcher, recordMatches, summarize } from "../../../harness/judge/check-expectations.ts";
import { describeFailure, type ExpectationFailure } from "../../../harness/judge/expectation-failure.ts";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
import type { ErrorLogMatcher } from "../../../harness/scenario/scenario.ts";
import { CONFIG_TESTS, LINES, requestObservation, response, sideObservation } from "../../fixtures/observations/recorded.ts";
import { A1_YAML, X1_YAML, a1Observations, c1Observations, c1Yaml, scenario, x1Observations } from "../../fixtures/observations/scenarios.ts";

/** The failures in the words describeFailure gives them (what reporters show). */
function described(check: { failures: ExpectationFailure[] }): string[] {
  return check.failures.map(describeFailure);
}

const AT = { file: "x.scenario.yaml", line: 1, column: 1 };
const denied22 = parseErrorLogLine(LINES.a1.denied22, "2.2");
const denied24 = parseErrorLogLine(LINES.a1.denied24, "2.4");

function matcher(fields: Omit<ErrorLogMatcher, "at">): ErrorLogMatcher {
  return { at: AT, ...fields };
}

describe("recordMatches", () => {
  it("matches 2.2's denial line by the 2.4 code through its event (2.2 lines carry no code)", () => {
    expect(denied22.code).toBeNull();
    expect([recordMatches(matcher({ code: "AH01797" }), denied22), recordMatches(matcher({ code: "AH01797" }), denied24)]).toEqual([true, true]);
  });

  it("needs every given field to match the same line", () => {
    expect([
      recordMatches(matcher({ code: "AH01797", module: "access_compat", level: "error" }), denied24),
      recordMatches(matcher({ code: "AH01797", module: "authz_core" }), denied24),
      recordMatches(matcher({ code: "AH01797", level: "warn" }), denied24),
      recordMatches(matcher({ code: "AH01630" }), denied24),
      // 2.2 writes no module tag.
      recordMatches(matcher({ code: "AH01797", module: "access_compat" }), denied22),
    ]).toEqual([true, false, false, false, false]);
  });

  it("matches the message against the parsed message or the whole raw line", () => {
    expect([
      recordMatches(matcher({ message: { kind: "contains", value: "client denied by server configuration: /usr/local/apache2/htdocs/server-status" } }), denied22),
      recordMatches(matcher({ message: { kind: "contains", value: "[client 172.17.0.1:43226]" } }), denied24),
      recordMatches(matcher({ message: { kind: "equals", value: "client denied by server configuration: /usr/local/apache2/htdocs/server-status" } }), denied24),
      recordMatches(matcher({ message: { kind: "matches", pattern: "htdocs/x$", flags: "" } }), denied24),
    ]).toEqual([true, true, true, false]);
  });

  it("matches anything when the matcher names nothing", () => {
    expect(recordMatches(matcher({}), parseErrorLogLine("Syntax OK", "2.4"))).toBe(true);
  });
});

describe("describeLogMatcher", () => {
  it("names each field the matcher checks", () => {
    expect(describeLogMatcher(matcher({ code: "AH01797", module: "access_compat", level: "error", message: { kind: "matches", pattern: "denied", flags: "i" } }))).toBe(
      "a line with code AH01797, module access_compat, level error, message matching /denied/i",
    );
    expect(describeLogMatcher(matcher({}))).toBe("a line with anything");
  });
});

describe("checkExpectations", () => {
  it("finds the recorded a1 answers meet the scenario on both versions", () => {
    const a1 = scenario(A1_YAML);
    const { baseline, candidate } = a1Observations();
    expect([checkExpectations(a1, baseline, "expect"), checkExpectations(a1, candidate, "expect")]).toEqual([
      { stated: true, failures: [] },
      { stated: true, failures: [] },
    ]);
    expect(checkExpectations(a1, candidate, "guide")).toEqual({ stated: true, failures: [] });
  });

  it("says the guide states nothing for 2.2 when it has no 2.2 block", () => {
    expect(checkExpectations(scenario(A1_YAML), a1Observations().baseline, "guide")).toEqual({ stated: false, failures: [] });
  });

  it("finds the recorded c1 answers meet what the recording shows for each version", () => {
    const c1 = scenario(c1Yaml());
    const { baseline, candidate } = c1Observations();
    expect([checkExpectations(c1, baseline, "expect").failures, checkExpectations(c1, candidate, "expect").failures]).toEqual([[], []]);
  });

  it("names the scenario's file:line:col and says expected vs got when 2.4 does not answer the seed's 502", () => {
    const c1 = scenario(c1Yaml("{ status: 502, headers: { Content-Type: { absent: true } }, errorLog: [{ code: AH01997 }] }"));
    const check = checkExpectations(c1, c1Observations(c1).candidate, "expect");
    expect(check.stated).toBe(true);
    expect(check.failures).toEqual([
      { kind: "status", request: "proxied", field: "status", expected: "status 502", actual: "status 500", at: { file: "x.scenario.yaml", line: 21, column: 14 } },
      {
        kind: "header-unwanted",
        request: "proxied",
        field: "header:content-type",
        expected: "no Content-Type header",
        actual: '"text/html; charset=iso-8859-1"',
        at: { file: "x.scenario.yaml", line: 21, column: 14 },
      },
      {
        kind: "error-log",
        request: "proxied",
        field: "errorLog",
        expected: "in the error log a line with code AH01997",
        actual: LINES.c1.proxy24.join(" | "),
        at: { file: "x.scenario.yaml", line: 21, column: 85 },
      },
    ]);
    expect(described(check)).toEqual([
      "request proxied: status: expected status 502, got status 500 (x.scenario.yaml:21:14)",
      'request proxied: header:content-type: expected no Content-Type header, got "text/html; charset=iso-8859-1" (x.scenario.yaml:21:14)',
      `request proxied: errorLog: expected in the error log a line with code AH01997, got ${LINES.c1.proxy24.join(" | ")} (x.scenario.yaml:21:85)`,
    ]);
  });

  it("reports the guide's claim for c1 as not holding on 2.4 and holding on 2.2", () => {
    const c1 = scenario(c1Yaml());
    const { baseline, candidate } = c1Observations();
    expect(checkExpectations(c1, baseline, "guide")).toEqual({ stated: true, failures: [] });
    expect(checkExpectations(c1, candidate, "guide")).toEqual({
      stated: true,
      failures: [{ kind: "status", request: "proxied", field: "status", expected: "status 502", actual: "status 500", at: { file: "x.scenario.yaml", line: 24, column: 14 } }],
    });
  });

  it("reports the lines of a request that must log nothing", () => {
    const c1 = scenario(c1Yaml("{ errorLogEmpty: true }"));
    expect(checkExpectations(c1, c1Observations(c1).candidate, "expect").failures).toEqual([
      {
        kind: "error-log-not-empty",
        request: "proxied",
        field: "errorLog",
        expected: "no error-log line",
        actual: LINES.c1.proxy24.join(" | "),
        at: { file: "x.scenario.yaml", line: 21, column: 14 },
      },
    ]);
  });

  it("reports the first line that must not be logged, with the matcher's position", () => {
    const c1 = scenario(c1Yaml("{ noErrorLog: [{ module: proxy, level: error }] }"));
    const request = checkExpectations(c1, c1Observations(c1).candidate, "expect").failures;
    expect(request.map((f) => [f.kind, f.request, f.actual, f.at])).toEqual([
      ["error-log-unwanted", "proxied", LINES.c1.proxy24[0], { file: "x.scenario.yaml", line: 21, column: 29 }],
    ]);
    const startup = scenario('id: t\ntitle: T\nexpect:\n  "2.4": { noStartupLog: [{ code: AH01873 }] }\n');
    const line = checkExpectations(startup, sideObservation("2.4", {}, startup), "expect").failures;
    expect(line.map((f) => [f.kind, f.request, f.field, f.actual, f.at])).toEqual([
      ["startup-log-unwanted", null, "startupLog", LINES.startup["2.4"][0], { file: "x.scenario.yaml", line: 4, column: 27 }],
    ]);
  });

  it("says which line must not be logged in plain words", () => {
    const c1 = scenario(c1Yaml("{ noErrorLog: [{ module: proxy, level: error }] }"));
    const [request] = checkExpectations(c1, c1Observations(c1).candidate, "expect").failures;
    expect(request?.expected).toBe("no line with module proxy, level error");
    expect(describeFailure(request!)).toMatch(/^request proxied: errorLog: expected no line with module proxy, level error, got \[Sat Nov 21/);
    const startup = scenario('id: t\ntitle: T\nexpect:\n  "2.4": { noStartupLog: [{ code: AH01873 }] }\n');
    const [line] = checkExpectations(startup, sideObservation("2.4", {}, startup), "expect").failures;
    expect(describeFailure(line!)).toMatch(/^startupLog: expected no line with code AH01873, got \[Sat Nov 21/);
  });

  it("reports a 2.2 expectation unmet when the 2.2 side logs the 2.4-only denial code", () => {
    const a1 = scenario(A1_YAML.replace('[{ level: error, message: "client denied', '[{ code: AH01630, message: "client denied'));
    expect(described(checkExpectations(a1, a1Observations(a1).baseline, "expect"))).toEqual([
      `request status: errorLog: expected in the error log a line with code AH01630, message containing "client denied by server configuration: /usr/local/apache2/htdocs/server-status", got ${LINES.a1.denied22} (x.scenario.yaml:23:20)`,
    ]);
  });

  it("checks the config test, its messages and the start against the recorded d1 output (seed X1)", () => {
    const x1 = scenario(X1_YAML);
    const { baseline, candidate } = x1Observations();
    expect([checkExpectations(x1, baseline, "expect"), checkExpectations(x1, candidate, "expect"), checkExpectations(x1, candidate, "guide")]).toEqual([
      { stated: true, failures: [] },
      { stated: true, failures: [] },
      { stated: true, failures: [] },
    ]);
    // The same expectations against a 2.4 that loads mod_unixd and starts.
    const started24 = sideObservation("2.4", {}, x1);
    expect(checkExpectations(x1, started24, "expect").failures).toEqual([
      { kind: "config-test", request: null, field: "configTest", expected: "to fail", actual: "passed: Syntax OK", at: { file: "x.scenario.yaml", line: 12, column: 5 } },
      {
        kind: "config-test-message",
        request: null,
        field: "configTest",
        expected: `a message containing "Invalid command 'User'"`,
        actual: "Syntax OK",
        at: { file: "x.scenario.yaml", line: 12, column: 5 },
      },
      { kind: "started", request: null, field: "started", expected: "not to start", actual: "started", at: { file: "x.scenario.yaml", line: 12, column: 5 } },
    ]);
  });

  it("reports a config-test message that is not there, with the messages it got", () => {
    const x1 = scenario(X1_YAML.replace("Invalid command 'User'\"]", "Invalid command 'Group'\"]"));
    expect(described(checkExpectations(x1, x1Observations(x1).candidate, "expect"))).toEqual([
      "configTest: expected a message containing \"Invalid command 'Group'\", got AH00526: Syntax error on line 35 of /usr/local/apache2/conf/httpd.conf: | Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration (x.scenario.yaml:12:5)",
    ]);
  });

  it("checks startup lines against the config test's records and the startup log", () => {
    const text = `id: t
title: T
expect:
  "2.4":
    startupLog: [{ code: AH00548 }, { code: AH00489, level: notice }, { code: AH00558 }]
    noStartupLog: [{ level: emerg }, { code: AH00117 }]
`;
    const observation = sideObservation("2.4", { configTest: CONFIG_TESTS.d6aNameVirtualHost24 });
    expect(checkExpectations(scenario(text), observation, "expect").failures).toEqual([
      {
        kind: "startup-log",
        request: null,
        field: "startupLog",
        expected: "a line with code AH00558",
        actual: [...CONFIG_TESTS.d6aNameVirtualHost24.output, ...LINES.startup["2.4"]].join(" | "),
        at: { file: "x.scenario.yaml", line: 5, column: 71 },
      },
    ]);
  });

  it("reports a request that has no observation, and one that was not run", () => {
    const a1 = scenario(A1_YAML);
    expect(checkExpectations(a1, sideObservation("2.4"), "expect").failures).toEqual([
      { kind: "no-observation", request: "status", field: "outcome", expected: "an observation", actual: "none", at: a1.requests[0]!.at },
    ]);
    // What observe records of a side that did not start: each planned request, not run.
    const notRun = sideObservation("2.4", { started: false }, a1);
    expect(notRun.requests.map((r) => [r.name, r.outcome])).toEqual([["status", { kind: "not-run", reason: "the server did not start" }]]);
    expect(described(checkExpectations(a1, notRun, "expect"))).toEqual([
      "started: expected to start, got did not start (x.scenario.yaml:30:9)",
      "request status: outcome: expected an answer, got not run (the server did not start) (x.scenario.yaml:25:9)",
    ]);
  });

  it("checks a transport error's code, and an exec request's exit status and output", () => {
    const text = `id: t
title: T
requests:
  - name: slow
    raw: "GET / HTTP/1.1\\r\\n"
    expect: { "2.4": { transportError: ECONNRESET } }
  - name: hash
    exec: "htpasswd -nb user pass"
    expect: { "2.4": { exitCode: 0, stdout: "/\\\\$apr1\\\\$/" } }
`;
    const observation = sideObservation("2.4", {
      requests: [
        requestObservation("slow", "2.4", { outcome: response(408, [], "") }),
        requestObservation("hash", "2.4", { outcome: { kind: "exec", exitCode: 0, stdout: "user:$2y$05$abc\n", stderr: "", durationMs: 3 } }),
      ],
    });
    expect(described(checkExpectations(scenario(text), observation, "expect"))).toEqual([
      'request slow: outcome: expected a transport error containing "ECONNRESET", got status 408 (x.scenario.yaml:6:22)',
      'request hash: exec: expected output matching /\\$apr1\\$/, got "user:$2y$05$abc\\n" (x.scenario.yaml:9:22)',
    ]);
  });
});

describe("summarize", () => {
  it("says what a request got in a few words", () => {
    expect([
      summarize(requestObservation("a", "2.4", { outcome: response(403, [], "") })),
      summarize(requestObservation("a", "2.4", { outcome: { kind: "transport-error", code: "ECONNRESET", message: "", durationMs: 1 } })),
      summarize(requestObservation("a", "2.4", { outcome: { kind: "exec", exitCode: 2, stdout: "", stderr: "", durationMs: 1 } })),
      summarize(requestObservation("a", "2.4", { outcome: { kind: "not-run", reason: "x" } })),
    ]).toEqual(["status 403", "transport error ECONNRESET", "exit 2", "not run"]);
  });
});

describe("checkExpectations, prepare commands", () => {
  it("fails a side whose prepare command exited non-zero, with the command's last output lines", () => {
    const observation = {
      ...sideObservation("2.2"),
      prepare: [
        { kind: "exec" as const, exitCode: 0, stdout: "Adding password for user alice", stderr: "", durationMs: 0 },
        { kind: "exec" as const, exitCode: 1, stdout: "httxt2dbm: illegal option -- F\nUsage: httxt2dbm [-v] [-f format] -i SOURCE_TXT -o OUTPUT_DBM", stderr: "", durationMs: 0 },
      ],
    };
    const x1 = scenario(X1_YAML);
    expect(checkExpectations(x1, observation, "expect").failures).toEqual([
      {
        kind: "prepare",
        request: null,
        field: "prepare",
        expected: "prepare command 2 to exit 0",
        actual: "exit 1: httxt2dbm: illegal option -- F | Usage: httxt2dbm [-v] [-f format] -i SOURCE_TXT -o OUTPUT_DBM",
        at: x1.server.at,
      },
      ...checkExpectations(x1, sideObservation("2.2"), "expect").failures,
    ]);
    // the guide's claims are not about the harness's own preparation
    expect(checkExpectations(x1, observation, "guide").failures.some((f) => f.kind === "prepare")).toBe(false);
  });
});
