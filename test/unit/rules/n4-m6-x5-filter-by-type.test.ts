import { describe, expect, it } from "vitest";
import { N4 } from "../../../harness/rules/n4-m6-x5-filter-by-type.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("N4/M6/X5: AddOutputFilterByType needs mod_filter", () => {
  it("finds it without mod_filter and not with it", async () => {
    const without = of(await lintBody("LoadModule deflate_module modules/mod_deflate.so\nAddOutputFilterByType DEFLATE text/html"), "N4");
    expect(without.map((f) => [f.line, f.fix, f.seed])).toEqual([[BODY_LINE + 1, "LoadModule filter_module modules/mod_filter.so", ["N4", "M6", "X5"]]]);
    const withFilter = await lintBody("LoadModule filter_module modules/mod_filter.so\nLoadModule deflate_module modules/mod_deflate.so\nAddOutputFilterByType DEFLATE text/html");
    expect(withFilter.findings).toEqual([]);
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
