import { describe, expect, it } from "vitest";
import { N3 } from "../../../harness/rules/n3-authn-alias.ts";
import { BODY_LINE, configTestEvidence, lintFiles, lintBody, of } from "./lint-fixture.ts";

describe("N3: AuthnProviderAlias is in mod_authn_core", () => {
  it("claims the LoadModule of mod_authn_alias.so", async () => {
    const found = of(await lintBody("LoadModule authn_alias_module modules/mod_authn_alias.so"), "N3");
    expect(found.map((f) => [f.line, f.fix])).toEqual([[BODY_LINE, "LoadModule authn_core_module modules/mod_authn_core.so"]]);
  });

  it("claims <AuthnProviderAlias> in a tree without mod_authn_core, before the rule that owns authn_core's other directives", async () => {
    const result = await lintFiles({
      "conf/httpd.conf": "Listen 80\nLoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule authn_file_module modules/mod_authn_file.so\n<AuthnProviderAlias file f1>\n  AuthUserFile conf/passwd\n</AuthnProviderAlias>\n",
    });
    expect(result.findings.filter((f) => f.line === 4).map((f) => f.rule)).toEqual(["N3"]);
    expect(of(result, "N3")[0]!.message).toContain("'<AuthnProviderAlias'");
  });

  it("recognises the recorded Cannot load line", () => {
    const claim = N3.recognise!(
      configTestEvidence(["httpd: Syntax error on line 24 of /usr/local/apache2/conf/httpd.conf: Cannot load modules/mod_authn_alias.so into server: /usr/local/apache2/modules/mod_authn_alias.so: cannot open shared object file: No such file or directory"]),
    );
    expect(claim?.lines).toEqual([{ file: "/usr/local/apache2/conf/httpd.conf", line: 24 }]);
    expect(N3.recognise!(configTestEvidence(["AH00526: Syntax error on line 13 of /tmp/t.conf:", "Invalid command '<AuthnProviderAlias', perhaps misspelled or defined by a module not included in the server configuration"]))).not.toBeNull();
    expect(N3.recognise!(configTestEvidence(["httpd: Syntax error on line 2 of /tmp/t.conf: Cannot load modules/mod_disk_cache.so into server: x"]))).toBeNull();
  });
});
