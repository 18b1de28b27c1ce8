// One unmet point of what a scenario states (or the guide claims) for a version, as data: what was looked at,
// what was wanted, what was seen, and the scenario line it comes from. Reporters word it; nothing matches on
// its text.
import { formatPosition, type SourcePosition } from "../errors.ts";

export type FailureKind =
  | "prepare"
  | "config-test"
  | "config-test-message"
  | "started"
  | "startup-log"
  | "startup-log-unwanted"
  | "no-observation"
  | "not-run"
  | "transport-error"
  | "exit-code"
  | "stdout"
  | "status"
  | "header"
  | "header-unwanted"
  | "body"
  | "connection-reused"
  | "error-log"
  | "error-log-unwanted"
  | "error-log-not-empty";

export interface ExpectationFailure {
  kind: FailureKind;
  /** The request it is about; null for the server (prepare, config test, start, startup log). */
  request: string | null;
  /** The observed field: "status", "header:content-type", "body", "errorLog", "configTest", ... */
  field: string;
  expected: string;
  actual: string;
  /** The scenario line that states it. */
  at: SourcePosition | null;
}

/** "request r1: status: expected 403, got 200 (file:12:7)". */
export function describeFailure(failure: ExpectationFailure): string {
  const subject = failure.request === null ? failure.field : `request ${failure.request}: ${failure.field}`;
  const where = failure.at ? ` (${formatPosition(failure.at)})` : "";
  return `${subject}: expected ${failure.expected}, got ${failure.actual}${where}`;
}
