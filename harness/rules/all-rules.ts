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
import { INCLUDE_NO_MATCH } from "./include-no-match.ts";

export const RULES: readonly Rule[] = [
  B4, R9, V1, REMOVED_DIRECTIVE,
  // Blocking rows, in guide order (B4, R9 above), then the harness facts.
  B2, B3, ...AUTHZ_AUTHORITATIVE_RULES, R7, R8, N3, N4, S1, S4, S5, S9, S15, M2, M4, M5, X2, MPM_NOT_LOADED, INCLUDE_NO_MATCH,
];

const BY_ID = new Map(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}
