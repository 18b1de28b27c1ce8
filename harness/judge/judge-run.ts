// Pure: every scenario of a run judged, and the run's tally: verdicts, expectations met, and the upgrade
// guide's rows (covered, where the versions differ, where the real servers part from the guide).
import type { HarnessRunResult, RunSide } from "../observe/run-harness.ts";
import type { Verdict } from "./difference.ts";
import { describeFailure } from "./expectation-failure.ts";
import { judgeScenario, type ScenarioJudgement } from "./judge-scenario.ts";
import { compareFindings, type ConfigLine, type FindingSeverity, type RunFinding } from "./run-finding.ts";
import { DEFAULT_TRIAGE, type TriageInputs } from "./triage.ts";
import { ruleById } from "../rules/all-rules.ts";
import type { MatrixAxis, Side } from "../plan/side.ts";

export interface RowSummary {
  /** Seed rows the run's scenarios exercise. */
  covered: number;
  /** Rows none of whose scenarios found the guide wrong. */
  guideHolds: number;
  /** Rows where at least one scenario saw the versions differ. */
  differ: number;
  /** Rows where a scenario found the real servers parting from the guide, with the first such note. */
  guideWrong: Array<{ row: string; scenarios: string[]; note: string }>;
}

export interface RunSummary {
  scenarios: number;
  byVerdict: Record<Verdict, number>;
  /** Scenarios whose stated expectations a side met, and failed (skipped sides count in neither). */
  expectationsMet: Record<string, number>;
  expectationsFailed: Record<string, number>;
  /** Scenarios where the real servers part from the upgrade guide. */
  guideWrong: Array<{ id: string; seed: string[]; notes: string[] }>;
  guideHolds: number;
  rows: RowSummary;
  regressions: number;
  /** The run's findings by cause, across scenarios, worst first. */
  findings: FindingSummary[];
  /** What the ignore file silenced, by the cause's rule. */
  ignored: { byRule: Record<string, number> };
  durationMs: number;
}

/** One cause across the run's scenarios. */
export interface FindingSummary {
  rule: string;
  severity: FindingSeverity;
  security: boolean;
  title: string;
  /** Scenarios it was found in. */
  scenarios: string[];
  /** Requests affected, summed over its scenarios. */
  requests: number;
  config: ConfigLine[];
  /** Whether any of its findings fails the run. */
  gating: boolean;
}

/** A candidate of the run as a version matrix shows it: its label, its axis, its verdicts. */
export interface CandidateSummary {
  side: Side;
  label: string;
  /** As the command line stated it, else read from the image's layout (Debian's is a distribution build); null
   * when neither says (the image did not run). */
  axis: MatrixAxis | null;
  image: string;
  version: string | null;
  /** Scenarios by this candidate's own verdict. */
  byVerdict: Record<Verdict, number>;
}

export interface RunJudgement {
  startedAt: Date;
  sides: RunSide[];
  /** Every candidate, in the run's order. */
  candidates: CandidateSummary[];
  scenarios: ScenarioJudgement[];
  summary: RunSummary;
}

/** The axis a layout's build is on when the command line does not say: the official images' layout is
 * upstream's own; a distribution's layout (Debian's /etc/apache2) means that distribution's build. */
const AXIS_OF_LAYOUT: Readonly<Record<string, MatrixAxis>> = { official: "upstream", debian: "distribution", rhel: "distribution" };

export function summarizeCandidates(scenarios: readonly ScenarioJudgement[], sides: readonly RunSide[]): CandidateSummary[] {
  return sides
    .filter((s) => s.side.role === "candidate")
    .map((s) => {
      const byVerdict = emptyTally();
      for (const judgement of scenarios) {
        const own = judgement.candidates.find((c) => c.side.id === s.side.id);
        if (own) byVerdict[own.verdict]++;
      }
      const profile = scenarios.flatMap((j) => j.run.observations).find((o) => o.side.id === s.side.id)?.server.profile;
      const axis = s.axis ?? (profile === undefined ? null : (AXIS_OF_LAYOUT[profile] ?? null));
      return { side: s.side, label: s.label ?? s.image, axis, image: s.image, version: s.version, byVerdict };
    });
}

function emptyTally(): Record<Verdict, number> {
  return { same: 0, "expected-change": 0, regression: 0, noise: 0, error: 0, unverified: 0, "broken-on-both": 0 };
}

function byRowOrder(a: string, b: string): number {
  const [, la = "", na = "0"] = /^([A-Z]+)(\d+)$/.exec(a) ?? [];
  const [, lb = "", nb = "0"] = /^([A-Z]+)(\d+)$/.exec(b) ?? [];
  return la === lb ? Number(na) - Number(nb) : la.localeCompare(lb);
}

function guideNotes(judgement: ScenarioJudgement): string[] {
  return judgement.guide.notes.length ? judgement.guide.notes : judgement.guide.failures.map((f) => `${f.version}: ${describeFailure(f)}`);
}

