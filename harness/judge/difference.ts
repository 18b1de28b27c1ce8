// The classified result of comparing two observations. JSON-safe: it goes into reports as is.

/** same: equal after normalisation; expected-change: a seed row predicts it; regression: nothing predicts it;
 * noise: it also varies between two answers of one side, or an ignore rule with a reason covers it;
 * error: the harness could not observe one side. */
export type DifferenceClass = "same" | "expected-change" | "regression" | "noise" | "error";

export interface Difference {
  /** "status", "header:etag", "body", "errorLog", "transport", "configTest", "started", "startupLog". */
  field: string;
  baseline: unknown;
  candidate: unknown;
  class: DifferenceClass;
  /** Seed rows that predict it (expected-change), empty otherwise. */
  seed: string[];
  /** Why it got its class: the rule, the ignore reason, or the noise evidence. */
  reason: string;
}

/** A scenario's verdict: the worst of its differences, or what could not be compared. unverified: the
 * baseline did not run, so nothing was compared (the candidate met what the scenario states for it);
 * broken-on-both: neither side started, both alike, and the scenario did not expect that. */
export type Verdict = DifferenceClass | "unverified" | "broken-on-both";
