// Every rule, in the guide's row order. Adding a row is adding its file and one line here.
import { B4, REMOVED_DIRECTIVE, V1 } from "./generic-invalid-commands.ts";
import { R9 } from "./r9-mutex-directives.ts";
import type { Rule } from "./rule.ts";
import { A3 } from "./a3-require-host-provider-on-22.ts";
import { A5 } from "./a5-compat-anded-with-require.ts";
import { D1 } from "./d1-allowoverride-default.ts";
import { HANDLER_NOT_LOADED } from "./handler-not-loaded.ts";
import { M3 } from "./m3-require-group-dbm.ts";
import { ORDER_ALLOW_DENY_TO_REQUIRE } from "./order-allow-deny-to-require.ts";
import { PROTECTION_MODULE_NOT_LOADED } from "./protection-module-not-loaded.ts";
import { SATISFY_ANY_GRANTS } from "./satisfy-any-grants.ts";

export const RULES: readonly Rule[] = [
  B4, R9, V1, REMOVED_DIRECTIVE,
  D1, M3, A3, A5, ORDER_ALLOW_DENY_TO_REQUIRE, HANDLER_NOT_LOADED, PROTECTION_MODULE_NOT_LOADED, SATISFY_ANY_GRANTS,
];

const BY_ID = new Map(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}
