// Pure: what one `lint` reports from the findings of its trees. The fleet's ignore file drops what it silences
// (counted by rule and by entry), the baseline drops what an earlier lint already knew (counted), both place by
// place; what is left is grouped by cause, as a run's report groups its differences: one finding per rule, message
// and fix in a tree, with every place it was found at (M2 on every `Order` line of the tree is one finding). Then
// `--fail-on` decides: a finding at or above the threshold fails the lint; `expected` never does.
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

/** One cause in one tree: what a rule says, and every place it says it of. */
export interface LintCause {
  rule: string;
  severity: LintFinding["severity"];
  security: boolean;
  seed: readonly string[];
  message: string;
  fix: string | null;
  /** LintedTree.path of the tree the places are in. */
  tree: string;
  /** Every place, in the order the findings came (files in reading order, then line and column): the lint's own
   * finding objects, not copies (a large tree has tens of thousands). Their rule, severity, message and fix are
   * the cause's. */
  places: readonly LintFinding[];
}

/** What makes two places one cause: the same rule saying the same thing with the same fix. */
function causeKey(finding: LintFinding): string {
  return `${finding.rule}\u0000${finding.severity}\u0000${finding.message}\u0000${finding.fix ?? "\u0001"}`;
}

/** Places grouped by cause, each cause where its first place is. */
export function groupByCause(tree: string, findings: Iterable<LintFinding>): LintCause[] {
  const causes = new Map<string, { cause: LintCause; places: LintFinding[] }>();
  for (const finding of findings) {
    const key = causeKey(finding);
    let group = causes.get(key);
    if (group === undefined) {
      const places: LintFinding[] = [];
      const { rule, severity, security, seed, message, fix } = finding;
      group = { cause: { rule, severity, security, seed, message, fix, tree, places }, places };
      causes.set(key, group);
    }
    group.places.push(finding);
  }
  return [...causes.values()].map((group) => group.cause);
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
  /** What is reported, by cause: places neither ignored nor known to the baseline. */
  findings: LintCause[];
  /** How many places the findings have in all. */
  places: number;
  ignored: IgnoredCount;
  /** The baseline used and how many of its findings were seen again (not reported); null without one. */
  baseline: { file: string; known: number } | null;
  failOn: FailOn;
  /** Reported findings (causes), by severity. */
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
  const findings: LintCause[] = [];
  let places = 0;
  for (const { tree, findings: found } of input.trees) {
    const reported: LintFinding[] = [];
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
      reported.push(finding);
    }
    places += reported.length;
    findings.push(...groupByCause(tree.path, reported));
  }
  ignored.entries = [...byEntry.values()];
  const bySeverity = Object.fromEntries(SEVERITIES.map((severity) => [severity, 0])) as Record<Severity, number>;
  for (const finding of findings) bySeverity[finding.severity]++;
  const failing = findings.filter((finding) => finding.severity !== "expected" && atLeast(finding.severity, input.failOn)).length;
  return {
    trees: input.trees.map(({ tree }) => tree),
    findings,
    places,
    ignored,
    baseline: input.baseline === null ? null : { file: input.baseline.path, known },
    failOn: input.failOn,
    bySeverity,
    failing,
  };
}
