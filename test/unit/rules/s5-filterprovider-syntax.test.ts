import { describe, expect, it } from "vitest";
import { filterExpression, S5 } from "../../../harness/rules/s5-filterprovider-syntax.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("S5: FilterProvider takes an expression", () => {
  it("finds the four-word 2.2 form and writes the expression form", async () => {
    const result = await lintBody(
      ["LoadModule filter_module modules/mod_filter.so", "FilterDeclare compress", "FilterProvider compress DEFLATE resp=Content-Type $text/html", 'FilterProvider compress DEFLATE "%{CONTENT_TYPE} =~ m#^text/#"'].join("\n"),
    );
    const found = of(result, "S5");
    expect(found.map((f) => [f.line, f.fix])).toEqual([[BODY_LINE + 2, 'FilterProvider compress DEFLATE "%{CONTENT_TYPE} =~ m#text/html#"']]);
  });

  it("translates the plain dispatch and match forms, and gives up on others", () => {
    expect(filterExpression("resp=Content-Type", "/^text\\//")).toBe("%{CONTENT_TYPE} =~ /^text\\//");
    expect(filterExpression("req=Accept-Encoding", "$gzip")).toBe("req('Accept-Encoding') =~ m#gzip#");
    expect(filterExpression("env=NOZIP", "!*")).toBe("!(-n reqenv('NOZIP'))");
    expect(filterExpression("handler", "=server-status")).toBe("%{HANDLER} == 'server-status'");
    expect(filterExpression("resp=Content-Length", "<1000")).toBeNull();
  });

  it("gives no finding inside <IfVersion < 2.3>", async () => {
    expect(of(await lintBody("LoadModule filter_module modules/mod_filter.so\n<IfVersion < 2.3>\nFilterProvider c DEFLATE resp=Content-Type $text/html\n</IfVersion>"), "S5")).toEqual([]);
  });

  it("recognises the recorded refusal", () => {
    expect(S5.recognise!(configTestEvidence(["AH00526: Syntax error on line 16 of /tmp/t.conf:", "FilterProvider takes three arguments, filter-name provider-name match-expression"]))?.lines).toEqual([{ file: "/tmp/t.conf", line: 16 }]);
    expect(S5.recognise!(configTestEvidence(["AH00526: Syntax error on line 16 of /tmp/t.conf:", "FilterChain takes one argument"]))).toBeNull();
  });
});
