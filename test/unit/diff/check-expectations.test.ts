import { describe, expect, it } from "vitest";
import { checkExpectations, describeLogMatcher, recordMatches, summarize } from "../../../harness/diff/check-expectations.ts";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
import type { ErrorLogMatcher } from "../../../harness/scenario/scenario.ts";
import { CONFIG_TESTS, LINES, requestObservation, response, sideObservation } from "../../fixtures/observations/recorded.ts";
import { A1_YAML, X1_YAML, a1Observations, c1Observations, c1Yaml, scenario, x1Observations } from "../../fixtures/observations/scenarios.ts";

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
    expect(checkExpectations(c1, c1Observations().candidate, "expect")).toMatchInlineSnapshot(`
      {
        "failures": [
          "request proxied: expected status 502, got status 500 (x.scenario.yaml:21:14)",
          "request proxied: expected no Content-Type header, got "text/html; charset=iso-8859-1" (x.scenario.yaml:21:14)",
          "request proxied: expected in the error log a line with code AH01997; got: [Sat Nov 21 22:44:48.681775 2026] [proxy:error] [pid 9:tid 12] (20014)Internal error (specific information not available): [client 172.18.0.1:45410] AH01084: pass request body failed to 172.18.0.2:443 (backend) | [Sat Nov 21 22:44:48.681816 2026] [proxy:error] [pid 9:tid 12] [client 172.18.0.1:45410] AH00898: Error during SSL Handshake with remote server returned by / | [Sat Nov 21 22:44:48.681821 2026] [proxy_http:error] [pid 9:tid 12] [client 172.18.0.1:45410] AH01097: pass request body failed to 172.18.0.2:443 (backend) from 172.18.0.1 () (x.scenario.yaml:21:85)",
        ],
        "stated": true,
      }
    `);
  });

  it("reports the guide's claim for c1 as not holding on 2.4 and holding on 2.2", () => {
    const c1 = scenario(c1Yaml());
    const { baseline, candidate } = c1Observations();
    expect(checkExpectations(c1, baseline, "guide")).toEqual({ stated: true, failures: [] });
    expect(checkExpectations(c1, candidate, "guide")).toEqual({
      stated: true,
      failures: ["request proxied: expected status 502, got status 500 (x.scenario.yaml:24:14)"],
    });
  });

  it("reports the lines of a request that must log nothing", () => {
    const c1 = scenario(c1Yaml("{ errorLogEmpty: true }"));
    expect(checkExpectations(c1, c1Observations().candidate, "expect").failures).toMatchInlineSnapshot(`
      [
        "request proxied: expected no error-log line, got: [Sat Nov 21 22:44:48.681775 2026] [proxy:error] [pid 9:tid 12] (20014)Internal error (specific information not available): [client 172.18.0.1:45410] AH01084: pass request body failed to 172.18.0.2:443 (backend) | [Sat Nov 21 22:44:48.681816 2026] [proxy:error] [pid 9:tid 12] [client 172.18.0.1:45410] AH00898: Error during SSL Handshake with remote server returned by / | [Sat Nov 21 22:44:48.681821 2026] [proxy_http:error] [pid 9:tid 12] [client 172.18.0.1:45410] AH01097: pass request body failed to 172.18.0.2:443 (backend) from 172.18.0.1 () (x.scenario.yaml:21:14)",
      ]
    `);
  });

  it("reports the first line that must not be logged, with the matcher's position", () => {
    const c1 = scenario(c1Yaml("{ noErrorLog: [{ module: proxy, level: error }] }"));
    const request = checkExpectations(c1, c1Observations().candidate, "expect").failures;
    expect(request.map((f) => [f.startsWith("request proxied: "), f.endsWith(`; got: ${LINES.c1.proxy24[0]} (x.scenario.yaml:21:29)`)])).toEqual([[true, true]]);
    const startup = scenario('id: t\ntitle: T\nexpect:\n  "2.4": { noStartupLog: [{ code: AH01873 }] }\n');
    const line = checkExpectations(startup, sideObservation("2.4"), "expect").failures;
    expect(line.map((f) => [f.startsWith("startup log: "), f.endsWith(`; got: ${LINES.startup["2.4"][0]} (x.scenario.yaml:4:27)`)])).toEqual([[true, true]]);
  });

  // BUG: the "must not be logged" failures put "no" before describeLogMatcher's "a line with ...", so they read
  // "expected no a line with module proxy, level error; got: ..." (noErrorLog) and "startup log: expected no a
  // line with code AH01873; got: ..." (noStartupLog).
  it("says which line must not be logged in plain words", () => {
    const c1 = scenario(c1Yaml("{ noErrorLog: [{ module: proxy, level: error }] }"));
    const [request] = checkExpectations(c1, c1Observations().candidate, "expect").failures;
    expect(request).toMatch(/^request proxied: expected no line with module proxy, level error; got: /);
    const startup = scenario('id: t\ntitle: T\nexpect:\n  "2.4": { noStartupLog: [{ code: AH01873 }] }\n');
    const [line] = checkExpectations(startup, sideObservation("2.4"), "expect").failures;
    expect(line).toMatch(/^startup log: expected no line with code AH01873; got: /);
  });

  it("reports a 2.2 expectation unmet when the 2.2 side logs the 2.4-only denial code", () => {
    const a1 = scenario(A1_YAML.replace('[{ level: error, message: "client denied', '[{ code: AH01630, message: "client denied'));
    expect(checkExpectations(a1, a1Observations().baseline, "expect").failures).toMatchInlineSnapshot(`
      [
        "request status: expected in the error log a line with code AH01630, message containing "client denied by server configuration: /usr/local/apache2/htdocs/server-status"; got: [Sat Nov 21 22:41:21 2026] [error] [client 172.17.0.1] client denied by server configuration: /usr/local/apache2/htdocs/server-status (x.scenario.yaml:23:20)",
      ]
    `);
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
    const started24 = sideObservation("2.4");
    expect(checkExpectations(x1, started24, "expect").failures).toMatchInlineSnapshot(`
      [
        "config test: expected to fail, it passed: Syntax OK (x.scenario.yaml:12:5)",
        "config test: expected a message containing "Invalid command 'User'", got: Syntax OK (x.scenario.yaml:12:5)",
        "server: expected it not to start, it started (x.scenario.yaml:12:5)",
      ]
    `);
  });

  it("reports a config-test message that is not there, with the messages it got", () => {
    const x1 = scenario(X1_YAML.replace("Invalid command 'User'\"]", "Invalid command 'Group'\"]"));
    expect(checkExpectations(x1, x1Observations().candidate, "expect").failures).toEqual([
      "config test: expected a message containing \"Invalid command 'Group'\", got: AH00526: Syntax error on line 35 of /usr/local/apache2/conf/httpd.conf: | Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration (x.scenario.yaml:12:5)",
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
    expect(checkExpectations(scenario(text), observation, "expect").failures).toMatchInlineSnapshot(`
      [
        "startup log: expected a line with code AH00558; got: AH00548: NameVirtualHost has no effect and will be removed in the next release /usr/local/apache2/conf/httpd.conf:36 | Syntax OK | [Sat Nov 21 22:45:48.215836 2026] [ssl:warn] [pid 1:tid 1] AH01873: Init: Session Cache is not configured [hint: SSLSessionCache] | [Sat Nov 21 22:45:48.217886 2026] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/2.4.62 (Unix) OpenSSL/3.0.20 configured -- resuming normal operations | [Sat Nov 21 22:45:48.217926 2026] [core:notice] [pid 1:tid 1] AH00094: Command line: 'httpd -D FOREGROUND' (x.scenario.yaml:5:71)",
      ]
    `);
  });

  it("reports a request that has no observation, and one that was not run", () => {
    const a1 = scenario(A1_YAML);
    expect(checkExpectations(a1, sideObservation("2.4"), "expect").failures).toEqual(["request status: no observation"]);
    const notRun = sideObservation("2.4", {
      started: false,
      requests: [requestObservation("status", "2.4", { outcome: { kind: "not-run", reason: "the server did not start" } })],
    });
    expect(checkExpectations(a1, notRun, "expect").failures).toEqual([
      "server: expected it to start, it did not (x.scenario.yaml:30:9)",
      "request status: not run (the server did not start) (x.scenario.yaml:25:9)",
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
    expect(checkExpectations(scenario(text), observation, "expect").failures).toMatchInlineSnapshot(`
      [
        "request slow: expected a transport error containing "ECONNRESET", got status 408 (x.scenario.yaml:6:22)",
        "request hash: expected output matching /\\$apr1\\$/, got "user:$2y$05$abc\\n" (x.scenario.yaml:9:22)",
      ]
    `);
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
    expect(checkExpectations(scenario(X1_YAML), observation, "expect").failures).toEqual([
      expect.stringMatching(/^prepare command 2 exited 1: httxt2dbm: illegal option -- F \| Usage: httxt2dbm .* \(x\.scenario\.yaml:\d+:\d+\)$/),
      ...checkExpectations(scenario(X1_YAML), sideObservation("2.2"), "expect").failures,
    ]);
    // the guide's claims are not about the harness's own preparation
    expect(checkExpectations(scenario(X1_YAML), observation, "guide").failures.some((f) => f.startsWith("prepare"))).toBe(false);
  });
});
