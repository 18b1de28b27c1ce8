// Pure: what a difference between two sides' outcomes for one request means, most serious first:
// - widened: the original refused (denied, auth required) and the port grants;
// - source-exposed: the original ran a script or parsed a page and the port serves its text;
// - narrowed: the original granted and the port refuses;
// - changed: any other difference (another status, another page, an error on one side).
// Widened and source-exposed are security changes. A pair of equal outcomes is `equal`; whether such a cell counts
// as proven is the witnesses' question (cell-evidence.ts).
import { GRANTED, type ProbeOutcome, REFUSED, type SideWitness } from "./probe-outcome.ts";

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

/** Content a client gets that a handler's refusal withheld: the object, its text, or its run. */
const DELIVERED: ReadonlySet<ProbeOutcome> = new Set(["executed", "served", "source-served"]);

/**
 * The class of two sides' witnesses. A 403 that a handler or Options gave after access control let the request in
 * (SideWitness.handlerRefusal: "attempt to invoke directory as script", "Options ExecCGI is off") is no access
 * decision: access did not refuse there, so from it only delivered content is a widening (a script run, its text
 * or the object sent) and anything else (404, a redirect, an access denial) a change; and an access refusal that
 * became such a 403 is a widening, since access control no longer stops the request.
 */
export function witnessClass(baseline: Pick<SideWitness, "outcome" | "handlerRefusal">, candidate: Pick<SideWitness, "outcome" | "handlerRefusal">): DifferenceClass {
  const a = baseline.outcome;
  const b = candidate.outcome;
  const handlerA = a === "denied" && baseline.handlerRefusal !== null;
  const handlerB = b === "denied" && candidate.handlerRefusal !== null;
  if (handlerA && handlerB) return "changed";
  if (handlerA) {
    if (b === "source-served") return "source-exposed";
    return b === "executed" || b === "served" ? "widened" : "changed";
  }
  if (handlerB) {
    if (REFUSED.has(a)) return "widened";
    return DELIVERED.has(a) ? "narrowed" : "changed";
  }
  return differenceClass(a, b);
}

/** In words, for reports, with a handler's 403 named as such: "denied (by the handler) → not found". */
export function witnessChange(baseline: Pick<SideWitness, "outcome" | "handlerRefusal">, candidate: Pick<SideWitness, "outcome" | "handlerRefusal">): string {
  const word = (w: Pick<SideWitness, "outcome" | "handlerRefusal">) => `${w.outcome.replace("-", " ")}${w.outcome === "denied" && w.handlerRefusal !== null ? " (by the handler)" : ""}`;
  return `${word(baseline)} → ${word(candidate)}`;
}
