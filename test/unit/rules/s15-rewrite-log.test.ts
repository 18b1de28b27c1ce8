import { describe, expect, it } from "vitest";
import { rewriteTraceLevel, S15 } from "../../../harness/rules/s15-rewrite-log.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("S15: RewriteLog and RewriteLogLevel are removed", () => {
  it("finds both with mod_rewrite loaded; RewriteLogLevel's fix is the LogLevel line", async () => {
    const result = await lintBody("LoadModule rewrite_module modules/mod_rewrite.so\nRewriteEngine on\nRewriteLog logs/rewrite.log\nRewriteLogLevel 3");
    expect(result.findings.map((f) => [f.rule, f.line])).toEqual([
      ["S15", BODY_LINE + 2],
      ["S15", BODY_LINE + 3],
    ]);
    expect(of(result, "S15")[1]!.fix).toBe("LogLevel rewrite:trace3");
  });

  it("maps levels to trace1..trace8; 0 is no logging", () => {
    expect(["0", "1", "9", "x"].map(rewriteTraceLevel)).toEqual([null, "LogLevel rewrite:trace1", "LogLevel rewrite:trace8", null]);
  });

  it("gives no finding inside <IfVersion < 2.3>", async () => {
    expect((await lintBody("LoadModule rewrite_module modules/mod_rewrite.so\n<IfVersion < 2.3>\nRewriteLogLevel 3\n</IfVersion>")).findings).toEqual([]);
  });

  it("recognises the recorded refusal", () => {
    expect(S15.recognise!(configTestEvidence(["AH00526: Syntax error on line 3 of /tmp/t.conf:", "Invalid command 'RewriteLog', perhaps misspelled or defined by a module not included in the server configuration"]))?.summary).toContain("rewrite:trace");
    expect(S15.recognise!(configTestEvidence(["AH00526: Syntax error on line 3 of /tmp/t.conf:", "Invalid command 'RewriteLock', perhaps misspelled"]))).toBeNull();
  });
});
