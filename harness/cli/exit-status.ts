import type { HarnessErrorCode } from "../errors.ts";

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
  HARNESS_MODULE_UNKNOWN: EXIT.badInput,
  HARNESS_ENGINE_UNAVAILABLE: EXIT.environment,
  HARNESS_IMAGE_MISSING: EXIT.environment,
  HARNESS_IMAGE_BUILD: EXIT.environment,
  HARNESS_IMAGE_UNSUPPORTED: EXIT.environment,
  HARNESS_CONTAINER: EXIT.environment,
  HARNESS_REPORT_WRITE: EXIT.environment,
  HARNESS_INTERRUPTED: EXIT.interrupted,
  // A scenario past its time limit is a finding about the config (a hung request), not the environment's fault.
  HARNESS_DEADLINE: EXIT.regressions,
  HARNESS_INTERNAL: EXIT.environment,
};

export function exitStatusFor(code: HarnessErrorCode): number {
  return BY_CODE[code];
}
