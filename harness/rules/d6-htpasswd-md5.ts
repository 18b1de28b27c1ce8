// D6: 2.4's htpasswd hashes with MD5 ($apr1$) on all platforms. So does 2.2.34's on Linux (the default reached
// 2.2 in 2.2.18), so between these releases the hash does not change (htpasswd-default-hash); the row shows only
// where a 2.2 build still wrote crypt() or SHA hashes. Nothing in a configuration to lint.
import type { Rule } from "./rule.ts";

const APR1 = /\$apr1\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22}/;
const OTHER_HASH = /:(\{SHA\}[A-Za-z0-9+/=]{28}|[./0-9A-Za-z]{13})\s*$/m;

export const D6: Rule = {
  id: "D6",
  seed: ["D6"],
  title: "htpasswd hashes with MD5 ($apr1$) on all platforms on 2.4",
  severity: "expected",
  recognise: (evidence) => {
    if (evidence.field !== "exec" || !APR1.test(evidence.candidate ?? "")) return null;
    const baseline = evidence.baseline ?? "";
    if (APR1.test(baseline) && !OTHER_HASH.test(baseline)) {
      return { summary: "both htpasswd tools hash with $apr1$ (MD5); the salts differ" };
    }
    return OTHER_HASH.test(baseline) ? { summary: "2.4's htpasswd writes an $apr1$ (MD5) hash where 2.2's wrote crypt() or SHA" } : null;
  },
  fix: "Nothing to do: httpd 2.4 still reads crypt(), SHA and $apr1$ hashes; new ones are $apr1$ (or bcrypt with htpasswd -B).",
  help: "Guide, changed defaults: htpasswd tool hash MD5 on all platforms. Real 2.2.34 also writes $apr1$.",
};
