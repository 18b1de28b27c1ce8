import { describe, expect, it } from "vitest";
import { R8 } from "../../../harness/rules/r8-debuglevel-option.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("R8: the DebugLevel option is removed", () => {
  it("finds DebugLevel in CharsetOptions and ExtFilterOptions and keeps the other options in the fix", async () => {
    const result = await lintBody(
      ["LoadModule charset_lite_module modules/mod_charset_lite.so", "LoadModule ext_filter_module modules/mod_ext_filter.so", "<Directory /x>", "CharsetOptions DebugLevel=4 ImplicitAdd", "ExtFilterOptions DebugLevel=1", "CharsetOptions NoImplicitAdd", "</Directory>"].join("\n"),
    );
    const found = of(result, "R8");
    expect(found.map((f) => f.line)).toEqual([BODY_LINE + 3, BODY_LINE + 4]);
    expect(found[0]!.message).toContain("Invalid CharsetOptions option: DebugLevel=4");
    expect(found[0]!.fix).toMatch(/^CharsetOptions ImplicitAdd\nLogLevel charset_lite:trace1/);
    expect(found[1]!.fix).toContain("LogLevel ext_filter:");
    expect(result.findings.filter((f) => f.rule !== "R8")).toEqual([]);
  });

  it("gives no finding inside <IfVersion < 2.3>", async () => {
    expect(of(await lintBody("LoadModule ext_filter_module modules/mod_ext_filter.so\n<IfVersion < 2.3>\nExtFilterOptions DebugLevel=1\n</IfVersion>"), "R8")).toEqual([]);
  });

  it("recognises the recorded messages of both modules", () => {
    const charset = configTestEvidence(["AH00526: Syntax error on line 20 of /usr/local/apache2/conf/httpd.conf:", "Invalid CharsetOptions option: DebugLevel=4"]);
    expect(R8.recognise!(charset)).toEqual({ summary: expect.stringContaining("CharsetOptions DebugLevel=4"), lines: [{ file: "/usr/local/apache2/conf/httpd.conf", line: 20 }] });
    expect(R8.recognise!(configTestEvidence(["AH00526: Syntax error on line 2 of /x:", "Invalid ExtFilterOptions option: DebugLevel=1"]))).not.toBeNull();
    expect(R8.recognise!(configTestEvidence(["AH00526: Syntax error on line 2 of /x:", "Invalid ExtFilterOptions option: LogStderr=1"]))).toBeNull();
  });
});