export function summarizeRows(scenarios: readonly ScenarioJudgement[]): RowSummary {
  // The rows a scenario names; a run of an operator's tree names none, and exercises the rows of the rules its
  // findings name (the constructs it holds).
  const seedOf = (s: ScenarioJudgement): string[] =>
    s.run.scenario.seed.length > 0
      ? s.run.scenario.seed
      : [...new Set(s.findings.flatMap((finding) => (finding.severity === "expected" ? [] : (ruleById(finding.rule)?.seed ?? []))))];
  const rows = [...new Set(scenarios.flatMap(seedOf))].sort(byRowOrder);
  const guideWrong = rows.flatMap((row) => {
    const wrong = scenarios.filter((s) => seedOf(s).includes(row) && s.guide.holds === false);
    if (wrong.length === 0) return [];
    return [{ row, scenarios: wrong.map((s) => s.run.scenario.id), note: guideNotes(wrong[0]!)[0] ?? "the real servers part from the guide" }];
  });
  const differ = rows.filter((row) => scenarios.some((s) => seedOf(s).includes(row) && (s.verdict === "expected-change" || s.verdict === "regression")));
  return { covered: rows.length, guideHolds: rows.length - guideWrong.length, differ: differ.length, guideWrong };
}

export function summarize(scenarios: readonly ScenarioJudgement[], sides: readonly RunSide[], durationMs: number): RunSummary {
  const byVerdict = emptyTally();
  for (const s of scenarios) byVerdict[s.verdict]++;
  const count = (sideId: string, met: boolean): number =>
    scenarios.filter((s) => s.sides.some((j) => j.side.id === sideId && j.stated && j.skipped === null && j.ok === met)).length;
  return {
    scenarios: scenarios.length,
    byVerdict,
    expectationsMet: Object.fromEntries(sides.map((s) => [s.side.id, count(s.side.id, true)])),
    expectationsFailed: Object.fromEntries(sides.map((s) => [s.side.id, count(s.side.id, false)])),
    guideWrong: scenarios.filter((s) => s.guide.holds === false).map((s) => ({ id: s.run.scenario.id, seed: s.run.scenario.seed, notes: guideNotes(s) })),
    guideHolds: scenarios.filter((s) => s.guide.holds === true).length,
    rows: summarizeRows(scenarios),
    regressions: byVerdict.regression,
    findings: summarizeFindings(scenarios),
    ignored: { byRule: ignoredByRule(scenarios) },
    durationMs,
  };
}

export function summarizeFindings(scenarios: readonly ScenarioJudgement[]): FindingSummary[] {
  const byRule = new Map<string, { finding: RunFinding; summary: FindingSummary }>();
  for (const judgement of scenarios) {
    for (const finding of judgement.findings) {
      let entry = byRule.get(finding.rule);
      if (!entry) {
        const summary: FindingSummary = { rule: finding.rule, severity: finding.severity, security: finding.security, title: finding.title, scenarios: [], requests: 0, config: [], gating: false };
        entry = { finding: { ...finding, requests: { count: 0, examples: [] }, differences: [] }, summary };
        byRule.set(finding.rule, entry);
      }
      const { summary } = entry;
      if (!summary.scenarios.includes(judgement.run.scenario.id)) summary.scenarios.push(judgement.run.scenario.id);
      summary.requests += finding.requests.count;
      summary.gating ||= finding.gating;
      summary.security ||= finding.security;
      for (const line of finding.config) if (!summary.config.some((c) => c.file === line.file && c.line === line.line)) summary.config.push(line);
      // The worst of its findings ranks the cause (an unexplained regression above an unexplained change).
      if (compareFindings(finding, entry.finding) < 0) {
        entry.finding = { ...finding, requests: { count: 0, examples: [] } };
        summary.severity = finding.severity;
      }
    }
  }
  return [...byRule.values()].sort((a, b) => compareFindings(a.finding, b.finding) || b.summary.requests - a.summary.requests).map((entry) => entry.summary);
}

function ignoredByRule(scenarios: readonly ScenarioJudgement[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const judgement of scenarios) for (const [rule, count] of Object.entries(judgement.ignored.byRule)) counts[rule] = (counts[rule] ?? 0) + count;
  return counts;
}

/** `inputs`: the rules, lint's findings on the trees the run used, the ignore file (triage.ts). */
export function judgeRun(result: HarnessRunResult, inputs: TriageInputs = DEFAULT_TRIAGE): RunJudgement {
  const scenarios = result.runs.filter((run) => run !== undefined).map((run) => judgeScenario(run, inputs));
  return {
    startedAt: result.startedAt,
    sides: result.sides,
    candidates: summarizeCandidates(scenarios, result.sides),
    scenarios,
    summary: summarize(scenarios, result.sides, result.durationMs),
  };
}
