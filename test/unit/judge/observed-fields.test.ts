import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  bodyDifference,
  differingFields,
  type FieldMap,
  logFieldValue,
  logKey,
  type ObservedField,
  requestFields,
  serverFields,
} from "../../../harness/judge/observed-fields.ts";
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
import { scenario } from "../../fixtures/observations/scenarios.ts";

/** The fields as [name, compared value], and, where they differ, the value shown. */
function entries(fields: FieldMap): Array<[string, string] | [string, string, string]> {
  return [...fields].map(([name, { compare, shown }]) => (compare === shown ? [name, compare] : [name, compare, shown]));
}

/** A field compared and shown as the same text. */
function same(value: string): ObservedField {
  return { compare: value, shown: value };
}

const sha256 = (text: string): string => createHash("sha256").update(text, "latin1").digest("hex");

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
  it("flattens a response into outcome, status, HTTP version, each header by lower-case name, body and error log", () => {
    const fields = requestFields(response(200, F_TXT_HEADERS["2.2"], F_TXT_BODY), []);
    expect(entries(fields)).toEqual([
      ["outcome", "response"],
      ["status", "200"],
      ["httpVersion", "1.1"],
      ["header:date", "Sat, 21 Nov 2026 22:45:47 GMT"],
      ["header:server", "Apache/2.2.34 (Unix) mod_ssl/2.2.34 OpenSSL/1.0.2s"],
      ["header:last-modified", "Sat, 21 Nov 2026 22:38:42 GMT"],
      ["header:etag", ETAGS.fTxt22],
      ["header:accept-ranges", "bytes"],
      ["header:content-length", "11"],
      ["header:content-type", "text/plain"],
      // Compared by length and digest of every byte, shown as the text kept.
      ["body", `11 ${sha256(F_TXT_BODY)}`, "hello etag\n"],
    ]);
  });

  it("joins repeated headers with a comma, in the order received", () => {
    const fields = requestFields(response(200, [["Vary", "Accept-Encoding"], ["vary", "User-Agent"], ["Set-Cookie", "a=1"]], ""), []);
    expect([fields.get("header:vary"), fields.get("header:set-cookie")]).toEqual([same("Accept-Encoding, User-Agent"), same("a=1")]);
  });

  it("records a transport failure by its code, with no status and no error-log field when nothing was logged", () => {
    const fields = requestFields({ kind: "transport-error", code: "ECONNRESET", message: "socket hang up", durationMs: 3 }, []);
    expect(entries(fields)).toEqual([["outcome", "transport-error ECONNRESET"]]);
  });

  it("compares bodies by every byte: the same kept text with another digest differs", () => {
    const kept = response(200, [], "the first part");
    const a = requestFields({ ...kept, bodyBytes: 70_000, bodySha256: "a".repeat(64) }, []);
    const b = requestFields({ ...kept, bodyBytes: 70_000, bodySha256: "b".repeat(64) }, []);
    expect(differingFields(a, b)).toEqual(["body"]);
    expect(differingFields(a, requestFields({ ...kept, bodyBytes: 70_000, bodySha256: "a".repeat(64) }, []))).toEqual([]);
  });

  it("records an exec request's exit status and output, and its error-log lines", () => {
    const fields = requestFields(
      { kind: "exec", exitCode: 0, stdout: "alice:$apr1$x$y\n", stderr: "", durationMs: 9 },
      records("2.4", [LINES.a1.denied24]),
    );
    expect(entries(fields)).toEqual([
      ["outcome", "exec"],
      ["exec", "exit 0\nalice:$apr1$x$y\n"],
      ["errorLog", "client-denied"],
    ]);
  });

  it("records a request that was not run as such", () => {
    expect(entries(requestFields({ kind: "not-run", reason: "the server did not start" }, []))).toEqual([["outcome", "not-run"]]);
  });
});

