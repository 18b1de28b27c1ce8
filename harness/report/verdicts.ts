import type { Verdict } from "../diff/difference.ts";

/** Every verdict (and difference class), most urgent first: the order reports list them in. */
export const VERDICTS: readonly Verdict[] = ["regression", "error", "expected-change", "noise", "same"];
