// Whether a finding's fix is literal 2.4 configuration (SARIF's fixes, migrate's replacement text) or advice.
import { DIRECTIVES } from "./directive-knowledge.ts";
import type { LintFinding } from "./finding.ts";

/** The fix as the text that replaces the directive, when it is literal 2.4 configuration: every line a
 * directive 2.4 has (or a section line), no placeholder such as DIR or MECH, no prose. A LoadModule line fixes
 * another directive by being added elsewhere, never by replacing it. Null otherwise. */
export function literalFix(finding: Pick<LintFinding, "fix" | "directive">): string | null {
  const fix = finding.fix?.trim();
  if (!fix || fix === finding.directive.trim()) return null;
  // Lines keep their indentation relative to the least indented one (a section's body stays inside it).
  const raw = fix.split("\n").map((line) => line.trimEnd());
  const indent = Math.min(...raw.filter((line) => line.trim() !== "").map((line) => line.length - line.trimStart().length));
  const lines = raw.map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)));
  const directiveName = /^<?\/?([A-Za-z][\w-]*)/.exec(finding.directive.trim())?.[1]?.toLowerCase();
  for (const line of lines.map((text) => text.trim()).filter((text) => text !== "")) {
    const match = /^<?\/?([A-Za-z][\w-]*)/.exec(line);
    const name = match?.[1];
    if (name === undefined || DIRECTIVES["2.4"].modulesOf(name).length === 0) return null;
    if (name.toLowerCase() === "loadmodule" && directiveName !== "loadmodule") return null;
    if (/\b[A-Z]{3,}\b/.test(line.slice(match![0].length)) || /[;→…]|\.\.\./.test(line)) return null;
  }
  return lines.join("\n");
}