describe("serverFields", () => {
  it("records the config test, start, missing modules, and startup warnings (notices left out)", () => {
    // The recorded 2.4.62 has neither module under these names (its disk cache is mod_cache_disk).
    const caches = scenario("id: caches\ntitle: T\nserver:\n  modules: [disk_cache, mem_cache]\n");
    const fields = serverFields(sideObservation("2.4", {}, caches));
    expect(entries(fields)).toEqual([
      ["configTest", "ok\nSyntax OK"],
      ["started", "true"],
      ["missingModules", "disk_cache, mem_cache"],
      // AH00489 and AH00094 are notices; only the session-cache warning stays.
      ["startupLog", "AH01873"],
    ]);
  });

  it("gives 2.2's and 2.4's recorded startup the same startupLog (the session-cache warning)", () => {
    expect(serverFields(sideObservation("2.2")).get("startupLog")).toEqual(serverFields(sideObservation("2.4")).get("startupLog"));
  });

  it("records the warnings logged after the last request as the trailing log", () => {
    const observation = { ...sideObservation("2.4"), trailingLog: records("2.4", [LINES.c1.proxy24[0]!, LINES.startup["2.4"][2]!]) };
    // The notice (AH00094) is left out, as in the startup log.
    expect(serverFields(observation).get("trailingLog")).toEqual(same("AH01084"));
    expect(serverFields(sideObservation("2.4")).has("trailingLog")).toBe(false);
  });

  it("tells a server that passed the config test but exited at start by its exit status", () => {
    const observation = { ...sideObservation("2.4", { started: false }), startFailure: { exitCode: 1, logTail: ["(98)Address already in use"] } };
    expect(serverFields(observation).get("started")).toEqual(same("false (exit 1)"));
  });

  it("replaces config-test line numbers, which depend on each version's base config", () => {
    const d1 = serverFields(sideObservation("2.4", { configTest: CONFIG_TESTS.d1User24, started: false }));
    expect(entries(d1)).toEqual([
      [
        "configTest",
        "failed\nAH00526: Syntax error on line <n> of /usr/local/apache2/conf/httpd.conf:\n" +
          "Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration",
      ],
      ["started", "false"],
    ]);
    const d6a = serverFields(sideObservation("2.4", { configTest: CONFIG_TESTS.d6aNameVirtualHost24 }));
    expect(d6a.get("configTest")?.compare).toBe(
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
    const a: FieldMap = new Map([["status", same("200")], ["header:etag", same('"1"')], ["body", same("x")], ["errorLog", same("client-denied")]]);
    const b: FieldMap = new Map([["status", same("200")], ["header:etag", same('"2"')], ["body", same("x")], ["header:vary", same("Accept-Encoding")]]);
    expect(differingFields(a, b)).toEqual(["header:etag", "errorLog", "header:vary"]);
  });

  it("compares by the compared value, not by what is shown", () => {
    const a: FieldMap = new Map([["body", { compare: "3 abc", shown: "kept" }]]);
    expect(differingFields(a, new Map([["body", { compare: "3 abc", shown: "other" }]]))).toEqual([]);
    expect(differingFields(a, new Map([["body", { compare: "3 abd", shown: "kept" }]]))).toEqual(["body"]);
  });
});

describe("bodyDifference", () => {
  const body = (text: string, bytes = Buffer.byteLength(text, "latin1"), sha = sha256(text)): ObservedField => ({ compare: `${bytes} ${sha}`, shown: text });

  it("shows short bodies whole", () => {
    expect(bodyDifference(body("hello 2.2\n"), body("hello 2.4\n"))).toEqual({ baseline: "hello 2.2\n", candidate: "hello 2.4\n" });
  });

  it("shows a long body as a window around the first differing character: 80 before, 400 from it", () => {
    const before = "<p>".repeat(100);
    const a = body(`${before}old${"-".repeat(1000)}`);
    const b = body(`${before}new${"-".repeat(1000)}`);
    expect(bodyDifference(a, b)).toEqual({
      baseline: `…(from character 220) ${"<p>".repeat(100).slice(220)}old${"-".repeat(397)}…`,
      candidate: `…(from character 220) ${"<p>".repeat(100).slice(220)}new${"-".repeat(397)}…`,
    });
  });

  it("starts the window at the start when the first difference is near it", () => {
    const shown = bodyDifference(body(`x${"a".repeat(600)}`), body(`y${"a".repeat(600)}`));
    expect(shown.baseline).toBe(`x${"a".repeat(399)}…`);
    expect(shown.candidate).toBe(`y${"a".repeat(399)}…`);
  });

  it("shows lengths and digests when the kept text of both is the same (they differ past it)", () => {
    const kept = "x".repeat(100);
    expect(bodyDifference(body(kept, 70_000, "0123456789abcdef".repeat(4)), body(kept, 70_002, "fedcba9876543210".repeat(4)))).toEqual({
      baseline: "(the first 100 characters kept are the same; 70000 bytes, sha256 0123456789abcdef…)",
      candidate: "(the first 100 characters kept are the same; 70002 bytes, sha256 fedcba9876543210…)",
    });
  });

  it("shows the side that has a body when the other has none", () => {
    expect(bodyDifference(undefined, body("only here"))).toEqual({ baseline: null, candidate: "only here" });
  });
});
