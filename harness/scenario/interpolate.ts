// ${...} variables in scenario text (server config, files, prepare commands, requests). The loader only checks
// that every variable names something the scenario declares (scenario-variables.ts); the runner expands them once
// it knows addresses and paths. `$${` is a literal `${` (for Apache's own ${VAR} and for shell code).
import { HarnessError, type SourcePosition } from "../errors.ts";

export type VariableToken =
  /** `${name}`, at `index` (of the `$`), `length` characters long. */
  | { kind: "variable"; name: string; index: number; length: number }
  /** `$${`: a literal `${`. */
  | { kind: "escape"; index: number }
  /** `${` with no closing `}`. */
  | { kind: "unterminated"; index: number };

/** The variable references, escapes and unterminated `${` of a text, in order. */
export function scanVariables(text: string): VariableToken[] {
  const tokens: VariableToken[] = [];
  let index = text.indexOf("$", 0);
  while (index !== -1) {
    if (text.startsWith("$${", index)) {
      tokens.push({ kind: "escape", index });
      index = text.indexOf("$", index + 3);
    } else if (text.startsWith("${", index)) {
      const close = text.indexOf("}", index + 2);
      if (close === -1) {
        tokens.push({ kind: "unterminated", index });
        break;
      }
      tokens.push({ kind: "variable", name: text.slice(index + 2, close), index, length: close + 1 - index });
      index = text.indexOf("$", close + 1);
    } else {
      index = text.indexOf("$", index + 1);
    }
  }
  return tokens;
}

/** Replaces every ${name} with vars[name] and every $${ with ${. An unknown variable or an unterminated ${ is a
 * HARNESS_SCENARIO_INVALID error at `at`. */
export function interpolate(text: string, vars: Readonly<Record<string, string>>, at: SourcePosition): string {
  let result = "";
  let from = 0;
  for (const token of scanVariables(text)) {
    result += text.slice(from, token.index);
    if (token.kind === "escape") {
      result += "${";
      from = token.index + 3;
    } else if (token.kind === "unterminated") {
      throw new HarnessError("HARNESS_SCENARIO_INVALID", `unterminated variable: "${excerpt(text, token.index)}" has no closing }`, {
        position: at,
        hint: "Close it with }, or write $${ for a literal ${.",
      });
    } else {
      const value = Object.hasOwn(vars, token.name) ? vars[token.name] : undefined;
      if (value === undefined) {
        const known = Object.keys(vars).sort();
        throw new HarnessError(
          "HARNESS_SCENARIO_INVALID",
          `unknown variable \${${token.name}}; known here: ${known.length === 0 ? "none" : known.map((name) => `\${${name}}`).join(", ")}`,
          { position: at, hint: "Write $${ for a literal ${ (Apache's own ${VAR}, shell code)." },
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
