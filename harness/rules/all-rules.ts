// Every rule, in the guide's row order. Adding a row is adding its file and one line here.
import { B4, REMOVED_DIRECTIVE, V1 } from "./generic-invalid-commands.ts";
import { R9 } from "./r9-mutex-directives.ts";
import type { Rule } from "./rule.ts";
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

export const RULES: readonly Rule[] = [
  B4, R9, V1, REMOVED_DIRECTIVE,
  // Behaviour, deprecated and expected rows (row order); a recogniser listed first wins a tie.
  B1,
  N1,
  N2,
  E1,
  E2,
  D2,
  D3,
  D4,
  D5,
  D6,
  S2,
  S3,
  S18,
  S6,
  S7,
  S8,
  S10,
  S11,
  S12,
  S13,
  S14,
  S16,
  S17,
  // Benign differences every configuration shows (after the rows: a row's own claim comes first).
  ...EXPECTED_RULES,
];

const BY_ID = new Map(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}
