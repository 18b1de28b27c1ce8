// Differences between 2.2 and 2.4 that hold for every configuration, as the judge classes them. The knowledge
// is the rules' (rules/expected-differences.ts, rules/etag-shape.ts): this reads their field matchers and gives
// each a class: expected-change when a seed row predicts it, noise when the guide has no row for it.
// Scenario-specific predictions live in scenarios.
import { JUDGED_DIFFERENCES } from "../rules/expected-differences.ts";
import { fieldDifferenceHolds, type FieldDifference, type FieldDifferenceContext } from "../rules/field-difference.ts";
import type { DifferenceClass } from "./difference.ts";

export type KnownDifferenceContext = FieldDifferenceContext;

export interface KnownDifference extends Omit<FieldDifference, "seed"> {
  class: Exclude<DifferenceClass, "same" | "regression" | "error">;
  seed: string[];
}

export const KNOWN_DIFFERENCES: readonly KnownDifference[] = JUDGED_DIFFERENCES.map((difference) => ({
  ...difference,
  seed: [...difference.seed],
  class: difference.seed.length > 0 ? "expected-change" : "noise",
}));

export function findKnownDifference(
  field: string,
  baseline: string | null,
  candidate: string | null,
  context: KnownDifferenceContext,
): KnownDifference | undefined {
  return KNOWN_DIFFERENCES.find((known) => fieldDifferenceHolds(known, field, baseline, candidate, context));
}
