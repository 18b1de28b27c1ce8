// One short phrase for what one side of a scenario did: "403", "200, 404", "config test failed",
// "baseline missing". Used by the table-shaped reports.
import type { ReportScenario, ReportSideRequest } from "./report-model.ts";

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

export function describeSide(scenario: ReportScenario, side: ReportSideName): string {
  const server = scenario.servers[side];
  const configTest = scenario.configTest[side];
  if (server === null && configTest === null) {
    if (side === "baseline" && scenario.coverage === "candidate-only") return "baseline missing";
    return scenario.expectations[side].skipped ?? "not run";
  }
  if (configTest !== null && !configTest.ok) return "config test failed";
  if (server !== null && !server.started) return "did not start";
  const outcomes = scenario.requests.map((request) => describeRequestOutcome(request[side]));
  return outcomes.length === 0 ? "started" : outcomes.join(", ");
}
