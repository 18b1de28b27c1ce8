import { describe, expect, it } from "vitest";
import { rfc2253, S8 } from "../../../harness/rules/s8-dn-format.ts";
import { evidence, linesOf } from "./rule-harness.ts";

const ssl = "LoadModule ssl_module modules/mod_ssl.so\nLoadModule headers_module modules/mod_headers.so\n";

describe("S8 *_DN format", () => {
  it("turns 2.2's oneline DN into 2.4's RFC 2253 form (ssl-dn-format-default)", () => {
    expect(rfc2253("/C=DE/O=Example, Inc./OU=Web/CN=server.test")).toBe("CN=server.test,OU=Web,O=Example\\, Inc.,C=DE");
    expect(rfc2253("/CN=client-valid")).toBe("CN=client-valid");
  });

  it("finds lines that read a *_DN variable and SSLOptions that export it, not the _DN_CN parts", () => {
    const text = `${ssl}Header set X-DN "%{SSL_CLIENT_S_DN}s"\nHeader set X-CN "%{SSL_CLIENT_S_DN_CN}s"\nSSLOptions +StdEnvVars\nSSLOptions +FakeBasicAuth\n`;
    expect(linesOf(S8, text).map((finding) => finding.line)).toEqual([3, 5, 6]);
    expect(linesOf(S8, `${text}SSLOptions +LegacyDNStringFormat\n`)).toEqual([]);
  });

  it("claims the same names in the other form, not other names", () => {
    const header = { field: "header:x-server-s-dn", baseline: "/C=DE/O=Example, Inc./OU=Web/CN=server.test", candidate: "CN=server.test,OU=Web,O=Example\\, Inc.,C=DE" };
    expect(S8.recognise!(evidence(header))).not.toBeNull();
    expect(S8.recognise!(evidence({ ...header, candidate: "CN=other.test,OU=Web,O=Example\\, Inc.,C=DE" }))).toBeNull();
    const ssi = { field: "body", baseline: "S_DN=/CN=client-valid\nI_DN=/CN=test CA\n", candidate: "S_DN=CN=client-valid\nI_DN=CN=test CA\n" };
    expect(S8.recognise!(evidence(ssi))).not.toBeNull();
  });
});
