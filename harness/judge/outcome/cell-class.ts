// Pure: what a difference between two sides' outcomes for one request means, most serious first:
// - widened: the original refused (denied, auth required) and the port grants;
// - source-exposed: the original ran a script or parsed a page and the port serves its text;
// - narrowed: the original granted and the port refuses;
// - changed: any other difference (another status, another page, an error on one side).
// Widened and source-exposed are security changes. A pair of equal outcomes is `equal`; whether such a cell counts
// as proven is the witnesses' question (cell-evidence.ts).
import { GRANTED, type ProbeOutcome, REFUSED } from "./probe-outcome.ts";

export type DifferenceClass = "widened" | "source-exposed" | "narrowed" | "changed";
export const DIFFERENCE_CLASSES: readonly DifferenceClass[] = ["widened", "source-exposed", "narrowed", "changed"];

/** The classes an operator must treat as security findings. */
export const SECURITY_CLASSES: ReadonlySet<DifferenceClass> = new Set(["widened", "source-exposed"]);

export function differenceClass(baseline: ProbeOutcome, candidate: ProbeOutcome): DifferenceClass {
  if (REFUSED.has(baseline) && GRANTED.has(candidate)) return "widened";
  if (baseline === "executed" && candidate === "source-served") return "source-exposed";
  if (GRANTED.has(baseline) && REFUSED.has(candidate)) return "narrowed";
  return "changed";
}

/** In words, for reports: "denied → served". */
export function outcomeChange(baseline: ProbeOutcome, candidate: ProbeOutcome): string {
  return `${baseline.replace("-", " ")} → ${candidate.replace("-", " ")}`;
}
