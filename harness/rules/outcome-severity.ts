// Pure: how urgent a change of one request's outcome from 2.2 to 2.4 is, the one place lint's access and handler
// claims take their severity from (rules/access-outcome.ts):
// - security: 2.4 grants what 2.2 refused (denied, or asked for credentials), runs a script 2.2 did not run, or
//   sends a script's or a page's source 2.2 did not send. prove's security classes (widened, source-exposed:
//   judge/outcome/cell-class.ts) are among these;
// - behaviour: any other change: a refusal or an auth prompt 2.4 adds, another status, and a grant where 2.2
//   answered 500 (it refused no one by its rules, it failed every request: Require ip without AuthType; prove
//   classes it "changed", the run's triage behaviour);
// - null: the same outcome on both, no claim of a difference.
import type { PredictedOutcome } from "./predict-cells.ts";
import type { Severity } from "./severity.ts";

/** Outcomes in which the request got past access control. */
export const GRANTED_OUTCOMES: ReadonlySet<PredictedOutcome> = new Set(["served", "executed", "source-served", "redirected"]);

export type OutcomeSeverity = Extract<Severity, "security" | "behaviour">;

export function outcomeSeverity(on22: PredictedOutcome, on24: PredictedOutcome): OutcomeSeverity | null {
  if (on22 === on24) return null;
  if (GRANTED_OUTCOMES.has(on24) && (on22 === "denied" || on22 === "auth-required")) return "security";
  if (on24 === "executed" || on24 === "source-served") return "security";
  return "behaviour";
}

/** Whether two outcomes differ in access (granted, denied, asked for credentials, 500), whatever was sent. */
export function accessDiffers(on22: PredictedOutcome, on24: PredictedOutcome): boolean {
  const access = (outcome: PredictedOutcome): string => (GRANTED_OUTCOMES.has(outcome) ? "granted" : outcome);
  return access(on22) !== access(on24);
}

/** The more urgent of two (null: none). */
export function worse(a: OutcomeSeverity | null, b: OutcomeSeverity | null): OutcomeSeverity | null {
  if (a === "security" || b === "security") return "security";
  return a ?? b;
}
