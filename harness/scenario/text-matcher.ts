// Text matchers as written → TextMatcher. A plain string is a substring match unless it reads as a JavaScript
// regular-expression literal ("/re/flags": no unescaped "/" in the body, flags from d i m s u v).
import type { RawTextMatcher } from "./scenario-schema.ts";
import type { TextMatcher } from "./scenario.ts";

/** Stateful flags make RegExp#test depend on the previous call. */
const FORBIDDEN_FLAGS = /[gy]/;
const REGEX_LITERAL = /^\/((?:[^/\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+)\/([dgimsuvy]*)$/s;

export type TextMatcherResult = { ok: true; matcher: TextMatcher } | { ok: false; problem: string };

/** Whether a plain string is read as a regular expression, and if so its pattern and flags. */
export function regexLiteral(text: string): { pattern: string; flags: string } | null {
  const match = REGEX_LITERAL.exec(text);
  if (match === null) return null;
  return { pattern: match[1] ?? "", flags: match[2] ?? "" };
}

export function toTextMatcher(raw: RawTextMatcher): TextMatcherResult {
  if (typeof raw === "string") {
    const literal = regexLiteral(raw);
    if (literal === null) return { ok: true, matcher: { kind: "contains", value: raw } };
    return regexMatcher(literal.pattern, literal.flags);
  }
  if ("equals" in raw) return { ok: true, matcher: { kind: "equals", value: raw.equals } };
  if ("contains" in raw) return { ok: true, matcher: { kind: "contains", value: raw.contains } };
  return regexMatcher(raw.matches, raw.flags ?? "");
}

function regexMatcher(pattern: string, flags: string): TextMatcherResult {
  if (FORBIDDEN_FLAGS.test(flags)) {
    return { ok: false, problem: `regular expression flags "${flags}": g and y are not allowed (they make matching stateful)` };
  }
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
    return { ok: false, problem: `invalid regular expression /${pattern}/${flags}: ${reason}` };
  }
  return { ok: true, matcher: { kind: "matches", pattern, flags } };
}

/** Whether `text` satisfies the matcher (for the runner and the tests of the format). */
export function matchesText(matcher: TextMatcher, text: string): boolean {
  switch (matcher.kind) {
    case "contains":
      return text.includes(matcher.value);
    case "equals":
      return text === matcher.value;
    case "matches":
      return new RegExp(matcher.pattern, matcher.flags).test(text);
  }
}
