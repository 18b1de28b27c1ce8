// How every format words a finding: its severity label (a security change says so whatever its severity), its
// config lines as file:line, its requests, and the run's findings in the one order all formats lead with.
import { compareFindings, type ConfigLine } from "../judge/run-finding.ts";
import type { Report, ReportFinding } from "./report-model.ts";

/** A finding of one scenario, for the lists that lead every format. */
export interface LocatedFinding {
  scenario: string;
  finding: ReportFinding;
}

/** Every scenario's findings, worst first across the run (blocking, security, unexplained regressions, ...). */
export function findingsWorstFirst(report: Report): LocatedFinding[] {
  return report.scenarios
    .flatMap((scenario) => scenario.findings.map((finding) => ({ scenario: scenario.id, finding })))
    .sort((a, b) => compareFindings(a.finding, b.finding) || a.scenario.localeCompare(b.scenario));
}

/** "blocking", "security", "security (behaviour)" for a behaviour rule flagged as a security change. */
export function severityLabel(finding: Pick<ReportFinding, "severity" | "security">): string {
  return finding.security && finding.severity !== "security" ? `security (${finding.severity})` : finding.severity;
}

/** Whether the label should stand out: a security change, or what fails the run. */
export function isSecurity(finding: Pick<ReportFinding, "severity" | "security">): boolean {
  return finding.security || finding.severity === "security";
}

/** "conf/httpd.conf:12" */
export function place(line: ConfigLine): string {
  return `${line.file}:${line.line}`;
}

/** The first `max` config lines as file:line (with the directive when `withDirective`), and how many more. */
export function placesText(config: readonly ConfigLine[], max = 3, withDirective = true): string {
  if (config.length === 0) return "";
  const shown = config.slice(0, max).map((line) => (withDirective && line.directive ? `${place(line)} ${line.directive}` : place(line)));
  return config.length > max ? `${shown.join(", ")} and ${config.length - max} more` : shown.join(", ");
}

/** "3 requests: GET /, GET /x, ..." or "" for none. */
export function requestsText(requests: ReportFinding["requests"]): string {
  if (requests.count === 0) return "";
  const more = requests.count > requests.examples.length ? ", …" : "";
  return `${requests.count} request${requests.count === 1 ? "" : "s"}: ${requests.examples.join(", ")}${more}`;
}

/** What the finding says about the config test, when the candidate did not start. */
export function confirmationText(finding: Pick<ReportFinding, "confirmed">): string {
  return finding.confirmed === null ? "" : finding.confirmed ? "confirmed by the config test" : "found by lint; 2.4 stops at its first error";
}
