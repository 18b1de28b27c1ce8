import type { HarnessErrorCode } from "../errors.ts";
import type { Report } from "../report/report-model.ts";

/** The exit statuses of the CLI contract (design.md). */
export const EXIT = {
  ok: 0,
  regressions: 1,
  badInput: 2,
  environment: 3,
  interrupted: 130,
} as const;

const BY_CODE: Record<HarnessErrorCode, number> = {
  HARNESS_USAGE: EXIT.badInput,
  HARNESS_SCENARIO_PARSE: EXIT.badInput,
  HARNESS_SCENARIO_INVALID: EXIT.badInput,
  HARNESS_SCENARIO_NOT_FOUND: EXIT.badInput,
  HARNESS_CONFIG_FILE: EXIT.badInput,
  HARNESS_IGNORE_FILE: EXIT.badInput,
  // An access log to replay that cannot be read, or holds no line that can be replayed.
  HARNESS_ACCESS_LOG: EXIT.badInput,
  HARNESS_MODULE_UNKNOWN: EXIT.badInput,
  HARNESS_ENGINE_UNAVAILABLE: EXIT.environment,
  // Engines of one run holding different images under one name: the run would not be one run.
  HARNESS_ENGINE_MISMATCH: EXIT.environment,
  HARNESS_FLEET_FILE: EXIT.badInput,
  // A version matrix file (`run --matrix FILE`) that is not YAML or does not follow its format.
  HARNESS_MATRIX_FILE: EXIT.badInput,
  // A blob merge-reports refuses (missing or duplicate shard, mixed manifests, a blob cut short): its inputs.
  HARNESS_BLOB: EXIT.badInput,
  HARNESS_IMAGE_MISSING: EXIT.environment,
  HARNESS_IMAGE_BUILD: EXIT.environment,
  HARNESS_IMAGE_UNSUPPORTED: EXIT.environment,
  HARNESS_CONTAINER: EXIT.environment,
  // A client address or name the engine cannot give (an overlapping network, no IPv6): the environment's limit.
  HARNESS_CLIENT_ADDRESS: EXIT.environment,
  HARNESS_REPORT_WRITE: EXIT.environment,
  HARNESS_INTERRUPTED: EXIT.interrupted,
  // A scenario past its time limit is a finding about the config (a hung request), not the environment's fault.
  HARNESS_DEADLINE: EXIT.regressions,
  HARNESS_INTERNAL: EXIT.environment,
};

export function exitStatusFor(code: HarnessErrorCode): number {
  return BY_CODE[code];
}

/** A finished run's status (design: "Exit status"). 2 when a scenario was bad input, 3 when the environment
 * failed one; else 1 when a finding gates the run — a blocking or security cause, or a regression no rule
 * explains, not predicted by the scenario and not silenced by the ignore file — or a scenario's verdict is
 * regression (a side missed what the scenario states), error (a candidate that does not load, with nothing to
 * compare, is one) or broken-on-both; 0 otherwise. A config 2.4 refuses is never 0: its refusal is blocking. */
export function runExitStatus(report: Report): number {
  const errors = report.scenarios.flatMap((s) => (s.error ? [exitStatusFor(s.error.code as HarnessErrorCode) ?? EXIT.environment] : []));
  if (errors.includes(EXIT.badInput)) return EXIT.badInput;
  if (errors.length > 0) return EXIT.environment;
  if (report.scenarios.some((s) => s.findings.some((f) => f.gating))) return EXIT.regressions;
  const { byVerdict } = report.summary;
  return byVerdict.regression + byVerdict.error + byVerdict["broken-on-both"] > 0 ? EXIT.regressions : EXIT.ok;
}
