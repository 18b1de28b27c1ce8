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

/** What makes two places one cause: the same rule saying the same thing with the same fix (null apart from any
 * text). */
const NO_FIX = Symbol("no fix");

/** Places grouped by cause, each cause where its first place is. Looked up by rule, severity, message and fix in
 * nested maps, not by one key string joined per place: the 10,000-vhost tree's 90,000 places each built and hashed
 * a string of its whole message and fix. Places come in runs of one cause: the last one's is tried first. */
export function groupByCause(tree: string, findings: Iterable<LintFinding>): LintCause[] {
  const causes: LintCause[] = [];
  const byRule = new Map<string, Map<string, Map<string, Map<string | typeof NO_FIX, LintFinding[]>>>>();
  let last: LintFinding | undefined;
  let lastPlaces: LintFinding[] | undefined;
  for (const finding of findings) {
    if (last !== undefined && finding.rule === last.rule && finding.severity === last.severity && finding.message === last.message && finding.fix === last.fix) {
      lastPlaces!.push(finding);
      last = finding;
      continue;
    }
    const bySeverity = inner(byRule, finding.rule);
    const byMessage = inner(bySeverity, finding.severity);
    const byFix = inner(byMessage, finding.message);
    const fixKey = finding.fix ?? NO_FIX;
    let places = byFix.get(fixKey);
    if (places === undefined) {
      places = [];
      const { rule, severity, security, seed, message, fix } = finding;
      causes.push({ rule, severity, security, seed, message, fix, tree, places });
      byFix.set(fixKey, places);
    }
    places.push(finding);
    last = finding;
    lastPlaces = places;
  }
  return causes;
}

/** The map under `key` in `outer`, made when missing. */
function inner<K, L, V>(outer: Map<K, Map<L, V>>, key: K): Map<L, V> {
  let map = outer.get(key);
  if (map === undefined) outer.set(key, (map = new Map()));
  return map;
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
      // Without an ignore file there is nothing to match: no subject made per place.
      const entry = input.ignore === null ? undefined : ignoredBy(input.ignore, findingSubject(finding));
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
