// Pure: the judged run in the shape of the report contract (report-model.ts). It decides nothing: verdicts,
// failures and differences come from judge/; this only picks and words what the contract carries.
import type { Difference, Verdict } from "../judge/difference.ts";
import { describeFailure, type ExpectationFailure } from "../judge/expectation-failure.ts";
import type { CandidateSummary, RunJudgement, RunSummary } from "../judge/judge-run.ts";
import type { ScenarioJudgement, SideJudgement } from "../judge/judge-scenario.ts";
import type { RunCell } from "../judge/outcome/probe-cells.ts";
import type { ErrorLogRecord } from "../logs/error-log-record.ts";
import type { RequestObservation, SideObservation } from "../observe/observation.ts";
import { formatPosition } from "../errors.ts";
import type { PlannedRequest } from "../plan/scenario-plan.ts";
import type { RequestSpec } from "../scenario/scenario.ts";
import type {
  Report,
  ReportCandidate,
  ReportConfigTest,
  ReportErrorLogLine,
  ReportEngine,
  ReportFleet,
  ReportSide,
  ReportExpectationResult,
  ReportFailure,
  ReportMatrixEntry,
  ReportCellClass,
  ReportProbeCell,
  ReportProbes,
  ReportScenario,
  ReportSideRequest,
  ReportSideServer,
} from "./report-model.ts";
import { REPORT_SCHEMA_VERSION } from "./report-model.ts";

/** How much of a body the report keeps; bodies are compared whole, by length and digest. */
const REPORT_BODY_CHARS = 4096;

function logLine(record: ErrorLogRecord): ReportErrorLogLine {
  return { code: record.code, level: record.level, module: record.module, message: record.message, event: record.event, raw: record.raw };
}

export function reportFailure(failure: ExpectationFailure): ReportFailure {
  return {
    kind: failure.kind,
    request: failure.request,
    field: failure.field,
    expected: failure.expected,
    actual: failure.actual,
    at: failure.at ? formatPosition(failure.at) : null,
    message: describeFailure(failure),
  };
}

function sideRequest(observed: RequestObservation | undefined): ReportSideRequest | null {
  if (!observed) return null;
  const o = observed.outcome;
  const response = o.kind === "response" ? o : null;
  return {
    outcome: o.kind,
    status: response?.status ?? null,
    httpVersion: response?.httpVersion ?? null,
    headers: response?.headers ?? [],
    body: response ? response.body.slice(0, REPORT_BODY_CHARS) : null,
    bodyBytes: response?.bodyBytes ?? null,
    bodySha256: response?.bodySha256 ?? null,
    transportError: o.kind === "transport-error" ? `${o.code}: ${o.message}` : o.kind === "not-run" ? o.reason : null,
    exec: o.kind === "exec" ? { exitCode: o.exitCode, stdout: o.stdout, stderr: o.stderr } : null,
    errorLog: observed.errorLog.map(logLine),
  };
}

/** What was sent, as a person reads it; from the plan when there is one (variables filled). */
export function describeRequest(request: RequestSpec | PlannedRequest): string {
  switch (request.mode) {
    case "exec":
      return `exec: ${request.exec ?? ""}`;
    case "raw":
      return `raw: ${(request.raw ?? "").split("\r\n")[0] ?? ""}`;
    case "http": {
      const host = "hostHeader" in request ? request.hostHeader : request.host;
      return `${request.method} ${request.path}${host ? ` (Host: ${host})` : ""}${request.tls ? " over TLS" : ""}${request.auth ? ` as ${request.auth.user}` : ""}`;
    }
  }
}

function sideServer(observation: SideObservation | null | undefined): ReportSideServer | null {
  if (!observation) return null;
  return {
    image: observation.server.image,
    version: observation.server.version.text,
    family: observation.server.version.family,
    started: observation.started,
    startFailure: observation.startFailure,
    missingModules: observation.missingModules,
    startupLog: observation.startupLog.map(logLine),
    trailingLog: observation.trailingLog.map(logLine),
    renderedConfig: observation.renderedConfig,
    tree: observation.tree
      ? {
          origin: observation.tree.origin,
          layout: observation.tree.layout,
          mount: observation.tree.mount,
          mainFile: observation.tree.mainFile,
          defines: observation.tree.defines,
          files: observation.tree.files,
          adaptations: observation.tree.adaptations,
          stubs: observation.tree.stubs,
          problems: observation.tree.problems.map((p) => ({ severity: p.severity, file: p.file, line: p.line, column: p.column, message: p.message, hint: p.hint ?? null })),
        }
      : null,
  };
}

