import { describe, expect, it } from "vitest";
import { N4 } from "../../../harness/rules/n4-m6-x5-filter-by-type.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("N4/M6/X5: AddOutputFilterByType needs mod_filter", () => {
  it("finds it without mod_filter and not with it", async () => {
    const without = of(await lintBody("LoadModule deflate_module modules/mod_deflate.so\nAddOutputFilterByType DEFLATE text/html"), "N4");
    expect(without.map((f) => [f.line, f.fix, f.seed])).toEqual([[BODY_LINE + 1, "LoadModule filter_module modules/mod_filter.so", ["N4", "M6", "X5"]]]);
    const withFilter = await lintBody("LoadModule filter_module modules/mod_filter.so\nLoadModule deflate_module modules/mod_deflate.so\nAddOutputFilterByType DEFLATE text/html");
    expect(of(withFilter, "N4")).toEqual([]);
  });

  it("gives no finding in <IfVersion < 2.3>", async () => {
    expect((await lintBody("<IfVersion < 2.3>\nAddOutputFilterByType DEFLATE text/html\n</IfVersion>")).findings).toEqual([]);
  });

  it("recognises the recorded invalid command", () => {
    const claim = N4.recognise!(configTestEvidence(["AH00526: Syntax error on line 14 of /tmp/t.conf:", "Invalid command 'AddOutputFilterByType', perhaps misspelled or defined by a module not included in the server configuration"]));
    expect(claim).toEqual({ summary: expect.stringContaining("mod_filter"), lines: [{ file: "/tmp/t.conf", line: 14 }] });
    expect(N4.recognise!({ ...configTestEvidence(["Invalid command 'AddOutputFilterByType'"]), field: "status" })).toBeNull();
  });
});

describe("N4: with mod_filter, every filter AddOutputFilterByType names needs its module", () => {
  it("finds a filter whose module 2.4 does not load, not one the config declares itself", async () => {
    const result = await lintBody(
      [
        "LoadModule filter_module modules/mod_filter.so",
        "LoadModule deflate_module modules/mod_deflate.so",
        "AddOutputFilterByType DEFLATE text/html",
        "AddOutputFilterByType INCLUDES;DEFLATE text/plain",
        "FilterDeclare SUBSTITUTE",
        "AddOutputFilterByType SUBSTITUTE text/css",
        "AddOutputFilterByType MYFILTER text/xml",
      ].join("\n"),
    );
    expect(of(result, "N4").map((f) => [f.line, f.fix])).toEqual([[BODY_LINE + 3, "LoadModule include_module modules/mod_include.so"]]);
    expect(of(result, "N4")[0]!.message).toContain("Unknown filter provider INCLUDES");
  });

  it("recognises the recorded 'Unknown filter provider'", () => {
    const claim = N4.recognise!(configTestEvidence(["AH00526: Syntax error on line 12 of /usr/local/apache2/conf/httpd.conf:", "Unknown filter provider DEFLATE"]));
    expect(claim?.summary).toContain("DEFLATE");
  });
});
