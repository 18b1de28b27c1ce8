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

  it("finds a tree with no User or Group that does not load mod_unixd, once, at its last LoadModule", async () => {
    const found = of(await lintFiles({ "conf/httpd.conf": `${HEAD}LoadModule mime_module modules/mod_mime.so\nServerName x\n` }), "M5");
    expect(found.map((f) => [f.line, f.severity, f.fix])).toEqual([[3, "blocking", "LoadModule unixd_module modules/mod_unixd.so"]]);
    expect(found[0]!.message).toContain("AH00136");
    expect(of(await lintFiles({ "conf/httpd.conf": `${HEAD}LoadModule unixd_module modules/mod_unixd.so\nServerName x\n` }), "M5")).toEqual([]);
    expect(of(await lintFiles({ "conf/httpd.conf": `${HEAD}ServerName x\n` }, "debian"), "M5")).toEqual([]);
    // A fragment runs inside the target's stock config, which loads mod_unixd.
    expect(of(await lintFiles({ "site.conf": "<VirtualHost *:80>\nServerName a\n</VirtualHost>\n" }), "M5")).toEqual([]);
  });

  it("recognises 2.4 exiting at start-up without mod_unixd (AH00136, recorded on 2.4.68 started as root)", () => {
    const line =
      "[Mon Dec 07 15:37:00.626147 2026] [core:crit] [pid 9:tid 9] AH00136: Server MUST relinquish startup privileges before accepting connections.  Please ensure mod_unixd or other system security module is loaded.";
    expect(M5.recognise!(configTestEvidence([line, "AH00016: Configuration Failed"], "started"))).toEqual({ summary: expect.stringContaining("AH00136") });
  });

  it("recognises Invalid command 'User'", () => {
    const claim = M5.recognise!(configTestEvidence(["AH00526: Syntax error on line 3 of /usr/local/apache2/conf/httpd.conf:", "Invalid command 'User', perhaps misspelled or defined by a module not included in the server configuration"]));
    expect(claim).toEqual({ summary: expect.stringContaining("mod_unixd"), lines: [{ file: "/usr/local/apache2/conf/httpd.conf", line: 3 }] });
    expect(M5.recognise!(configTestEvidence(["Invalid command 'UserDir', perhaps misspelled"]))).toBeNull();
  });
});