function expectationResult(judgement: SideJudgement | undefined): ReportExpectationResult {
  if (!judgement) return { ok: false, stated: false, failures: [], skipped: "not run" };
  return { ok: judgement.ok, stated: judgement.stated, failures: judgement.failures.map(reportFailure), skipped: judgement.skipped };
}

function configTestOf(observation: SideObservation | null | undefined): ReportConfigTest | null {
  return observation
    ? { ok: observation.configTest.ok, exitCode: observation.configTest.exitCode, messages: observation.configTest.messages, syntaxError: observation.configTest.syntaxError }
    : null;
}

/** Every candidate of a matrix side by side; null for a one-candidate run (schema 2.3). */
function matrixOf(judgement: ScenarioJudgement, candidates: readonly CandidateSummary[]): ReportMatrixEntry[] | null {
  const sides = judgement.sides.filter((s) => s.side.role === "candidate");
  if (sides.length < 2) return null;
  return sides.map((side) => {
    const comparison = judgement.comparisons.find((c) => c.candidate === side.side.id);
    const summary = candidates.find((c) => c.side.id === side.side.id);
    return {
      side: side.side.id,
      label: summary?.label ?? side.observation?.server.image ?? side.side.id,
      image: side.observation?.server.image ?? summary?.image ?? "",
      version: side.observation?.server.version.text ?? summary?.version ?? null,
      verdict: judgement.candidates.find((c) => c.side.id === side.side.id)?.verdict ?? judgement.verdict,
      expectations: expectationResult(side),
      configTest: configTestOf(side.observation),
      differences: comparison?.server ?? [],
      requests: judgement.run.scenario.requests.map((request) => {
        const observed = side.observation?.requests.find((r) => r.name === request.name);
        return {
          name: request.name,
          outcome: observed?.outcome.kind ?? null,
          status: observed?.outcome.kind === "response" ? observed.outcome.status : null,
          differences: comparison?.requests.find((r) => r.name === request.name)?.differences ?? [],
        };
      }),
    };
  });
}

/** A scenario judged on its own (a matrix's columns labelled by image). One argument, so `.map(buildScenarioReport)`
 * stays right. */
export function buildScenarioReport(judgement: ScenarioJudgement): ReportScenario {
  return buildScenarioReportOf(judgement, []);
}

/** `candidates`: the run's, whose labels name a matrix's columns. */
export function buildScenarioReportOf(judgement: ScenarioJudgement, candidates: readonly CandidateSummary[]): ReportScenario {
  const { run } = judgement;
  const { scenario } = run;
  const baseline = judgement.sides.find((s) => s.side.role === "baseline");
  const candidate = judgement.sides.find((s) => s.side.role === "candidate");
  // The contract's two columns: the baseline and the first candidate.
  const comparison = judgement.comparisons.find((c) => c.candidate === candidate?.side.id);
  const configTest = configTestOf;
  const planned = run.plan.sides.find((s) => s.side.id === candidate?.side.id) ?? run.plan.sides[0];
  const differences: Difference[] = comparison?.server ?? [];
  return {
    id: scenario.id,
    title: scenario.title,
    file: scenario.file,
    seed: scenario.seed,
    verdict: judgement.verdict,
    coverage: judgement.coverage,
    durationMs: run.durationMs,
    engine: run.engine ?? null,
    error: run.error,
    findings: judgement.findings,
    ignored: judgement.ignored,
    expectations: { baseline: expectationResult(baseline), candidate: expectationResult(candidate) },
    guide: {
      claim: judgement.guide.claim,
      holds: judgement.guide.holds,
      notes: judgement.guide.notes,
      failures: judgement.guide.failures.map((f) => ({ ...reportFailure(f), side: f.side, version: f.version })),
    },
    configTest: { baseline: configTest(baseline?.observation), candidate: configTest(candidate?.observation) },
    servers: { baseline: sideServer(baseline?.observation), candidate: sideServer(candidate?.observation) },
    differences,
    requests: scenario.requests.map((request) => ({
      name: request.name,
      client: request.client,
      sent: describeRequest(planned?.requests.find((r) => r.name === request.name) ?? request),
      baseline: sideRequest(baseline?.observation?.requests.find((r) => r.name === request.name)),
      candidate: sideRequest(candidate?.observation?.requests.find((r) => r.name === request.name)),
      differences: comparison?.requests.find((r) => r.name === request.name)?.differences ?? [],
    })),
    matrix: matrixOf(judgement, candidates),
    probes: probesOf(judgement.cells.find((c) => c.candidate === candidate?.side.id)?.cells ?? null),
  };
}

