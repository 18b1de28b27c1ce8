// What the rule tests share: a tree from config text, one rule's findings on it as the lint engine makes them,
// evidence of one difference, and error-log records parsed from real lines.
import type { ErrorLogRecord } from "../../../harness/logs/error-log-record.ts";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
import type { Evidence } from "../../../harness/rules/evidence.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import { lintContext } from "../../../harness/rules/lint-context.ts";
import { lintContextFindings } from "../../../harness/rules/lint-tree.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import { memoryTree } from "../conf/memory-tree.ts";

/** One rule's findings on conf/httpd.conf (official layout, official 2.4 target), as line and severity. */
export function findingsOf(rule: Rule, text: string, files: Record<string, string> = {}): LintFinding[] {
  const tree = memoryTree({ "conf/httpd.conf": text.replace(/^\n/, ""), ...files });
  const context = lintContext(tree, { defines: [], target: TARGET_PROFILES.official });
  return lintContextFindings(context, [rule]).filter((finding) => finding.rule === rule.id);
}

export function linesOf(rule: Rule, text: string, files: Record<string, string> = {}): Array<{ line: number; severity: string }> {
  return findingsOf(rule, text, files).map((finding) => ({ line: finding.line, severity: finding.severity }));
}

/** Error-log records of one side, from the lines as that version wrote them. */
export function records(dialect: "2.2" | "2.4", ...lines: string[]): ErrorLogRecord[] {
  return lines.map((line) => parseErrorLogLine(line, dialect));
}

/** A difference between a 2.2 baseline and a 2.4 candidate on one request (status 200 on both unless given). */
export function evidence(partial: Partial<Evidence> & { field: string }): Evidence {
  return {
    baseline: null,
    candidate: null,
    request: { name: "r", method: "GET", path: "/", host: null, client: "127.0.0.1", user: null },
    status: { baseline: 200, candidate: 200 },
    log: { baseline: [], candidate: [] },
    families: { baseline: "2.2", candidate: "2.4" },
    findings: [],
    ...partial,
  };
}

/** The server-level evidence (config test, start-up) with the candidate's log lines. */
export function serverEvidence(field: string, candidateLog: ErrorLogRecord[], baselineLog: ErrorLogRecord[] = []): Evidence {
  return evidence({ field, request: null, status: { baseline: null, candidate: null }, log: { baseline: baselineLog, candidate: candidateLog } });
}
