import { describe, expect, it } from "vitest";
import { X2 } from "../../../harness/rules/x2-require-authz-provider.ts";
import { BODY_LINE, configTestEvidence, lintBody, lintFiles, of } from "./lint-fixture.ts";

describe("X2: Require needs mod_authz_core and its provider's module", () => {
  it("finds each Require whose provider module 2.4 does not load, with that module as fix", async () => {
    const result = await lintBody(
      ["LoadModule authz_user_module modules/mod_authz_user.so", "<Directory /x>", "  Require valid-user", "  Require group admins", "  Require not ip 10.1.1.1", "  Require all granted", "</Directory>"].join("\n"),
    );
    const found = of(result, "X2");
    expect(found.map((f) => [f.line, f.fix])).toEqual([
      [BODY_LINE + 3, "LoadModule authz_groupfile_module modules/mod_authz_groupfile.so"],
      [BODY_LINE + 4, "LoadModule authz_host_module modules/mod_authz_host.so"],
    ]);
    expect(found[0]!.message).toContain("Unknown Authz provider: group");
  });

  it("owns Require as an invalid command where mod_authz_core is not loaded", async () => {
    const result = await lintFiles({ "conf/httpd.conf": "Listen 80\nLoadModule mpm_prefork_module modules/mod_mpm_prefork.so\n<Directory /x>\nRequire valid-user\n</Directory>\n" });
    expect(of(result, "X2").map((f) => [f.line, f.message.includes("Invalid command 'Require'")])).toEqual([[4, true]]);
  });

  it("gives no finding inside <IfVersion < 2.3>", async () => {
    expect((await lintBody("<Directory /x>\n<IfVersion < 2.3>\nRequire group admins\n</IfVersion>\n</Directory>")).findings).toEqual([]);
  });

  it("recognises 'Unknown Authz provider' and Invalid command 'Require'", () => {
    const provider = X2.recognise!(configTestEvidence(["AH00526: Syntax error on line 15 of /tmp/t.conf:", "Unknown Authz provider: valid-user"]));
    expect(provider).toEqual({ summary: expect.stringContaining("mod_authz_user"), lines: [{ file: "/tmp/t.conf", line: 15 }] });
    const invalid = X2.recognise!(configTestEvidence(["AH00526: Syntax error on line 9 of /tmp/t.conf:", "Invalid command 'Require', perhaps misspelled or defined by a module not included in the server configuration"]));
    expect(invalid?.summary).toContain("mod_authz_core");
    expect(X2.recognise!(configTestEvidence(["Syntax OK"]))).toBeNull();
  });
});
