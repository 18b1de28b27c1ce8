// S4: 2.4 takes LDAPTrustedClientCert only in per-directory context (Directory, Location, Files, .htaccess);
// in the server context or a virtual host it fails the config test with "LDAPTrustedClientCert not allowed
// here" (recorded), where 2.2 took it.
import { refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

export const S4: Rule = {
  id: "S4",
  seed: ["S4"],
  title: "LDAPTrustedClientCert is valid only in per-directory context",
  severity: "blocking",
  // The refusal itself is found from 2.4's recorded contexts (rules/context-refused.ts); S4 words it.
  ownsContext: ["LDAPTrustedClientCert"],
  ownedLine: (node) => ({
    message: "2.4 refuses to start: LDAPTrustedClientCert not allowed here (AH00526): 2.4 takes it only in per-directory context",
    fix: `move it into each <Directory>/<Location> that uses LDAP over TLS with client certificates:\n<Location /protected>\n    ${node.node.kind === "section" ? node.node.openRaw.trim() : node.node.raw.trim()}\n</Location>`,
  }),
  recognise: (evidence) => refusalClaim(evidence, /LDAPTrustedClientCert not allowed here/, () => "2.4 refuses LDAPTrustedClientCert outside a per-directory section"),
  fix: "Move LDAPTrustedClientCert into every <Directory>/<Location> that needs it; 2.4 does not take it in the server context.",
  help: "Guide: LDAPTrustedClientCert (mod_ldap) is valid only in per-directory configuration; it must be present in every directory context that needs it.",
  // 2.2 opens the file at read time; an empty one is enough for its config test.
  sample: { config: "LDAPTrustedClientCert CERT_BASE64 conf/ca.crt", modules: ["ldap"], files: { "conf/ca.crt": "" }, on24: "refuses" },
};
