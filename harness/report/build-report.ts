// Pure: turns the runs' observations into the report contract, applying the policy (expectations, the guide's
// claims, the diff and its classes) in one place.
import { checkExpectations } from "../diff/check-expectations.ts";
import type { Difference, Verdict } from "../diff/difference.ts";
import { diffScenario } from "../diff/diff-scenario.ts";
import type { ErrorLogRecord } from "../logs/error-log-record.ts";
import type { RequestObservation, Side, SideObservation } from "../run/observation.ts";
import type { ScenarioRun } from "../run/scenario-run.ts";
import type { RequestSpec } from "../scenario/scenario.ts";
import type {
  Report,
  ReportErrorLogLine,
  ReportExpectationResult,
  ReportScenario,
  ReportSideRequest,
  ReportSideServer,
  ReportSummary,
} from "./report-model.ts";
import { REPORT_SCHEMA_VERSION } from "./report-model.ts";

export interface ReportInput {
  toolVersion: string;
  startedAt: Date;
  baseline: { image: string; version: string | null; missing: boolean };
  candidate: { image: string; version: string | null };
  runs: ScenarioRun[];
  durationMs: number;
}

const VERDICT_RANK: Verdict[] = ["same", "noise", "expected-change", "regression", "error"];

function worst(verdicts: Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((acc, v) => (VERDICT_RANK.indexOf(v) > VERDICT_RANK.indexOf(acc) ? v : acc), "same");
}

function logLine(record: ErrorLogRecord): ReportErrorLogLine {
  return { code: record.code, level: record.level, module: record.module, message: record.message, event: record.event, raw: record.raw };
}

function sideRequest(observed: RequestObservation | undefined): ReportSideRequest | null {
  if (!observed) return null;
  const o = observed.outcome;
  return {
    outcome: o.kind,
    status: o.kind === "response" ? o.status : null,
    headers: o.kind === "response" ? o.headers : [],
    body: o.kind === "response" ? o.body.slice(0, 4096) : null,
    transportError: o.kind === "transport-error" ? `${o.code}: ${o.message}` : o.kind === "not-run" ? o.reason : null,
    exec: o.kind === "exec" ? { exitCode: o.exitCode, stdout: o.stdout, stderr: o.stderr } : null,
    errorLog: observed.errorLog.map(logLine),
  };
}

function describeRequest(request: RequestSpec): string {
  switch (request.mode) {
    case "exec":
      return `exec: ${request.exec ?? ""}`;
    case "raw":
      return `raw: ${(request.raw ?? "").split("\r\n")[0] ?? ""}`;
    case "http":
      return `${request.method} ${request.path}${request.host ? ` (Host: ${request.host})` : ""}${request.tls ? " over TLS" : ""}${request.auth ? ` as ${request.auth.user}` : ""}`;
  }
}

function sideServer(observation: SideObservation | undefined): ReportSideServer | null {
  if (!observation) return null;
  return {
    image: observation.server.image,
    version: observation.server.version,
    family: observation.server.family,
    started: observation.started,
    missingModules: observation.missingModules,
    startupLog: observation.startupLog.map(logLine),
    renderedConfig: observation.renderedConfig,
  };
}

function expectationResult(run: ScenarioRun, side: Side): ReportExpectationResult & { perRequest: (name: string | null) => boolean } {
  const observation = run.observations[side];
  if (!observation) {
    const skipped = run.skipped[side] ?? (run.error ? "the scenario could not run" : "not run");
    return { ok: false, stated: false, failures: [], skipped, perRequest: () => false };
  }
  const check = checkExpectations(run.scenario, observation, "expect");
  const failed = (name: string | null): boolean =>
    check.failures.some((f) => (name === null ? !f.startsWith("request ") : f.startsWith(`request ${name}:`)));
  return { ok: check.failures.length === 0, stated: check.stated, failures: check.failures, skipped: null, perRequest: (name) => !failed(name) };
}

