// Pure: what a fleet's report keeps of each config's scenario while it streams the details from the journal:
// everything the report's head reads (verdicts and counts, findings, expectations, the guide, each side's
// outcome and status per request, the config test) and none of the bulk (response headers, bodies and digests,
// error logs, rendered configs, staged trees, differences). The head of every format renders the same from an
// outline as from the whole scenario (test/unit/fleet/scenario-outline.test.ts); the details are rendered from
// the whole one.
import type { ReportRequest, ReportScenario, ReportSideRequest, ReportSideServer } from "../report/report-model.ts";

function outlineRequest(request: ReportSideRequest | null): ReportSideRequest | null {
  if (request === null) return null;
  return {
    ...request,
    httpVersion: null,
    headers: [],
    body: null,
    bodyBytes: null,
    bodySha256: null,
    transportError: null,
    exec: request.exec === null ? null : { exitCode: request.exec.exitCode, stdout: "", stderr: "" },
    errorLog: [],
  };
}

function outlineServer(server: ReportSideServer | null): ReportSideServer | null {
  if (server === null) return null;
  return { ...server, startFailure: null, missingModules: [], startupLog: [], trailingLog: [], renderedConfig: "", tree: null };
}

export function scenarioOutline(scenario: ReportScenario): ReportScenario {
  return {
    ...scenario,
    servers: { baseline: outlineServer(scenario.servers.baseline), candidate: outlineServer(scenario.servers.candidate) },
    differences: [],
    requests: scenario.requests.map(
      (request): ReportRequest => ({ name: request.name, client: request.client, sent: "", baseline: outlineRequest(request.baseline), candidate: outlineRequest(request.candidate), differences: [] }),
    ),
    matrix:
      scenario.matrix?.map((entry) => ({ ...entry, differences: [], requests: entry.requests.map((request) => ({ ...request, differences: [] })) })) ?? null,
  };
}
