// Every rule, in the guide's row order. Adding a row is adding its file and one line here.
import { B4, REMOVED_DIRECTIVE, V1 } from "./generic-invalid-commands.ts";
import { R9 } from "./r9-mutex-directives.ts";
import type { Rule } from "./rule.ts";

export const RULES: readonly Rule[] = [B4, R9, V1, REMOVED_DIRECTIVE];

const BY_ID = new Map(RULES.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}
