import { describe, expect, it } from "vitest";
import { S4 } from "../../../harness/rules/s4-ldap-trusted-client-cert.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("S4: LDAPTrustedClientCert only per directory", () => {
  it("finds it in the server context and in a virtual host, not in a Location", async () => {
    const result = await lintBody(
      ["LoadModule ldap_module modules/mod_ldap.so", "LDAPTrustedClientCert CERT_BASE64 conf/ca.crt", "<VirtualHost *:80>", "  LDAPTrustedClientCert CERT_BASE64 conf/ca.crt", "  <Location /x>", "    LDAPTrustedClientCert CERT_BASE64 conf/ca.crt", "  </Location>", "</VirtualHost>"].join("\n"),
    );
    expect(of(result, "S4").map((f) => f.line)).toEqual([BODY_LINE + 1, BODY_LINE + 3]);
    expect(of(result, "S4")[0]!.fix).toContain("<Location");
  });

  it("gives no finding inside <IfVersion < 2.3>", async () => {
    expect(of(await lintBody("LoadModule ldap_module modules/mod_ldap.so\n<IfVersion < 2.3>\nLDAPTrustedClientCert CERT_BASE64 conf/ca.crt\n</IfVersion>"), "S4")).toEqual([]);
  });

  it("recognises 'not allowed here'", () => {
    expect(S4.recognise!(configTestEvidence(["AH00526: Syntax error on line 15 of /tmp/t.conf:", "LDAPTrustedClientCert not allowed here"]))?.lines).toEqual([{ file: "/tmp/t.conf", line: 15 }]);
    expect(S4.recognise!(configTestEvidence(["AH00526: Syntax error on line 15 of /tmp/t.conf:", "Invalid global certificate file path"]))).toBeNull();
  });
});
