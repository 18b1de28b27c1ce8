import { describe, expect, it } from "vitest";
import { S7 } from "../../../harness/rules/s7-crl-check.ts";
import { evidence, linesOf, records, serverEvidence } from "./rule-harness.ts";

const ssl = "LoadModule ssl_module modules/mod_ssl.so\nLoadModule headers_module modules/mod_headers.so\n";

describe("S7 CRL checking", () => {
  it("finds a CRL without SSLCARevocationCheck as a security finding, per server", () => {
    const text = `${ssl}SSLCARevocationFile conf/ca.crl\n<VirtualHost *:443>\n    SSLCARevocationPath conf/crl\n    SSLCARevocationCheck chain\n</VirtualHost>\n`;
    expect(linesOf(S7, text)).toEqual([{ line: 3, severity: "security" }]);
    expect(linesOf(S7, `${ssl}SSLCARevocationFile conf/ca.crl\nSSLCARevocationCheck none\n`)).toEqual([{ line: 3, severity: "security" }]);
  });

  it("claims AH01902 at start-up, and a revoked certificate 2.2 refused and 2.4 accepted", () => {
    const warned = records("2.4", "[Sat Nov 21 22:41:24.568687 2026] [ssl:warn] [pid 1:tid 1] AH01902: X.509 CRL storage locations configured, but CRL checking (SSLCARevocationCheck) is not enabled");
    expect(S7.recognise!(serverEvidence("startupLog", warned))).not.toBeNull();
    const refused22 = records("2.2", "[Sat Nov 21 22:41:17 2026] [error] Certificate Verification: Error (23): certificate revoked");
    const accepted = { field: "outcome", baseline: "transport-error ERR_SSL", candidate: "response", log: { baseline: refused22, candidate: [] } };
    expect(S7.recognise!(evidence(accepted))).not.toBeNull();
    expect(S7.recognise!(evidence({ ...accepted, log: { baseline: refused22, candidate: records("2.4", "[Sat Nov 21 22:41:24.568687 2026] [ssl:error] [pid 1:tid 1] AH02039: Certificate Verification: Error (23): certificate revoked") } }))).toBeNull();
  });
});
