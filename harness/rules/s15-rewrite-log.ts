// S15: RewriteLog and RewriteLogLevel are gone; 2.4's mod_rewrite logs to the ErrorLog through LogLevel
// rewrite:traceN (N from 1 to 8). Both are invalid commands on 2.4 with mod_rewrite loaded (recorded).
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

/** The LogLevel line that replaces `RewriteLogLevel N`; null for 0 (no logging: nothing to write). */
export function rewriteTraceLevel(level: string | undefined): string | null {
  const n = Number(level ?? "0");
  if (!Number.isInteger(n) || n <= 0) return null;
  return `LogLevel rewrite:trace${Math.min(n, 8)}`;
}

export const S15: Rule = {
  id: "S15",
  seed: ["S15"],
  title: "RewriteLog and RewriteLogLevel are removed; mod_rewrite logs through LogLevel rewrite:traceN",
  severity: "blocking",
  owns: { directives: ["RewriteLog", "RewriteLogLevel"] },
  ownedLine: (node) => ({
    message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 removed it; rewrite steps go to the error log at LogLevel rewrite:traceN`,
    fix: node.key === "rewriteloglevel" ? rewriteTraceLevel(node.args[0]) ?? "remove it (level 0: no rewrite logging)" : "remove it; rewrite steps go to the ErrorLog (set LogLevel rewrite:traceN)",
  }),
  recognise: (evidence) => refusalClaim(evidence, invalidCommandPattern(["RewriteLog", "RewriteLogLevel"]), (refusal) => `2.4 refuses '${refusal.match[1]}': use LogLevel rewrite:traceN`),
  fix: "Remove RewriteLog; replace RewriteLogLevel N with LogLevel rewrite:traceN (mod_rewrite's lines go to the ErrorLog).",
  help: "Guide: mod_rewrite logging is controlled with LogLevel at a module-specific level (RewriteLog/RewriteLogLevel rejected on 2.4).",
  sample: { config: "RewriteEngine on\nRewriteLog logs/rewrite.log\nRewriteLogLevel 3", modules: ["rewrite"], on24: "refuses" },
};
