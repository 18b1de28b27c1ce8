// For tests that compare two runs of the same work (over one engine and over several; sharded and whole): what
// a JSON report judged, without what differs between any two runs. Times and durations, the engine names, the
// values the servers answered (dates, addresses and ports the engine chose, server-status pages) go; every
// verdict, finding, expectation, config test and difference (field, class, seed, reason) stays. Differences that
// only the clock makes are left out, and a scenario that was noise only through them is the same: the second of a
// Date header (or of a file's mtime the harness staged) can tick between the two sides of one run and not the
// other's.
import type { Difference } from "../../harness/judge/difference.ts";
import type { Report, ReportFailure, ReportScenario } from "../../harness/report/report-model.ts";

/** Fields whose values come from the clock: when the answer was made, or when the harness staged a file. */
const CLOCK_FIELDS = /^header:(date|last-modified|etag|expires|age)$/;

function judgedDifferences(differences: readonly Difference[]): string[] {
  return differences.filter((d) => !CLOCK_FIELDS.test(d.field)).map((d) => `${d.field} ${d.class} [${d.seed.join(",")}] ${d.reason}`);
}

function failures(list: readonly ReportFailure[]): string[] {
  return list.map((f) => `${f.kind} ${f.request ?? "(server)"} ${f.field} wanted ${f.expected}`);
}

export interface JudgedScenario {
  id: string;
  verdict: string;
  coverage: string;
  error: string | null;
  findings: string[];
  expectations: { baseline: [boolean, boolean, string[]]; candidate: [boolean, boolean, string[]] };
  guide: boolean | null;
  configTest: [boolean | null, boolean | null];
  started: [boolean | null, boolean | null];
  differences: string[];
  requests: Array<{ name: string; client: string; sent: string; answers: [string, string]; differences: string[] }>;
}

function answer(side: ReportScenario["requests"][number]["baseline"]): string {
  if (side === null) return "none";
  return side.outcome === "response" ? `${side.status}` : side.outcome === "exec" ? `exec ${side.exec?.exitCode}` : side.outcome;
}

export function judgedScenario(scenario: ReportScenario): JudgedScenario {
  const requests = scenario.requests.map((request) => ({
    name: request.name,
    client: request.client,
    sent: request.sent,
    answers: [answer(request.baseline), answer(request.candidate)] as [string, string],
    differences: judgedDifferences(request.differences),
  }));
  const differences = judgedDifferences(scenario.differences);
  const onlyClock = scenario.verdict === "noise" && differences.length === 0 && requests.every((r) => r.differences.length === 0);
  return {
    id: scenario.id,
    verdict: onlyClock ? "same" : scenario.verdict,
    coverage: scenario.coverage,
    error: scenario.error?.code ?? null,
    findings: scenario.findings.map((f) => `${f.rule} ${f.severity} gating=${f.gating} predicted=${f.predicted} requests=${f.requests.count} ${judgedDifferences(f.differences).join("; ")}`),
    expectations: {
      baseline: [scenario.expectations.baseline.ok, scenario.expectations.baseline.stated, failures(scenario.expectations.baseline.failures)],
      candidate: [scenario.expectations.candidate.ok, scenario.expectations.candidate.stated, failures(scenario.expectations.candidate.failures)],
    },
    guide: scenario.guide.holds,
    configTest: [scenario.configTest.baseline?.ok ?? null, scenario.configTest.candidate?.ok ?? null],
    started: [scenario.servers.baseline?.started ?? null, scenario.servers.candidate?.started ?? null],
    differences,
    requests,
  };
}

/** A report's judgement, scenarios by id: what two runs of the same work must agree on. */
export function judgedReport(report: Report): { sides: string[]; scenarios: JudgedScenario[]; findings: string[]; rows: unknown; regressions: number } {
  return {
    sides: report.sides.map((side) => `${side.id} ${side.image} ${side.version} ${side.missing}`),
    scenarios: report.scenarios.map(judgedScenario).sort((a, b) => a.id.localeCompare(b.id)),
    findings: report.summary.findings.map((f) => `${f.rule} ${f.severity} gating=${f.gating} ${[...f.scenarios].sort().join(",")} requests=${f.requests}`),
    rows: report.summary.rows,
    regressions: report.summary.regressions,
  };
}
