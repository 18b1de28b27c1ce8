// `lint --format json`: the lint's JSON contract (schema/lint.schema.json, schemaVersion 1.0). The issue's
// contract fields come first in each finding and keep their names (rule, severity, file, line, column,
// directive, message, fix); the rest of the finding follows, then the tree it is in.
import type { LintOutcome, TreeFinding } from "../rules/lint-outcome.ts";
import type { Severity } from "../rules/severity.ts";

export const LINT_SCHEMA_VERSION = "1.0";
export const TOOL_NAME = "httpd-upgrade-harness";

export interface LintDocument {
  schemaVersion: typeof LINT_SCHEMA_VERSION;
  tool: { name: typeof TOOL_NAME; version: string };
  findings: TreeFinding[];
  /** Every file each tree's configuration reads, in reading order. */
  files: Array<{ tree: string; file: string }>;
  trees: Array<{ path: string; layout: string; targetModules: string }>;
  ignored: LintOutcome["ignored"];
  baseline: LintOutcome["baseline"];
  summary: {
    /** Findings reported (neither ignored nor in the baseline). */
    findings: number;
    bySeverity: Record<Severity, number>;
    /** Findings the baseline knew, not reported. */
    known: number;
    ignored: number;
    failOn: LintOutcome["failOn"];
    /** Reported findings at or above failOn. */
    failing: number;
    /** Whether the lint fails (exit status 1). */
    failed: boolean;
  };
}

function contractOrder(finding: TreeFinding): TreeFinding {
  const { rule, severity, file, line, column, directive, message, fix, ...rest } = finding;
  return { rule, severity, file, line, column, directive, message, fix, ...rest };
}

export function lintDocument(outcome: LintOutcome, toolVersion: string): LintDocument {
  return {
    schemaVersion: LINT_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: toolVersion },
    findings: outcome.findings.map(contractOrder),
    files: outcome.trees.flatMap((tree) => tree.files.map((file) => ({ tree: tree.path, file }))),
    trees: outcome.trees.map((tree) => ({ path: tree.path, layout: tree.layout, targetModules: tree.targetModules })),
    ignored: outcome.ignored,
    baseline: outcome.baseline,
    summary: {
      findings: outcome.findings.length,
      bySeverity: outcome.bySeverity,
      known: outcome.baseline?.known ?? 0,
      ignored: outcome.ignored.total,
      failOn: outcome.failOn,
      failing: outcome.failing,
      failed: outcome.failing > 0,
    },
  };
}
