// Pure: what a fleet's report keeps of each config's scenario while it streams the details from the journal:
// everything the report's head reads (verdicts and counts, findings, expectations, the guide, each side's
// outcome and status per request, the config test) and none of the bulk (response headers, bodies and digests,
// error logs, rendered configs, staged trees, differences). The head of every format renders the same from an
// outline as from the whole scenario (test/unit/fleet/scenario-outline.test.ts); the details are rendered from
// the whole one.
//
// Two lists are kept as their length and little more, the heads reading no more of them: a probe run's cells
// (counted: "144 cells: ...") and a finding's differences (counted, and their classes rank the fleet's causes).
// At 1,000 configs they were some 40% of the outlines' memory (16.0 -> 9.5 MB of heap). What an outline no longer
// holds throws when read, so a head that comes to need it fails its test rather than rendering from nothing.
import type { Difference } from "../judge/difference.ts";
import type { ReportFinding, ReportProbeCell, ReportProbes, ReportRequest, ReportScenario, ReportSideRequest, ReportSideServer } from "../report/report-model.ts";

/** A value of which the outline keeps `kept` only; reading any other field throws. */
function keptOnly<T>(what: string, kept: object): T {
  return new Proxy(kept, {
    get(target, key, receiver) {
      if (typeof key === "symbol" || key in target) return Reflect.get(target, key, receiver);
      throw new Error(`a fleet report's outline keeps no ${String(key)} of ${what} (fleet/scenario-outline.ts): render it from the whole scenario`);
    },
  }) as T;
}

/** Every outlined cell: one value, none of its fields. */
const OUTLINED_CELL = keptOnly<ReportProbeCell>("a probe cell", {});

/** An outlined difference per class: its class alone. */
const outlinedDifferences = new Map<string, ReportFinding["differences"][number]>();
function outlinedDifference(cls: Difference["class"]): ReportFinding["differences"][number] {
  const known = outlinedDifferences.get(cls);
  if (known !== undefined) return known;
  const outlined = keptOnly<ReportFinding["differences"][number]>("a finding's difference", { class: cls });
  outlinedDifferences.set(cls, outlined);
  return outlined;
}

function outlineProbes(probes: ReportProbes | null): ReportProbes | null {
  if (probes === null) return null;
  return { ...probes, cells: probes.cells.map(() => OUTLINED_CELL) };
}

function outlineFinding(finding: ReportFinding): ReportFinding {
  return { ...finding, differences: finding.differences.map((difference) => outlinedDifference(difference.class)) };
}

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
    findings: scenario.findings.map(outlineFinding),
    probes: outlineProbes(scenario.probes),
    differences: [],
    requests: scenario.requests.map(
      (request): ReportRequest => ({ name: request.name, client: request.client, sent: "", baseline: outlineRequest(request.baseline), candidate: outlineRequest(request.candidate), differences: [] }),
    ),
    matrix:
      scenario.matrix?.map((entry) => ({ ...entry, differences: [], requests: entry.requests.map((request) => ({ ...request, differences: [] })) })) ?? null,
  };
}
