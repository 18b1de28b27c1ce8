import { describe, expect, it } from "vitest";
import { accessFilePaths } from "../../../harness/rules/access-files.ts";
import { lintFiles } from "./lint-fixture.ts";

// 2.2 loads mod_authz_host (Order/Allow/Deny there); the 2.4 target has no mod_access_compat.
const HEAD = "Listen 80\nLoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule unixd_module modules/mod_unixd.so\nLoadModule authz_host_module modules/mod_authz_host.so\nLoadModule authz_core_module modules/mod_authz_core.so\n";

describe("lint reads per-directory files (.htaccess) as 2.4 does per request", () => {
  it("reports what 2.4 would not know there as behaviour (500 per request), with no include chain", async () => {
    const result = await lintFiles({
      "conf/httpd.conf": HEAD,
      "htdocs/private/.htaccess": "# members only\nOrder deny,allow\nDeny from all\n",
    });
    expect(result.findings.map((f) => [f.rule, f.severity, f.file, f.line])).toEqual([
      ["M2", "behaviour", "htdocs/private/.htaccess", 2],
      ["M2", "behaviour", "htdocs/private/.htaccess", 3],
    ]);
    expect(result.findings[0]!.message).toMatch(/^2\.4 answers 500 for requests under htdocs\/private\/ .*Invalid command 'Order'/);
    expect(result.findings[0]!.includeChain).toEqual([]);
    expect(result.files).toContain("htdocs/private/.htaccess");
  });

  it("leaves out what 2.2 refused as well (a 500 on both) and what 2.4 loads", async () => {
    const result = await lintFiles({
      "conf/httpd.conf": `${HEAD}LoadModule rewrite_module modules/mod_rewrite.so\n`,
      "htdocs/.htaccess": "BogusDirectiveXyz on\nRewriteEngine on\nRequire all granted\n",
    });
    expect(result.findings).toEqual([]);
  });

  it("reads the files AccessFileName names instead of .htaccess", async () => {
    const files = { "conf/httpd.conf": `${HEAD}AccessFileName .acl\n`, "htdocs/a/.acl": "Deny from all\n", "htdocs/b/.htaccess": "Deny from all\n" };
    const result = await lintFiles(files);
    expect(accessFilePaths(result.context)).toEqual(["htdocs/a/.acl"]);
    expect(result.findings.map((f) => f.file)).toEqual(["htdocs/a/.acl"]);
  });

  it("gives no finding for the 2.2 branch of a dual-syntax .htaccess", async () => {
    const result = await lintFiles({
      "conf/httpd.conf": HEAD,
      "htdocs/.htaccess": "<IfModule !mod_authz_core.c>\n  Order deny,allow\n  Deny from all\n</IfModule>\n",
    });
    expect(result.findings).toEqual([]);
  });

  it("a guard on a module both lines have is no 2.2 branch: its lines are found", async () => {
    const result = await lintFiles({ "conf/httpd.conf": HEAD, "htdocs/.htaccess": "<IfModule mod_authz_host.c>\nOrder deny,allow\n</IfModule>\n" });
    expect(result.findings.map((f) => [f.rule, f.line])).toEqual([["M2", 2]]);
  });
});

describe("per-directory rules' detect faces run on .htaccess files too", () => {
  it("finds a Require whose provider module 2.4 does not load, as behaviour", async () => {
    const result = await lintFiles({ "conf/httpd.conf": HEAD, "htdocs/team/.htaccess": "AuthType Basic\nRequire group staff\n" });
    expect(result.findings.map((f) => [f.rule, f.severity, f.file, f.line])).toEqual([
      ["M4", "behaviour", "htdocs/team/.htaccess", 1],
      ["X2", "behaviour", "htdocs/team/.htaccess", 2],
    ]);
    expect(result.findings[1]!.message).toMatch(/^2\.4 answers 500 for requests under htdocs\/team\/ .*: Unknown Authz provider: group/);
  });

  it("runs no tree-wide rule there (no MPM finding per .htaccess)", async () => {
    const result = await lintFiles({ "conf/httpd.conf": "LoadModule authz_core_module modules/mod_authz_core.so\n", "htdocs/.htaccess": "Require all granted\n" });
    expect(result.findings.filter((f) => f.file === "htdocs/.htaccess")).toEqual([]);
  });
});
