// S7: 2.4 checks client certificates against CRLs only when SSLCARevocationCheck says so (default none); 2.2
// checked as soon as SSLCARevocationFile or SSLCARevocationPath named a CRL. Such a tree refuses a revoked
// client certificate on 2.2 ("Certificate Verification: Error (23): certificate revoked") and accepts it on 2.4,
// which warns once at start-up instead (AH01902) (client-cert-crl-file-no-check). 2.2 does not know the
// directive, so a shared config needs it in a 2.4 branch (client-cert-revocation-check-shared-conf).
import { enclosingVirtualHost, serverDirectives } from "../conf/queries/walk-config.ts";
import { detection, named } from "./detection.ts";
import type { Rule } from "./rule.ts";

const REVOKED = /certificate revoked/;

const SAMPLE_CRL = `-----BEGIN X509 CRL-----
MIIBczBdAgEBMA0GCSqGSIb3DQEBCwUAMBkxFzAVBgNVBAMMDnJ1bGUgc2FtcGxl
IENBFw0yNjExMjMyMDQ4NDhaGA8yMTI2MTAzMDIwNDg0OFqgDjAMMAoGA1UdFAQD
AgEBMA0GCSqGSIb3DQEBCwUAA4IBAQACuiXZ++JFDctRQ/WKLjEgSjQhngn3r2cr
teZMd42he0wg+AWrGdbJm8WQU2RbQaMwkdunDHUVjaYepV+DXm5kLtKstPMMjsD6
LtHxicHfhbV0hpZO0mxAD0/1CyufpAO0gsXtJQH41oCYSa7wV1dArfahYGkX6prv
qp1V4mx6lviz/TtHKav9AGLlbUqBjNTDPvSgPd9nlxiWF2EHFGui582DmeSH4i/E
a/HI+VdfwgxGtE4LFCdD9aZtOT0XEXgCvmnDgjUVrulm5mGFB18Cm1RYDijq/qwJ
03+L/XwHUORXq+IAqKv5dtlTsWAW9LhEdGFdilBzPSjZfYgYXsp7
-----END X509 CRL-----
`;

export const S7: Rule = {
  id: "S7",
  seed: ["S7"],
  title: "CRL checking happens on 2.4 only with SSLCARevocationCheck: revoked client certificates are accepted",
  severity: "security",
  security: true,
  detect: (context) => {
    const config = context.target;
    const checked = (vhost: ReturnType<typeof enclosingVirtualHost>): boolean => {
      const line = serverDirectives(config, vhost, "sslcarevocationcheck").at(-1) ?? (vhost ? serverDirectives(config, null, "sslcarevocationcheck").at(-1) : undefined);
      return line !== undefined && (line.directive.args[0] ?? "none").toLowerCase() !== "none";
    };
    return named(config, "SSLCARevocationFile", "SSLCARevocationPath")
      .filter((entry) => !checked(enclosingVirtualHost(entry.sections)))
      .map((entry) =>
        detection(
          entry,
          `2.2 refused client certificates on the CRL named here; 2.4 does not check it without SSLCARevocationCheck (default none): a revoked certificate is accepted (AH01902 at start-up)`,
          "<IfVersion >= 2.4>\n    SSLCARevocationCheck chain\n</IfVersion>",
        ),
      );
  },
  recognise: (evidence) => {
    if (["startupLog", "configTest", "started"].includes(evidence.field) && evidence.log.candidate.some((record) => record.code === "AH01902")) {
      return { summary: "2.4 has CRLs configured but does not check them (AH01902: SSLCARevocationCheck not enabled)" };
    }
    if (!["status", "outcome", "errorLog"].includes(evidence.field)) return null;
    const refused22 = evidence.log.baseline.some((record) => REVOKED.test(record.message));
    const refused24 = evidence.log.candidate.some((record) => REVOKED.test(record.message));
    return refused22 && !refused24 ? { summary: "2.2 refused a revoked client certificate (CRL); 2.4 accepts it: SSLCARevocationCheck is not set" } : null;
  },
  fix: "Add SSLCARevocationCheck chain (2.4 only: inside <IfVersion >= 2.4> in a config shared with 2.2) where SSLCARevocationFile/Path is set.",
  help: "Guide, changed semantics: CRL-based revocation checking happens only when configured through SSLCARevocationCheck.",
  // mod_ssl refuses an empty CRL file at the config test: the sample's is a real (empty-list) CRL of a throwaway CA.
  sample: { config: "SSLCARevocationFile conf/sample.crl", modules: ["ssl"], on24: "starts", files: { "conf/sample.crl": SAMPLE_CRL } },
};
