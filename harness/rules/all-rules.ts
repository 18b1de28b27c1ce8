// Every rule, in the guide's row order. Adding a row is adding its file and one line here.
import { B4, REMOVED_DIRECTIVE, V1 } from "./generic-invalid-commands.ts";
import { R9 } from "./r9-mutex-directives.ts";
import type { Rule } from "./rule.ts";
import { B2 } from "./b2-disk-cache-renamed.ts";
import { B3 } from "./b3-lbmethod-modules.ts";
import { AUTHZ_AUTHORITATIVE_RULES } from "./r1-r6-authz-authoritative.ts";
import { R7 } from "./r7-dumpio-loglevel.ts";
import { R8 } from "./r8-debuglevel-option.ts";
import { N3 } from "./n3-authn-alias.ts";
import { N4 } from "./n4-m6-x5-filter-by-type.ts";
import { S1 } from "./s1-keepalive-on-off.ts";
import { S4 } from "./s4-ldap-trusted-client-cert.ts";
import { S5 } from "./s5-filterprovider-syntax.ts";
import { S9 } from "./s9-sslv2.ts";
import { S15 } from "./s15-rewrite-log.ts";
import { M2 } from "./m2-x3-access-compat.ts";
import { M4 } from "./m4-x6-authn-core.ts";
import { M5 } from "./m5-x1-unixd.ts";
import { X2 } from "./x2-require-authz-provider.ts";
import { MPM_NOT_LOADED } from "./mpm-not-loaded.ts";
import { SSL_SESSION_CACHE_PROVIDER } from "./ssl-session-cache-provider.ts";
import { INCLUDE_NO_MATCH } from "./include-no-match.ts";
import { CONTEXT_REFUSED } from "./context-refused.ts";
import { START_COMPANION } from "./start-companion.ts";
import { B1 } from "./b1-config-nice.ts";
import { D2 } from "./d2-enable-sendfile.ts";
import { D3 } from "./d3-file-etag-default.ts";
import { D4 } from "./d4-ssl-proxy-check-peer-cn.ts";
import { D5 } from "./d5-ssl-proxy-check-peer-expire.ts";
import { D6 } from "./d6-htpasswd-md5.ts";
import { E1 } from "./e1-default-type.ts";
import { E2 } from "./e2-name-virtual-host.ts";
import { EXPECTED_RULES } from "./expected-differences.ts";
import { N1 } from "./n1-max-requests-per-child.ts";
import { N2 } from "./n2-max-clients.ts";
import { S2 } from "./s2-cache-session-identifiers.ts";
import { S3 } from "./s3-cache-enable-forward-proxy.ts";
import { S6 } from "./s6-ssi-if-expr.ts";
import { S7 } from "./s7-crl-check.ts";
import { S8 } from "./s8-dn-format.ts";
import { S10 } from "./s10-proxy-scgi-pathinfo.ts";
import { S11 } from "./s11-dav-lock-db.ts";
import { S12 } from "./s12-autoindex-xhtml-titles.ts";
import { S13 } from "./s13-deflate-tiny-bodies.ts";
import { S14 } from "./s14-piped-logs-shell.ts";
import { S16 } from "./s16-reqtimeout-defaults.ts";
import { S17 } from "./s17-substitute-line-length.ts";
import { S18 } from "./s18-ssi-error-documents.ts";
import { A3 } from "./a3-require-host-provider-on-22.ts";
import { A5 } from "./a5-compat-anded-with-require.ts";
import { D1 } from "./d1-allowoverride-default.ts";
import { HANDLER_NOT_LOADED } from "./handler-not-loaded.ts";
import { M3 } from "./m3-require-group-dbm.ts";
import { ORDER_ALLOW_DENY_TO_REQUIRE } from "./order-allow-deny-to-require.ts";
import { PROTECTION_MODULE_NOT_LOADED } from "./protection-module-not-loaded.ts";
import { SATISFY_ANY_GRANTS } from "./satisfy-any-grants.ts";
import { STOCK_MODULE_NOT_LOADED } from "./stock-module-not-loaded.ts";
import { U1 } from "./u1-basic-auth-unchanged.ts";

// Recognisers are asked in this order and the first claim wins: blocking rows first (a refusal explains all that
// follows it), then the other rows in the guide's order, then the benign differences every config shows.
export const RULES: readonly Rule[] = [
  // Blocking rows, in guide order, then the harness facts that block.
  B2, B3, B4, ...AUTHZ_AUTHORITATIVE_RULES, R7, R8, R9, N3, N4, S1, S4, S5, S9, S15, M2, M4, M5, X2, V1, REMOVED_DIRECTIVE, MPM_NOT_LOADED, INCLUDE_NO_MATCH, CONTEXT_REFUSED, START_COMPANION, M3,
  SSL_SESSION_CACHE_PROVIDER,
  // Security: 2.4 grants or shows what 2.2 refused or hid.
  HANDLER_NOT_LOADED, PROTECTION_MODULE_NOT_LOADED, SATISFY_ANY_GRANTS, A3,
  // Behaviour, deprecated and expected rows, in guide order.
  B1, N1, N2, E1, E2, D1, D2, D3, D4, D5, D6, S2, S3, S6, S7, S8, S10, S11, S12, S13, S14, S16, S17, S18, A5, ORDER_ALLOW_DENY_TO_REQUIRE, STOCK_MODULE_NOT_LOADED,
  // Benign differences every configuration shows (after the rows: a row's own claim comes first).
  ...EXPECTED_RULES,
  U1,
];

const BY_ID = new Map(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}
