// An owned line's message and fix made once per lint for each distinct key (what they are made of): a large
// tree credits tens of thousands of lines to one rule with a handful of distinct texts, and each finding keeps
// its strings to the end of the lint, copied by every young-generation GC they live through.
import type { LintContext } from "./lint-context.ts";
import type { OwnedLine } from "./rule.ts";

/** What one rule made for one name as written. */
interface ByName {
  /** For a key without arguments. */
  line?: OwnedLine | null;
  /** By the arguments' array itself: lines that read alike share one (parse-file.ts parsedValues), so the lines
   * of a large tree are found by identity, with no key string made and hashed per line. */
  byArray?: Map<readonly string[], OwnedLine | null>;
  /** By the arguments' text: equal arguments in another array still get the first answer made. */
  byText?: Map<string, OwnedLine | null>;
}

const LINES = new WeakMap<LintContext, Map<string, Map<string, ByName>>>();

/** `make()`'s answer in this lint for `rule`, a line's `name` as written and, when the answer depends on them, its
 * `args` (null when it does not): the first one made for equal parts. */
export function ownedLineOnce(context: LintContext, rule: string, name: string, args: readonly string[] | null, make: () => OwnedLine | null): OwnedLine | null {
  let rules = LINES.get(context);
  if (!rules) LINES.set(context, (rules = new Map()));
  let names = rules.get(rule);
  if (!names) rules.set(rule, (names = new Map()));
  let known = names.get(name);
  if (!known) names.set(name, (known = {}));
  if (args === null) {
    if (known.line === undefined) known.line = make();
    return known.line;
  }
  let line = (known.byArray ??= new Map()).get(args);
  if (line !== undefined) return line;
  const text = args.join("\u0000");
  line = (known.byText ??= new Map()).get(text);
  if (line === undefined) known.byText.set(text, (line = make()));
  known.byArray.set(args, line);
  return line;
}
