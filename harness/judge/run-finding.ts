// What a run's report leads with: its differences grouped by cause. A finding names the rule that explains them
// (or `unexplained`), the operator's config lines that caused them, the requests they were seen on, short
// evidence lines, and keeps the per-request differences it folds. JSON-safe: it goes into reports as is.
import type { Severity } from "../rules/severity.ts";
import type { Difference } from "./difference.ts";

/** A rule's severity, or `unexplained`: a difference no rule claims. */
export type FindingSeverity = Severity | "unexplained";

/** Worst first, the order reports list findings in: what stops 2.4, what widens access, what no rule
 * explains, then what changes, what warns, what is benign. */
export const FINDING_ORDER: readonly FindingSeverity[] = ["blocking", "security", "unexplained", "behaviour", "deprecated", "expected"];

export interface ConfigLine {
  /** Tree path of the file, as lint names it. */
  file: string;
  line: number;
  /** The directive as written, when lint found it there; null when only the evidence names the line. */
  directive: string | null;
}

/** One difference a finding folds, with the request it was seen on (null: the server). */
export interface FindingDifference extends Difference {
  request: string | null;
}

export interface RunFinding {
  /** The rule's id, a seed row the scenario names, or "unexplained". */
  rule: string;
  severity: FindingSeverity;
  /** 2.4 grants or shows more than 2.2 did. */
  security: boolean;
  title: string;
  /** The candidate side it was seen on ("candidate"; further candidates "candidate-2", ...). */
  candidate: string;
  config: ConfigLine[];
  requests: { count: number; examples: string[] };
  /** Short lines: what the rule says it saw, AH codes with their messages, "status 200 → 403". */
  evidence: string[];
  /** When the candidate did not start: whether the config test (or the rule's claim on it) names this cause;
   * null otherwise. Lint's other blocking findings on the tree are listed unconfirmed: 2.4 stops at its first. */
  confirmed: boolean | null;
  /** Every difference it folds was predicted (the scenario's seed rows, a known difference): a catalogue
   * scenario showing its row, not news. */
  predicted: boolean;
  /** Whether it fails the run: blocking, security, or an unexplained regression, and not predicted. */
  gating: boolean;
  differences: FindingDifference[];
}

/** What the ignore file silenced in a scenario: counted by the cause's rule, and each difference listed. */
export interface IgnoredDifferences {
  byRule: Record<string, number>;
  differences: Array<FindingDifference & { rule: string; entry: string; because: string }>;
}

export function findingRank(finding: Pick<RunFinding, "severity" | "security" | "differences">): number {
  if (finding.severity === "blocking") return 0;
  if (finding.severity === "security" || finding.security) return 1;
  if (finding.severity === "unexplained") return finding.differences.some((d) => d.class === "regression" || d.class === "error") ? 2 : 3.5;
  return FINDING_ORDER.indexOf(finding.severity);
}

/** Worst first; among equals, news before what a scenario predicted, the one the config test confirmed, then
 * the one on more requests and with more differences, then by rule id. */
export function compareFindings(a: RunFinding, b: RunFinding): number {
  return (
    findingRank(a) - findingRank(b) ||
    Number(a.predicted) - Number(b.predicted) ||
    Number(b.confirmed === true) - Number(a.confirmed === true) ||
    b.requests.count - a.requests.count ||
    b.differences.length - a.differences.length ||
    a.rule.localeCompare(b.rule) ||
    a.candidate.localeCompare(b.candidate)
  );
}
