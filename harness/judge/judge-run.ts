// Pure: every scenario of a run judged, and the run's tally: verdicts, expectations met, and the upgrade
// guide's rows (covered, where the versions differ, where the real servers part from the guide).
import type { HarnessRunResult, RunEngine, RunSide } from "../observe/run-harness.ts";
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
  /** The engines the run used and what each ran (absent: not recorded). */
  engines?: RunEngine[];
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

/** What the run's tally reads of one judged scenario. A judgement gives it (tallyOf), and so does a scenario of
 * a finished report (report/report-tally.ts): a fleet's shards are merged from reports, and the merged tally must
 * be the one a single run gives. */
export interface ScenarioTally {
  id: string;
  seed: readonly string[];
  verdict: Verdict;
  /** Each side's expectation result: stated, met, or skipped (and why). */
  sides: ReadonlyArray<{ side: string; stated: boolean; ok: boolean; skipped: string | null }>;
  guide: { holds: boolean | null; notes: readonly string[] };
  findings: readonly RunFinding[];
  ignored: { byRule: Readonly<Record<string, number>> };
}

/** A scenario's notes on the guide: its own, else its guide failures as sentences. */
export function guideNotesOf(notes: readonly string[], failures: ReadonlyArray<{ version: string; message: string }>): string[] {
  return notes.length ? [...notes] : failures.map((f) => `${f.version}: ${f.message}`);
}

export function tallyOf(judgement: ScenarioJudgement): ScenarioTally {
  return {
    id: judgement.run.scenario.id,
    seed: judgement.run.scenario.seed,
    verdict: judgement.verdict,
    sides: judgement.sides.map((s) => ({ side: s.side.id, stated: s.stated, ok: s.ok, skipped: s.skipped })),
    guide: { holds: judgement.guide.holds, notes: guideNotesOf(judgement.guide.notes, judgement.guide.failures.map((f) => ({ version: f.version, message: describeFailure(f) }))) },
    findings: judgement.findings,
    ignored: judgement.ignored,
  };
}

function isTally(scenario: ScenarioJudgement | ScenarioTally): scenario is ScenarioTally {
  return !("run" in scenario);
}

function tallies(scenarios: ReadonlyArray<ScenarioJudgement | ScenarioTally>): ScenarioTally[] {
  return scenarios.map((s) => (isTally(s) ? s : tallyOf(s)));
}

export function summarizeRows(scenarios: ReadonlyArray<ScenarioJudgement | ScenarioTally>): RowSummary {
  const list = tallies(scenarios);
  // The rows a scenario names; a run of an operator's tree names none, and exercises the rows of the rules its
  // findings name (the constructs it holds).
  const seedOf = (s: ScenarioTally): readonly string[] =>
    s.seed.length > 0 ? s.seed : [...new Set(s.findings.flatMap((finding) => (finding.severity === "expected" ? [] : (ruleById(finding.rule)?.seed ?? []))))];
  const rows = [...new Set(list.flatMap(seedOf))].sort(byRowOrder);
  const guideWrong = rows.flatMap((row) => {
    const wrong = list.filter((s) => seedOf(s).includes(row) && s.guide.holds === false);
    if (wrong.length === 0) return [];
    return [{ row, scenarios: wrong.map((s) => s.id), note: wrong[0]!.guide.notes[0] ?? "the real servers part from the guide" }];
  });
  const differ = rows.filter((row) => list.some((s) => seedOf(s).includes(row) && (s.verdict === "expected-change" || s.verdict === "regression")));
  return { covered: rows.length, guideHolds: rows.length - guideWrong.length, differ: differ.length, guideWrong };
}

export function summarize(scenarios: ReadonlyArray<ScenarioJudgement | ScenarioTally>, sides: ReadonlyArray<Pick<RunSide, "side">>, durationMs: number): RunSummary {
  const list = tallies(scenarios);
  const byVerdict = emptyTally();
  for (const s of list) byVerdict[s.verdict]++;
  const count = (sideId: string, met: boolean): number =>
    list.filter((s) => s.sides.some((j) => j.side === sideId && j.stated && j.skipped === null && j.ok === met)).length;
  return {
    scenarios: list.length,
    byVerdict,
    expectationsMet: Object.fromEntries(sides.map((s) => [s.side.id, count(s.side.id, true)])),
    expectationsFailed: Object.fromEntries(sides.map((s) => [s.side.id, count(s.side.id, false)])),
    guideWrong: list.filter((s) => s.guide.holds === false).map((s) => ({ id: s.id, seed: [...s.seed], notes: [...s.guide.notes] })),
    guideHolds: list.filter((s) => s.guide.holds === true).length,
    rows: summarizeRows(list),
    regressions: byVerdict.regression,
    findings: summarizeFindings(list),
    ignored: { byRule: ignoredByRule(list) },
    durationMs,
  };
}

export function summarizeFindings(scenarios: ReadonlyArray<ScenarioJudgement | ScenarioTally>): FindingSummary[] {
  const byRule = new Map<string, { finding: RunFinding; summary: FindingSummary }>();
  for (const tally of tallies(scenarios)) {
    for (const finding of tally.findings) {
      // One cause per rule, or per title for a rule whose findings are several causes (one per module).
      const key = ruleById(finding.rule)?.causeByTitle === true ? `${finding.rule}\u0000${finding.title}` : finding.rule;
      let entry = byRule.get(key);
      if (!entry) {
        const summary: FindingSummary = { rule: finding.rule, severity: finding.severity, security: finding.security, title: finding.title, scenarios: [], requests: 0, config: [], gating: false };
        entry = { finding: { ...finding, requests: { count: 0, examples: [] }, differences: [] }, summary };
        byRule.set(key, entry);
      }
      const { summary } = entry;
      if (!summary.scenarios.includes(tally.id)) summary.scenarios.push(tally.id);
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

function ignoredByRule(scenarios: readonly ScenarioTally[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const tally of scenarios) for (const [rule, count] of Object.entries(tally.ignored.byRule)) counts[rule] = (counts[rule] ?? 0) + count;
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
    ...(result.engines ? { engines: result.engines } : {}),
  };
}
