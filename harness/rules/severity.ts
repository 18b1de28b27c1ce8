// How urgent a finding is, for the operator and for `--fail-on`.

/** Most urgent first: the order findings are listed in and `--fail-on` counts by.
 * - blocking: 2.4 refuses to start (config test or start-up);
 * - security: 2.4 grants what 2.2 refused, or shows what 2.2 hid;
 * - behaviour: it starts, but answers or logs differently;
 * - deprecated: it works, but warns or will break later;
 * - expected: a known benign difference (version strings, ETag shape, ...), shown only in the run's report. */
export const SEVERITIES = ["blocking", "security", "behaviour", "deprecated", "expected"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Whether `severity` is at least as urgent as `threshold`. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);
}
