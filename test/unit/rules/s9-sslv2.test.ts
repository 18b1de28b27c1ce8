import { describe, expect, it } from "vitest";
import { S9 } from "../../../harness/rules/s9-sslv2.ts";
import { BODY_LINE, configTestEvidence, lintBody, of } from "./lint-fixture.ts";

describe("S9: SSLv2 is no longer supported", () => {
  it("finds SSLProtocol enabling SSLv2 (blocking) and the SSLv2 cipher keyword (deprecated), not 'all -SSLv2'", async () => {
    const result = await lintBody(
      ["LoadModule ssl_module modules/mod_ssl.so", "SSLProtocol +SSLv2 +TLSv1.2", "SSLProtocol all -SSLv2", "SSLProxyProtocol SSLv2", "SSLCipherSuite ALL:!ADH:RC4+RSA:+HIGH:+SSLv2"].join("\n"),
    );
    expect(of(result, "S9").map((f) => [f.line, f.severity, f.fix])).toEqual([
      [BODY_LINE + 1, "blocking", "SSLProtocol +TLSv1.2"],
      [BODY_LINE + 3, "blocking", "SSLProxyProtocol TLSv1.2"],
      [BODY_LINE + 4, "deprecated", "SSLCipherSuite ALL:!ADH:RC4+RSA:+HIGH"],
    ]);
  });

  it("an SSLv2-only cipher list matches nothing on 2.4: a start-up failure", async () => {
    const found = of(await lintBody("LoadModule ssl_module modules/mod_ssl.so\nSSLCipherSuite SSLv2:+HIGH"), "S9");
    expect(found.map((f) => [f.severity, f.fix])).toEqual([["blocking", "SSLCipherSuite HIGH:!aNULL:!MD5"]]);
    expect(found[0]!.message).toContain("AH01898");
    const started = configTestEvidence(["[Mon Nov 23 20:47:32.070392 2026] [ssl:emerg] [pid 13:tid 13] AH01898: Unable to configure permitted SSL ciphers"], "started");
    expect(S9.recognise!(started)?.summary).toContain("no cipher");
  });

  it("gives no finding inside <IfVersion < 2.3>", async () => {
    expect(of(await lintBody("LoadModule ssl_module modules/mod_ssl.so\n<IfVersion < 2.3>\nSSLProtocol +SSLv2\n</IfVersion>"), "S9")).toEqual([]);
  });

  it("recognises the recorded refusal", () => {
    expect(S9.recognise!(configTestEvidence(["AH00526: Syntax error on line 15 of /tmp/t.conf:", "SSLProtocol: SSLv2 is no longer supported"]))?.lines).toEqual([{ file: "/tmp/t.conf", line: 15 }]);
    // The 2.2 image's own refusal (OpenSSL without SSLv2) is no 2.4 evidence.
    expect(S9.recognise!(configTestEvidence(["Syntax error on line 15 of /tmp/t.conf:", "SSLv2 not supported by this version of OpenSSL"]))).toBeNull();
  });
});
