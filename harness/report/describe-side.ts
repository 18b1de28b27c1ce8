// One short phrase for what one side of a scenario did: "403", "200, 404", "config test failed",
// "baseline missing"; and the same for each candidate of a version matrix. Used by the table-shaped reports.
// A probe run sends a request per cell (dozens to thousands), so its sides are told by count and the cells by
// class ("60 requests" | "60 cells: 58 equal, 2 widened (security)"), never a status per request.
import { type ClassPainter, probeClassesText } from "./probe-classes.ts";
import type { Report, ReportCandidate, ReportMatrixEntry, ReportScenario, ReportSideRequest } from "./report-model.ts";
import { plural } from "./units.ts";

export type ReportSideName = keyof ReportScenario["expectations"];

export const REPORT_SIDES: readonly ReportSideName[] = ["baseline", "candidate"];

export function describeRequestOutcome(request: ReportSideRequest | null): string {
  if (request === null) return "not observed";
  switch (request.outcome) {
    case "response":
      return request.status === null ? "response" : String(request.status);
    case "transport-error":
      return "no response";
    case "exec":
      return request.exec === null ? "exec" : `exit ${request.exec.exitCode}`;
    case "not-run":
      return "not run";
  }
}

/** The probe cells are judged against the first candidate: its side id. */
const PROBED_SIDE = "candidate";

/** Only the first candidate's side carries the cells' classes: the baseline, and any further candidate, by count. */
function probeRunText(scenario: ReportScenario, side: string, paint: ClassPainter | undefined): string | null {
  if (scenario.probes === null || scenario.requests.length === 0) return null;
  return side === PROBED_SIDE ? probeClassesText(scenario.probes, paint) : plural(scenario.requests.length, "request");
}

export function describeSide(scenario: ReportScenario, side: ReportSideName, paint?: ClassPainter): string {
  const server = scenario.servers[side];
  const configTest = scenario.configTest[side];
  if (server === null && configTest === null) {
    if (side === "baseline" && scenario.coverage === "candidate-only") return "baseline missing";
    return scenario.expectations[side].skipped ?? "not run";
  }
  if (configTest !== null && !configTest.ok) return "config test failed";
  if (server !== null && !server.started) return "did not start";
  const probed = probeRunText(scenario, side, paint);
  if (probed !== null) return probed;
  const outcomes = scenario.requests.map((request) => describeRequestOutcome(request[side]));
  return outcomes.length === 0 ? "started" : outcomes.join(", ");
}

/** The columns of a version matrix, one per candidate in the run's order; empty for a one-candidate run, whose
 * reports keep their baseline and candidate columns. */
export function matrixColumns(report: Report): ReportCandidate[] {
  return report.candidates.length > 1 ? report.candidates : [];
}

/** The candidate's column of a scenario's matrix row: its entry, or null when the scenario has none for it. */
export function matrixEntryOf(scenario: ReportScenario, column: ReportCandidate): ReportMatrixEntry | null {
  return scenario.matrix?.find((entry) => entry.side === column.side) ?? null;
}

/** What one candidate of a matrix did in a scenario, as describeSide says it for a side. */
export function describeMatrixEntry(scenario: ReportScenario, entry: ReportMatrixEntry | null, paint?: ClassPainter): string {
  if (entry === null) return "not run";
  if (entry.configTest === null) return entry.expectations.skipped ?? (scenario.error ? "not run" : "did not start");
  if (!entry.configTest.ok) return "config test failed";
  if (entry.requests.length > 0) {
    const probed = probeRunText(scenario, entry.side, paint);
    if (probed !== null) return probed;
  }
  const outcomes = entry.requests.map((request) => {
    switch (request.outcome) {
      case null:
        return "not observed";
      case "response":
        return request.status === null ? "response" : String(request.status);
      case "transport-error":
        return "no response";
      case "exec":
        return "exec";
      case "not-run":
        return "not run";
    }
  });
  return outcomes.length === 0 ? "started" : outcomes.join(", ");
}

/** A matrix column's heading: the label, with the version when the label does not say it. */
export function columnHeading(column: ReportCandidate): string {
  return column.version === null || column.label.includes(column.version) ? column.label : `${column.label} (${column.version})`;
}