export function buildScenarioReport(run: ScenarioRun): ReportScenario {
  const { scenario } = run;
  const baseline = expectationResult(run, "baseline");
  const candidate = expectationResult(run, "candidate");
  const diff = diffScenario(run, { baseline: baseline.perRequest, candidate: candidate.perRequest });
  const guideChecks = (["baseline", "candidate"] as const)
    .map((side) => run.observations[side])
    .filter((o): o is SideObservation => o !== undefined)
    .map((o) => ({ family: o.server.family, check: checkExpectations(scenario, o, "guide") }));
  const guideStated = guideChecks.some((g) => g.check.stated);
  const guideFailures = guideChecks.flatMap((g) => g.check.failures.map((f) => `${g.family}: ${f}`));
  const differences: Difference[] = [...diff.server, ...diff.requests.flatMap((r) => r.differences)];
  const coverage = run.observations.baseline || !run.skipped.baseline ? "both" : "candidate-only";

  let verdict: Verdict;
  if (run.error) verdict = "error";
  else if (!baseline.ok && baseline.stated && baseline.skipped === null) verdict = "regression";
  else if (!candidate.ok && candidate.stated && candidate.skipped === null) verdict = "regression";
  else verdict = worst(differences.map((d) => d.class));

  const { perRequest: _b, ...baselineResult } = baseline;
  const { perRequest: _c, ...candidateResult } = candidate;
  return {
    id: scenario.id,
    title: scenario.title,
    file: scenario.file,
    seed: scenario.seed,
    verdict,
    coverage,
    durationMs: run.durationMs,
    error: run.error,
    expectations: { baseline: baselineResult, candidate: candidateResult },
    guide: {
      claim: scenario.guideClaim,
      holds: guideStated ? guideFailures.length === 0 : null,
      notes: scenario.guideNotes,
      failures: guideFailures,
    },
    configTest: {
      baseline: run.observations.baseline
        ? { ok: run.observations.baseline.configTest.ok, exitCode: run.observations.baseline.configTest.exitCode, messages: run.observations.baseline.configTest.messages }
        : null,
      candidate: run.observations.candidate
        ? { ok: run.observations.candidate.configTest.ok, exitCode: run.observations.candidate.configTest.exitCode, messages: run.observations.candidate.configTest.messages }
        : null,
    },
    servers: { baseline: sideServer(run.observations.baseline), candidate: sideServer(run.observations.candidate) },
    differences: diff.server,
    requests: scenario.requests.map((request) => ({
      name: request.name,
      client: request.client,
      sent: describeRequest(request),
      baseline: sideRequest(run.observations.baseline?.requests.find((r) => r.name === request.name)),
      candidate: sideRequest(run.observations.candidate?.requests.find((r) => r.name === request.name)),
      differences: diff.requests.find((r) => r.name === request.name)?.differences ?? [],
    })),
  };
}

function byRowOrder(a: string, b: string): number {
  const [, la = "", na = "0"] = /^([A-Z]+)(\d+)$/.exec(a) ?? [];
  const [, lb = "", nb = "0"] = /^([A-Z]+)(\d+)$/.exec(b) ?? [];
  return la === lb ? Number(na) - Number(nb) : la.localeCompare(lb);
}

/** Seed rows: covered, where the versions differ, and where a scenario found the guide wrong. */
export function summarizeRows(scenarios: ReportScenario[]): ReportSummary["rows"] {
  const rows = [...new Set(scenarios.flatMap((s) => s.seed))].sort(byRowOrder);
  const guideWrong = rows.flatMap((row) => {
    const wrong = scenarios.filter((s) => s.seed.includes(row) && s.guide.holds === false);
    if (wrong.length === 0) return [];
    const first = wrong[0]!;
    return [{ row, scenarios: wrong.map((s) => s.id), note: first.guide.notes[0] ?? first.guide.failures[0] ?? "the real servers part from the guide" }];
  });
  const differ = rows.filter((row) => scenarios.some((s) => s.seed.includes(row) && (s.verdict === "expected-change" || s.verdict === "regression")));
  return { covered: rows.length, guideHolds: rows.length - guideWrong.length, differ: differ.length, guideWrong };
}

export function summarize(scenarios: ReportScenario[], durationMs: number): ReportSummary {
  const byVerdict: Record<Verdict, number> = { same: 0, "expected-change": 0, regression: 0, noise: 0, error: 0 };
  for (const s of scenarios) byVerdict[s.verdict]++;
  const met = (side: "baseline" | "candidate"): number => scenarios.filter((s) => s.expectations[side].stated && s.expectations[side].ok).length;
  const failed = (side: "baseline" | "candidate"): number =>
    scenarios.filter((s) => s.expectations[side].stated && !s.expectations[side].ok && s.expectations[side].skipped === null).length;
  return {
    scenarios: scenarios.length,
    byVerdict,
    expectationsMet: { baseline: met("baseline"), candidate: met("candidate") },
    expectationsFailed: { baseline: failed("baseline"), candidate: failed("candidate") },
    guideWrong: scenarios
      .filter((s) => s.guide.holds === false)
      .map((s) => ({ id: s.id, seed: s.seed, notes: s.guide.notes.length ? s.guide.notes : s.guide.failures })),
    guideHolds: scenarios.filter((s) => s.guide.holds === true).length,
    rows: summarizeRows(scenarios),
    regressions: byVerdict.regression,
    durationMs,
  };
}

export function buildReport(input: ReportInput): Report {
  const scenarios = input.runs.map(buildScenarioReport);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: "httpd-upgrade-harness", version: input.toolVersion },
    startedAt: input.startedAt.toISOString(),
    baseline: input.baseline,
    candidate: input.candidate,
    scenarios,
    summary: summarize(scenarios, input.durationMs),
  };
}
