import { describe, expect, it } from "vitest";
import { M5 } from "../../../harness/rules/m5-x1-unixd.ts";
import { configTestEvidence, lintFiles, of } from "./lint-fixture.ts";

const HEAD = "Listen 80\nLoadModule mpm_prefork_module modules/mod_mpm_prefork.so\n";

describe("M5/X1: User and Group need mod_unixd", () => {
  it("finds User and Group in a tree that does not load mod_unixd, not in one that does", async () => {
    const found = of(await lintFiles({ "conf/httpd.conf": `${HEAD}User daemon\nGroup daemon\n` }), "M5");
    expect(found.map((f) => [f.line, f.fix])).toEqual([
      [3, "LoadModule unixd_module modules/mod_unixd.so"],
      [4, "LoadModule unixd_module modules/mod_unixd.so"],
    ]);
    expect((await lintFiles({ "conf/httpd.conf": `${HEAD}LoadModule unixd_module modules/mod_unixd.so\nUser daemon\n` })).findings).toEqual([]);
  });

  it("says nothing on Debian's 2.4, which has mod_unixd compiled in", async () => {
    const result = await lintFiles({ "conf/httpd.conf": `${HEAD}User daemon\n` }, "debian");
    expect(of(result, "M5")).toEqual([]);
  });

  it("gives no finding inside <IfModule !mod_unixd.c>", async () => {
    expect(of(await lintFiles({ "conf/httpd.conf": `${HEAD}<IfModule !mod_unixd.c>\nUser daemon\n</IfModule>\n` }), "M5")).toEqual([]);
  });

  it("recognises Invalid command 'User'", () => {
    const claim = M5.recognise!(configTestEvidence(["AH00526: Syntax error on line 3 of /usr/local/apache2/conf/httpd.conf:", "Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration"]));
    expect(claim).toEqual({ summary: expect.stringContaining("mod_unixd"), lines: [{ file: "/usr/local/apache2/conf/httpd.conf", line: 3 }] });
    expect(M5.recognise!(configTestEvidence(["Invalid command 'UserDir', perhaps misspelled"]))).toBeNull();
  });
});
