// {{...}} variables in scenario text (server config, files, prepare commands, requests). The loader only checks
// that every variable names something the scenario declares (scenario-variables.ts); the runner expands them once
// it knows addresses and paths. The syntax is one httpd gives no meaning to, so httpd's own ${VAR} (Define,
// Debian's envvars), ${map:key}, %{VAR} and the shell's ${x} pass through untouched. `{{{{` is a literal `{{`
// (for a served template or script that has one); a `{` right before `{{name}}` is itself (`{{{a}}}` → `{` + a + `}`).
import { HarnessError, type SourcePosition } from "../errors.ts";

export type VariableToken =
  /** `{{name}}`, at `index` (of the first `{`), `length` characters long. */
  | { kind: "variable"; name: string; index: number; length: number }
  /** `{{{{`: a literal `{{`. */
  | { kind: "escape"; index: number }
  /** `{{` with no closing `}}` on its line. */
  | { kind: "unterminated"; index: number };

export const OPEN = "{{";
export const CLOSE = "}}";
export const ESCAPE = "{{{{";

/** How a harness variable is written. */
export function variableText(name: string): string {
  return `${OPEN}${name}${CLOSE}`;
}

/** Where to look when a {{ ... }} does not resolve. */
export const VARIABLE_HINT =
  "Harness variables are {{name}} (Apache's ${VAR} and ${map:key} and the shell's ${x} need no escaping); write {{{{ for a literal {{.";

/** The variable references, escapes and unterminated `{{` of a text, in order. */
export function scanVariables(text: string): VariableToken[] {
  const tokens: VariableToken[] = [];
  let index = text.indexOf(OPEN);
  while (index !== -1) {
    if (text.startsWith(ESCAPE, index)) {
      tokens.push({ kind: "escape", index });
      index = text.indexOf(OPEN, index + ESCAPE.length);
      continue;
    }
    // `{{{`: the first brace is text, and the variable starts at the next one.
    if (text[index + OPEN.length] === "{") {
      index += 1;
      continue;
    }
    const close = text.indexOf(CLOSE, index + OPEN.length);
    const lineEnd = text.indexOf("\n", index);
    if (close === -1 || (lineEnd !== -1 && close > lineEnd)) {
      tokens.push({ kind: "unterminated", index });
      index = text.indexOf(OPEN, index + OPEN.length);
      continue;
    }
    tokens.push({ kind: "variable", name: text.slice(index + OPEN.length, close), index, length: close + CLOSE.length - index });
    index = text.indexOf(OPEN, close + CLOSE.length);
  }
  return tokens;
}

/** Replaces every {{name}} with vars[name] and every {{{{ with {{. An unknown variable or an unterminated {{ is a
 * HARNESS_SCENARIO_INVALID error at `at`. */
export function interpolate(text: string, vars: Readonly<Record<string, string>>, at: SourcePosition): string {
  let result = "";
  let from = 0;
  for (const token of scanVariables(text)) {
    result += text.slice(from, token.index);
    if (token.kind === "escape") {
      result += OPEN;
      from = token.index + ESCAPE.length;
    } else if (token.kind === "unterminated") {
      throw new HarnessError("HARNESS_SCENARIO_INVALID", `unterminated variable: "${excerpt(text, token.index)}" has no closing }} on its line`, {
        position: at,
        hint: `Close it with }}, or write {{{{ for a literal {{.`,
      });
    } else {
      const value = Object.hasOwn(vars, token.name) ? vars[token.name] : undefined;
      if (value === undefined) {
        const known = Object.keys(vars).sort();
        throw new HarnessError(
          "HARNESS_SCENARIO_INVALID",
          `unknown variable ${variableText(token.name)}; known here: ${known.length === 0 ? "none" : known.map(variableText).join(", ")}`,
          { position: at, hint: VARIABLE_HINT },
        );
      }
      result += value;
      from = token.index + token.length;
    }
  }
  return result + text.slice(from);
}

function excerpt(text: string, index: number): string {
  const line = text.slice(index).split("\n", 1)[0] ?? "";
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}