/** The first candidate's probe cells as the report keeps them, with their count per class. */
function probesOf(cells: readonly RunCell[] | null): ReportProbes | null {
  if (cells === null || cells.length === 0) return null;
  return reportProbes(cells.map((cell) => ({
    request: cell.request,
    cell: cell.probe.cell,
    vhost: cell.probe.vhost,
    region: cell.probe.region,
    client: cell.probe.clientRange,
    credentials: cell.probe.credentials,
    user: cell.probe.user,
    method: cell.method,
    path: cell.path,
    class: cell.class,
    reason: cell.reason,
    proven: cell.class === "equal",
    baseline: cell.baseline,
    candidate: cell.candidate,
  })));
}

/** Cells with their count per class and the number proven. */
export function reportProbes(cells: ReportProbeCell[]): ReportProbes {
  const classes: Record<ReportCellClass, number> = { equal: 0, vacuous: 0, widened: 0, "source-exposed": 0, narrowed: 0, changed: 0, accepted: 0, unprobed: 0 };
  for (const cell of cells) classes[cell.class]++;
  return { classes, proven: cells.filter((c) => c.proven).length, cells };
}

export function buildReport(judgement: RunJudgement, toolVersion: string): Report {
  const sides = judgement.sides.map((s) => ({ id: s.side.id, role: s.side.role, image: s.image, version: s.version, missing: s.missing }));
  // The engines are named only when there were several (a one-engine run's report is as before 2.3).
  const engines = judgement.engines && judgement.engines.length > 1 ? judgement.engines.map((e) => ({ name: e.name, concurrency: e.concurrency, scenarios: e.scenarios, lost: e.lost })) : null;
  return assembleReport({
    startedAt: judgement.startedAt.toISOString(),
    sides,
    engines,
    candidates: judgement.candidates.map((c) => ({ side: c.side.id, label: c.label, axis: c.axis, image: c.image, version: c.version, byVerdict: c.byVerdict })),
    scenarios: judgement.scenarios.map((scenario) => buildScenarioReportOf(scenario, judgement.candidates)),
    summary: judgement.summary,
    toolVersion,
    fleet: null,
  });
}

/** The candidates a finished report's scenarios give when no judgement names them (a fleet merged from its
 * shards' reports): each candidate side, labelled as its side says (else by its image), counted by its own verdicts (a scenario's matrix
 * entry, else, for a one-candidate run, the scenario's verdict). */
export function candidatesOfReport(sides: ReadonlyArray<ReportSide & { label?: string; axis?: ReportCandidate["axis"] }>, scenarios: readonly ReportScenario[]): ReportCandidate[] {
  return sides
    .filter((s) => s.role === "candidate")
    .map((side, index) => {
      const byVerdict: Record<Verdict, number> = { same: 0, "expected-change": 0, regression: 0, noise: 0, error: 0, unverified: 0, "broken-on-both": 0 };
      for (const scenario of scenarios) {
        const own = scenario.matrix?.find((entry) => entry.side === side.id)?.verdict ?? (index === 0 && scenario.matrix === null ? scenario.verdict : undefined);
        if (own !== undefined) byVerdict[own]++;
      }
      return { side: side.id, label: side.label ?? side.image, axis: side.axis ?? null, image: side.image, version: side.version, byVerdict };
    });
}

/** The report from its parts: a run's, or a fleet's put together from its configs' scenarios (fleet/). */
export function assembleReport(parts: {
  startedAt: string;
  sides: ReportSide[];
  /** The run's candidates with labels and axes; absent: read from the sides and the scenarios. */
  candidates?: ReportCandidate[];
  engines: ReportEngine[] | null;
  scenarios: ReportScenario[];
  summary: RunSummary;
  toolVersion: string;
  fleet: ReportFleet | null;
}): Report {
  const { sides, summary } = parts;
  const baseline = sides.find((s) => s.role === "baseline");
  const candidate = sides.find((s) => s.role === "candidate");
  const byRole = (counts: Record<string, number>) => ({ baseline: counts[baseline?.id ?? ""] ?? 0, candidate: counts[candidate?.id ?? ""] ?? 0 });
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: "httpd-upgrade-harness", version: parts.toolVersion },
    startedAt: parts.startedAt,
    sides: sides.map((s) => ({ id: s.id, role: s.role, image: s.image, version: s.version, missing: s.missing })),
    baseline: { image: baseline?.image ?? "", version: baseline?.version ?? null, missing: baseline?.missing ?? true },
    candidate: { image: candidate?.image ?? "", version: candidate?.version ?? null },
    candidates: parts.candidates ?? candidatesOfReport(sides, parts.scenarios),
    engines: parts.engines,
    scenarios: parts.scenarios,
    summary: { ...summary, expectationsMet: byRole(summary.expectationsMet), expectationsFailed: byRole(summary.expectationsFailed) },
    fleet: parts.fleet,
  };
}
