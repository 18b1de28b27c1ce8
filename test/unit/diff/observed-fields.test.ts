import { describe, expect, it } from "vitest";
import { differingFields, type FieldMap, logFieldValue, logKey, requestFields, serverFields } from "../../../harness/diff/observed-fields.ts";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
import {
  CONFIG_TESTS,
  ETAGS,
  F_TXT_BODY,
  F_TXT_HEADERS,
  LINES,
  records,
  response,
  sideObservation,
} from "../../fixtures/observations/recorded.ts";

describe("logKey", () => {
  it("gives 2.2's denial line and 2.4's AH01797 line the same key, the client-denied family", () => {
    expect([logKey(parseErrorLogLine(LINES.a1.denied22, "2.2")), logKey(parseErrorLogLine(LINES.a1.denied24, "2.4"))]).toEqual([
      "client-denied",
      "client-denied",
    ]);
  });

  it("puts 2.4's AH01630 (Require) in the same family as AH01797 (Order/Deny)", () => {
    expect(logKey(parseErrorLogLine(LINES.b1.denied24, "2.4"))).toBe("client-denied");
  });

  it("keys an event with no family by the event, and a line with no event by level and normalised message", () => {
    expect(logKey(parseErrorLogLine(LINES.b1.authTypeNotSet22, "2.2"))).toBe("authtype-not-set");
    expect(logKey(parseErrorLogLine(LINES.c1.proxy24[1]!, "2.4"))).toBe("AH00898");
    // 2.2's "Digest: done" has no 2.4 counterpart (message-map.ts).
    expect(logKey(parseErrorLogLine("[Sat Nov 21 22:46:15 2026] [notice] Digest: done", "2.2"))).toBe("notice Digest: done");
    expect(logKey(parseErrorLogLine("Syntax error without level", "2.4"))).toBe("- Syntax error without level");
  });
});

describe("logFieldValue", () => {
  it("is null for a request that logged nothing", () => {
    expect(logFieldValue([])).toBeNull();
  });

  it("lists the keys sorted, so the order lines arrive in does not matter", () => {
    const lines = records("2.4", LINES.c1.proxy24);
    expect(logFieldValue(lines)).toBe("AH00898\nAH01084\nAH01097");
    expect(logFieldValue([...lines].reverse())).toBe("AH00898\nAH01084\nAH01097");
  });

  it("is equal for the same denial logged by 2.2 and by 2.4 at different times, pids and ports", () => {
    expect(logFieldValue(records("2.2", [LINES.a1.denied22]))).toBe(logFieldValue(records("2.4", [LINES.a5.denied24])));
  });
});

describe("requestFields", () => {
  it("flattens a response into outcome, status, each header by lower-case name, body and error log", () => {
    const fields = requestFields(response(200, F_TXT_HEADERS["2.2"], F_TXT_BODY), []);
    expect([...fields]).toEqual([
      ["outcome", "response"],
      ["status", "200"],
      ["header:date", "Sat, 21 Nov 2026 22:45:47 GMT"],
      ["header:server", "Apache/2.2.34 (Unix) mod_ssl/2.2.34 OpenSSL/1.0.2s"],
      ["header:last-modified", "Sat, 21 Nov 2026 22:38:42 GMT"],
      ["header:etag", ETAGS.fTxt22],
      ["header:accept-ranges", "bytes"],
      ["header:content-length", "11"],
      ["header:content-type", "text/plain"],
      ["body", "hello etag\n"],
      ["errorLog", null],
    ]);
  });

  it("joins repeated headers with a comma, in the order received", () => {
    const fields = requestFields(response(200, [["Vary", "Accept-Encoding"], ["vary", "User-Agent"], ["Set-Cookie", "a=1"]], ""), []);
    expect([fields.get("header:vary"), fields.get("header:set-cookie")]).toEqual(["Accept-Encoding, User-Agent", "a=1"]);
  });

  it("records a transport failure by its code, with no status", () => {
    const fields = requestFields({ kind: "transport-error", code: "ECONNRESET", message: "socket hang up", durationMs: 3 }, []);
    expect([...fields]).toEqual([
      ["outcome", "transport-error ECONNRESET"],
      ["errorLog", null],
    ]);
  });

  it("records an exec request's exit status and output, and its error-log lines", () => {
    const fields = requestFields(
      { kind: "exec", exitCode: 0, stdout: "alice:$apr1$x$y\n", stderr: "", durationMs: 9 },
      records("2.4", [LINES.a1.denied24]),
    );
    expect([...fields]).toEqual([
      ["outcome", "exec"],
      ["exec", "exit 0\nalice:$apr1$x$y\n"],
      ["errorLog", "client-denied"],
    ]);
  });

  it("records a request that was not run as such", () => {
    expect([...requestFields({ kind: "not-run", reason: "the server did not start" }, [])]).toEqual([
      ["outcome", "not-run"],
      ["errorLog", null],
    ]);
  });
});

describe("serverFields", () => {
  it("records the config test, start, missing modules, and startup warnings (notices left out)", () => {
    const fields = serverFields(sideObservation("2.4", { missingModules: ["disk_cache", "mem_cache"] }));
    expect([...fields]).toEqual([
      ["configTest", "ok\nSyntax OK"],
      ["started", "true"],
      ["missingModules", "disk_cache, mem_cache"],
      // AH00489 and AH00094 are notices; only the session-cache warning stays.
      ["startupLog", "AH01873"],
    ]);
  });

  it("gives 2.2's and 2.4's recorded startup the same startupLog (the session-cache warning)", () => {
    expect(serverFields(sideObservation("2.2")).get("startupLog")).toBe(serverFields(sideObservation("2.4")).get("startupLog"));
  });

  it("replaces config-test line numbers, which depend on each version's base config", () => {
    const d1 = serverFields(sideObservation("2.4", { configTest: CONFIG_TESTS.d1User24, started: false }));
    expect([...d1]).toEqual([
      [
        "configTest",
        "failed\nAH00526: Syntax error on line <n> of /usr/local/apache2/conf/httpd.conf:\n" +
          "Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration",
      ],
      ["started", "false"],
      ["missingModules", null],
      ["startupLog", null],
    ]);
    const d6a = serverFields(sideObservation("2.4", { configTest: CONFIG_TESTS.d6aNameVirtualHost24 }));
    expect(d6a.get("configTest")).toBe(
      "ok\nAH00548: NameVirtualHost has no effect and will be removed in the next release /usr/local/apache2/conf/httpd.conf:<n>\nSyntax OK",
    );
  });

  it("compares the same error at different lines as equal", () => {
    const at = (line: number) =>
      serverFields(
        sideObservation("2.4", {
          configTest: { exitCode: 1, output: [`AH00526: Syntax error on line ${line} of /usr/local/apache2/conf/httpd.conf:`, "KeepAlive must be On or Off"] },
          started: false,
        }),
      );
    expect(differingFields(at(36), at(52))).toEqual([]);
  });
});

describe("differingFields", () => {
  it("names the fields whose values differ, including fields only one side has", () => {
    const a: FieldMap = new Map<string, string | null>([["status", "200"], ["header:etag", '"1"'], ["body", "x"], ["errorLog", null]]);
    const b: FieldMap = new Map<string, string | null>([["status", "200"], ["header:etag", '"2"'], ["body", "x"], ["header:vary", "Accept-Encoding"]]);
    expect(differingFields(a, b)).toEqual(["header:etag", "header:vary"]);
  });

  it("treats a missing field and a null field as equal", () => {
    expect(differingFields(new Map([["errorLog", null]]), new Map())).toEqual([]);
  });
});
