import type { Verdict } from "./difference.ts";

/** Every verdict (and difference class), most urgent first: the one order reports list them in and the
 * judge ranks them by. */
export const VERDICTS: readonly Verdict[] = ["regression", "error", "broken-on-both", "unverified", "expected-change", "noise", "same"];

/** The most urgent of some verdicts; "same" for none. */
export function worst(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((acc, v) => (VERDICTS.indexOf(v) < VERDICTS.indexOf(acc) ? v : acc), "same");
}

/** The verdicts a summary line lists: every difference class, and the verdicts about what could not be compared
 * only where a scenario has them. */
export function shownVerdicts(byVerdict: Readonly<Record<Verdict, number>>): Verdict[] {
  return VERDICTS.filter((verdict) => (verdict !== "unverified" && verdict !== "broken-on-both") || byVerdict[verdict] > 0);
}
