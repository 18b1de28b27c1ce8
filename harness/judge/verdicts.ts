import type { Verdict } from "./difference.ts";

/** Every verdict (and difference class), most urgent first: the one order reports list them in and the
 * judge ranks them by. */
export const VERDICTS: readonly Verdict[] = ["regression", "error", "expected-change", "noise", "same"];

/** The most urgent of some verdicts; "same" for none. */
export function worst(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((acc, v) => (VERDICTS.indexOf(v) < VERDICTS.indexOf(acc) ? v : acc), "same");
}
