// A difference read off one observed field alone: the two values (and the statuses) are enough to tell it. The
// judge classes such differences while it diffs (judge/known-differences.ts reads them from here), and the rule
// that holds one recognises the same difference in a run's evidence: one matcher, two readers.
import type { Family } from "../versions/httpd-version.ts";
import type { Evidence } from "./evidence.ts";
import type { Claim } from "./rule.ts";

export interface FieldDifferenceContext {
  baselineStatus: number | null;
  candidateStatus: number | null;
  baselineFamily: Family;
  candidateFamily: Family;
}

export interface FieldDifference {
  /** The name the judge reports it by. */
  id: string;
  /** The field it covers ("header:date"), or a prefix ending in "*". */
  field: string;
  /** Only between these release lines (baseline, candidate); any when absent. */
  between?: { baseline: Family; candidate: Family };
  applies: (baseline: string | null, candidate: string | null, context: FieldDifferenceContext) => boolean;
  /** Seed rows that predict it; none for a difference the guide has no row for (the judge calls it noise). */
  seed: readonly string[];
  reason: string;
}

export function fieldDifferenceHolds(
  difference: FieldDifference,
  field: string,
  baseline: string | null,
  candidate: string | null,
  context: FieldDifferenceContext,
): boolean {
  const fieldMatches = difference.field.endsWith("*") ? field.startsWith(difference.field.slice(0, -1)) : difference.field === field;
  return (
    fieldMatches &&
    (!difference.between || (difference.between.baseline === context.baselineFamily && difference.between.candidate === context.candidateFamily)) &&
    difference.applies(baseline, candidate, context)
  );
}

/** A recognise face made of a field difference: the evidence's field, values, statuses and families. */
export function recogniseFieldDifference(difference: FieldDifference): (evidence: Evidence) => Claim | null {
  return (evidence) => {
    const context: FieldDifferenceContext = {
      baselineStatus: evidence.status.baseline,
      candidateStatus: evidence.status.candidate,
      baselineFamily: evidence.families.baseline,
      candidateFamily: evidence.families.candidate,
    };
    return fieldDifferenceHolds(difference, evidence.field, evidence.baseline, evidence.candidate, context) ? { summary: difference.reason } : null;
  };
}
