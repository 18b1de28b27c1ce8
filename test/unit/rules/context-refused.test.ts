// Lines 2.4 refuses where they are written, from the contexts real 2.4.62 lists (httpd -L): found by the context
// pass, credited to a row rule that words its own directive (S4), and not reported where 2.2 refused the line too.
import { describe, expect, it } from "vitest";
import { CONTEXT_REFUSED } from "../../../harness/rules/context-refused.ts";
import { CONTEXTS, placeOf } from "../../../harness/rules/context-knowledge.ts";
import { BODY_LINE, configTestEvidence, lintBody, lintFiles, of } from "./lint-fixture.ts";

describe("context-refused: a directive 2.4 does not allow where it is written", () => {
  it("finds <Limit> at server level, which 2.2 takes and 2.4 refuses (recorded on 2.2.34 and 2.4.68)", async () => {
    const found = of(await lintBody(["<Limit GET>", "</Limit>"].join("\n")), "context-refused");
    expect(found.map((f) => [f.line, f.severity])).toEqual([[BODY_LINE, "blocking"]]);
    expect(found[0]!.message).toContain("<Limit not allowed here");
  });

  it("takes <Limit> inside a per-directory section, and a <Proxy> section as one", async () => {
    const body = ["<Directory /srv>", "<Limit GET>", "Require all granted", "</Limit>", "</Directory>", "LoadModule proxy_module modules/mod_proxy.so", "<Proxy *>", "<Limit POST>", "Require all denied", "</Limit>", "</Proxy>"];
    expect(of(await lintBody(body.join("\n")), "context-refused")).toEqual([]);
  });

  it("finds a per-directory directive of a loaded module at server level, not Listen inside <Directory> (2.2 refused it too)", async () => {
    const result = await lintBody(["LoadModule dav_module modules/mod_dav.so", "DAV On", "<Directory /srv>", "    Listen 8080", "</Directory>"].join("\n"));
    const found = of(result, "context-refused");
    expect(found.map((f) => f.line)).toEqual([BODY_LINE + 1]);
    expect(found[0]!.fix).toContain("into each <Directory>");
  });

  it("reads an .htaccess given alone as httpd reads it, per request in its directory, not as server config", async () => {
    const text = ["AuthUserFile /dev/null", "AuthType Basic", 'AuthName "admin"', "<Limit GET>", "Order Deny,Allow", "Deny from all", "Allow from 192.0.2.10", "</Limit>", ""].join("\n");
    const alone = await lintFiles({ ".htaccess": text });
    expect(of(alone, "context-refused")).toEqual([]);
    expect(of(alone, "order-allow-deny-to-require").map((f) => f.line)).toEqual([5]);
    // The same lines as a site file are server config: 2.4 refuses <Limit> there (2.2 took it).
    expect(of(await lintFiles({ "site.conf": text }), "context-refused").map((f) => f.line)).toContain(4);
  });

  it("leaves a line 2.2 refused at the same place too (Require at server level)", async () => {
    expect(CONTEXTS["2.2"].refuses("require", "server")).toBe(true);
    expect(of(await lintBody("Require all granted"), "context-refused")).toEqual([]);
  });

  it("leaves a directive of a module the target does not load to the invalid-command pass", async () => {
    const result = await lintBody("DAV On");
    expect(of(result, "context-refused")).toEqual([]);
    expect(of(result, "B4").map((f) => f.line)).toEqual([BODY_LINE]);
  });

  it("credits LDAPTrustedClientCert to S4, in S4's words", async () => {
    const result = await lintBody(["LoadModule ldap_module modules/mod_ldap.so", "LDAPTrustedClientCert CERT_BASE64 conf/ca.crt"].join("\n"));
    expect(of(result, "context-refused")).toEqual([]);
    expect(of(result, "S4").map((f) => f.line)).toEqual([BODY_LINE + 1]);
  });

  it("refuses nothing inside <Proxy>, where -L does not show what a module allows there (SSLProxy* since 2.4.30)", async () => {
    const body = ["LoadModule proxy_module modules/mod_proxy.so", "LoadModule ssl_module modules/mod_ssl.so", "<Proxy https://backend/>", "SSLProxyCheckPeerName off", "</Proxy>"];
    expect(of(await lintBody(body.join("\n")), "context-refused")).toEqual([]);
  });

  it("reads places from the enclosing sections", () => {
    expect(placeOf([{ key: "virtualhost" }, { key: "limit" }])).toBe("server");
    expect(placeOf([{ key: "virtualhost" }, { key: "location" }, { key: "limit" }])).toBe("directory");
    expect(placeOf([{ key: "proxymatch" }])).toBe("proxy");
  });

  it("recognises 2.4's refusal", () => {
    const evidence = configTestEvidence(["AH00526: Syntax error on line 552 of /usr/local/apache2/conf/httpd.conf:", "<Limit not allowed here"]);
    expect(CONTEXT_REFUSED.recognise!(evidence)).toEqual({ summary: expect.stringContaining("<Limit"), lines: [{ file: "/usr/local/apache2/conf/httpd.conf", line: 552 }] });
  });
});
