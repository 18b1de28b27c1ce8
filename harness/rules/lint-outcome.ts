// Pure: what one `lint` reports from the findings of its trees. The fleet's ignore file drops what it silences
// (counted by rule and by entry), the baseline drops what an earlier lint already knew (counted), and
// `--fail-on` decides on what is left: a finding at or above the threshold fails the lint; `expected` never does.
import type { LayoutId } from "../conf/effective-config.ts";
import type { LintFinding } from "./finding.ts";
import { findingSubject, ignoredBy, type IgnoreFile } from "./ignore-file.ts";
import { baselineKey, type LintBaseline } from "./lint-baseline.ts";
import { atLeast, SEVERITIES, type Severity } from "./severity.ts";

/** The severities `--fail-on` takes: any but `expected`, which never fails. */
export const FAIL_ON = ["blocking", "security", "behaviour", "deprecated"] as const satisfies readonly Severity[];
export type FailOn = (typeof FAIL_ON)[number];

export interface LintedTree {
  /** The PATH as given, "/"-separated (relative to the working directory when inside it): findings name it. */
  path: string;
  /** The absolute directory the files' tree paths are relative to (PATH, or its directory for one file). */
  root: string;
  layout: LayoutId;
  /** The 2.4 installation linted for: official, debian, rhel, or the --target-modules file. */
  targetModules: string;
  /** Every file the configuration reads, as tree paths, in reading order. */
  files: string[];
}

export interface TreeFinding extends LintFinding {
  /** LintedTree.path of the tree the finding is in. */
  tree: string;
}

export interface IgnoredCount {
  /** The ignore file used, or null when there was none. */
  file: string | null;
  total: number;
  byRule: Record<string, number>;
  /** Each entry that silenced something: where it is, why, how many. */
  entries: Array<{ at: string; reason: string; count: number }>;
}

export interface LintOutcome {
  trees: LintedTree[];
  /** What is reported: neither ignored nor known to the baseline. */
  findings: TreeFinding[];
  ignored: IgnoredCount;
  /** The baseline used and how many of its findings were seen again (not reported); null without one. */
  baseline: { file: string; known: number } | null;
  failOn: FailOn;
  /** Reported findings, by severity. */
  bySeverity: Record<Severity, number>;
  /** How many reported findings reach failOn: the lint fails when there is one. */
  failing: number;
}

export interface LintOutcomeInput {
  trees: ReadonlyArray<{ tree: LintedTree; findings: readonly LintFinding[] }>;
  ignore: IgnoreFile | null;
  baseline: LintBaseline | null;
  failOn: FailOn;
}

export function lintOutcome(input: LintOutcomeInput): LintOutcome {
  const ignored: IgnoredCount = { file: input.ignore?.path ?? null, total: 0, byRule: {}, entries: [] };
  const byEntry = new Map<string, { at: string; reason: string; count: number }>();
  let known = 0;
  const findings: TreeFinding[] = [];
  for (const { tree, findings: found } of input.trees) {
    for (const finding of found) {
      const entry = ignoredBy(input.ignore, findingSubject(finding));
      if (entry !== undefined) {
        ignored.total++;
        ignored.byRule[finding.rule] = (ignored.byRule[finding.rule] ?? 0) + 1;
        const counted = byEntry.get(entry.at) ?? { at: entry.at, reason: entry.reason, count: 0 };
        counted.count++;
        byEntry.set(entry.at, counted);
        continue;
      }
      if (input.baseline?.keys.has(baselineKey(tree.path, finding.fingerprint))) {
        known++;
        continue;
      }
      findings.push({ ...finding, tree: tree.path });
    }
  }
  ignored.entries = [...byEntry.values()];
  const bySeverity = Object.fromEntries(SEVERITIES.map((severity) => [severity, 0])) as Record<Severity, number>;
  for (const finding of findings) bySeverity[finding.severity]++;
  const failing = findings.filter((finding) => finding.severity !== "expected" && atLeast(finding.severity, input.failOn)).length;
  return {
    trees: input.trees.map(({ tree }) => tree),
    findings,
    ignored,
    baseline: input.baseline === null ? null : { file: input.baseline.path, known },
    failOn: input.failOn,
    bySeverity,
    failing,
  };
}
