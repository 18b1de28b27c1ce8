import { describe, expect, it } from "vitest";
import { R7 } from "../../../harness/rules/r7-dumpio-loglevel.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("R7: DumpIOLogLevel is removed", () => {
  it("finds it with mod_dumpio loaded and gives LogLevel dumpio:trace7 as fix", async () => {
    const result = await lintBody("LoadModule dumpio_module modules/mod_dumpio.so\nDumpIOInput On\nDumpIOLogLevel debug");
    expect(result.findings.map((f) => [f.rule, f.line, f.fix])).toEqual([["R7", BODY_LINE + 2, "LogLevel dumpio:trace7"]]);
  });

  it("gives no finding inside <IfVersion < 2.3>", async () => {
    expect(of(await lintBody("LoadModule dumpio_module modules/mod_dumpio.so\n<IfVersion < 2.3>\nDumpIOLogLevel debug\n</IfVersion>"), "R7")).toEqual([]);
  });

  it("recognises Invalid command 'DumpIOLogLevel'", () => {
    expect(R7.recognise!(configTestEvidence(["AH00526: Syntax error on line 15 of /tmp/t.conf:", "Invalid command 'DumpIOLogLevel', perhaps misspelled or defined by a module not included in the server configuration"]))?.summary).toContain("dumpio:trace7");
    expect(R7.recognise!(configTestEvidence(["AH00526: Syntax error on line 15 of /tmp/t.conf:", "Invalid command 'DumpIOInput', perhaps misspelled"]))).toBeNull();
  });
});
