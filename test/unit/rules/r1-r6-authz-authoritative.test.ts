import { describe, expect, it } from "vitest";
import { AUTHZ_AUTHORITATIVE_RULES } from "../../../harness/rules/r1-r6-authz-authoritative.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("R1-R6: the Authz*Authoritative directives are removed", () => {
  it("is one rule per seed row", () => {
    expect(AUTHZ_AUTHORITATIVE_RULES.map((rule) => rule.seed)).toEqual([["R1"], ["R2"], ["R3"], ["R4"], ["R5"], ["R6"]]);
  });

  it("credits each directive to its own row, even with its module loaded", async () => {
    const names = ["AuthzLDAPAuthoritative", "AuthzDBDAuthoritative", "AuthzDBMAuthoritative", "AuthzGroupFileAuthoritative", "AuthzUserAuthoritative", "AuthzOwnerAuthoritative"];
    const result = await lintBody(["LoadModule authz_user_module modules/mod_authz_user.so", "<Directory /x>", ...names.map((name) => `${name} Off`), "</Directory>"].join("\n"));
    expect(result.findings.map((f) => [f.rule, f.line])).toEqual(names.map((_, index) => [`R${index + 1}`, BODY_LINE + 2 + index]));
    expect(of(result, "R5")[0]!.fix).toContain("<RequireAny>");
    expect(of(result, "R5")[0]!.message).toContain("2.4 removed it");
    // Recorded: 2.2.34 never had AuthzDBDAuthoritative.
    expect(of(result, "R2")[0]!.message).toContain("2.2 refuses it too");
  });

  it("gives no finding inside <IfVersion < 2.3>", async () => {
    expect((await lintBody("<Directory /x>\n<IfVersion < 2.3>\nAuthzUserAuthoritative Off\n</IfVersion>\n</Directory>")).findings).toEqual([]);
  });

  it("each recognises its own directive only", () => {
    const evidence = configTestEvidence(["AH00526: Syntax error on line 19 of /usr/local/apache2/conf/httpd.conf:", "Invalid command 'AuthzLDAPAuthoritative', perhaps misspelled or defined by a module not included in the server configuration"]);
    expect(AUTHZ_AUTHORITATIVE_RULES.map((rule) => rule.recognise!(evidence) !== null)).toEqual([true, false, false, false, false, false]);
    expect(AUTHZ_AUTHORITATIVE_RULES[0]!.recognise!(evidence)?.lines).toEqual([{ file: "/usr/local/apache2/conf/httpd.conf", line: 19 }]);
  });
});
