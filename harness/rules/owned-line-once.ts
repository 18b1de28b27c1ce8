// An owned line's message and fix made once per lint for each distinct key (what they are made of): a large
// tree credits tens of thousands of lines to one rule with a handful of distinct texts, and each finding keeps
// its strings to the end of the lint, copied by every young-generation GC they live through.
import type { LintContext } from "./lint-context.ts";
import type { OwnedLine } from "./rule.ts";

const LINES = new WeakMap<LintContext, Map<string, OwnedLine | null>>();

/** `make()`'s answer for `key` in this lint: the first one made. The key names the rule and everything the
 * answer depends on. */
export function ownedLineOnce(context: LintContext, key: string, make: () => OwnedLine | null): OwnedLine | null {
  let lines = LINES.get(context);
  if (!lines) LINES.set(context, (lines = new Map()));
  let line = lines.get(key);
  if (line === undefined) lines.set(key, (line = make()));
  return line;
}
