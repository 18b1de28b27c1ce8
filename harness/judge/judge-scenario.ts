// Pure: the judge stage. From one scenario's observations to what they mean: each side against what the
// scenario states for its version, each candidate against the baseline, the guide's claims, and one verdict.
import type { SideObservation } from "../observe/observation.ts";
import type { ScenarioRun } from "../observe/scenario-run.ts";
import type { Side } from "../plan/side.ts";
import { checkExpectations } from "./check-expectations.ts";
import type { Difference, Verdict } from "./difference.ts";
import { diffScenario } from "./diff-scenario.ts";
import type { ExpectationFailure } from "./expectation-failure.ts";
import { statedFor } from "../scenario/stated-for.ts";
import { worst } from "./verdicts.ts";
import type { Comparison } from "./comparison.ts";
import type { IgnoredDifferences, RunFinding } from "./run-finding.ts";
import { DEFAULT_TRIAGE, triageScenario, type TriageInputs } from "./triage.ts";
import { probeCells, type RunCell } from "./outcome/probe-cells.ts";

export interface SideJudgement {
  side: Side;
  /** The side's observation; null when it did not run. */
  observation: SideObservation | null;
  ok: boolean;
  /** Whether the scenario states expectations for this side's version at all. */
  stated: boolean;
  failures: ExpectationFailure[];
  /** Why expectations were not checked (no image for this side, or the scenario could not run). */
  skipped: string | null;
}

export type { Comparison } from "./comparison.ts";

/** One candidate against the baseline alone: what a version matrix shows per column. */
export interface CandidateJudgement {
  side: Side;
  verdict: Verdict;
}

export interface ScenarioJudgement {
  run: ScenarioRun;
  /** The worst over every candidate: the run's verdict for the scenario. */
  verdict: Verdict;
  /** Each candidate's own verdict, in the run's order (one entry for a one-candidate run). */
  candidates: CandidateJudgement[];
  /** "both" normally; "candidate-only" when the baseline did not run. */
  coverage: "both" | "candidate-only";
  sides: SideJudgement[];
  guide: { claim: string | null; holds: boolean | null; notes: string[]; failures: Array<ExpectationFailure & { side: string; version: string }> };
  comparisons: Comparison[];
  /** The differences told by cause, worst first (triage.ts). */
  findings: RunFinding[];
  /** What the ignore file silenced. */
  ignored: IgnoredDifferences;
  /** The probe requests as cells, per candidate that ran beside a baseline, classed with both sides' witnesses
   * (outcome/probe-cells.ts); empty for a scenario that sends no probes. */
  cells: Array<{ candidate: string; cells: RunCell[] }>;
}

/** Each compared candidate's probe cells, from the differences as triage classed them. */
function scenarioCells(run: ScenarioRun, baseline: SideObservation | null, comparisons: readonly Comparison[]): ScenarioJudgement["cells"] {
  if (baseline === null || !run.scenario.requests.some((r) => r.probe !== undefined)) return [];
  return comparisons.flatMap((comparison) => {
    const candidate = run.observations.find((o) => o.side.id === comparison.candidate);
    if (candidate === undefined) return [];
    const differences = new Map(comparison.requests.map((r) => [r.name, r.differences]));
    return [{ candidate: comparison.candidate, cells: probeCells(run.scenario.requests, baseline, candidate, differences) }];
  });
}

/** Sides that did not come up, and whether the scenario expected that of each. */
function notStarted(side: SideJudgement): boolean {
  return side.observation !== null && !side.observation.started;
}

function expectedNotToStart(side: SideJudgement, scenario: ScenarioRun["scenario"]): boolean {
  if (!side.observation) return false;
  const stated = statedFor(scenario.expect, side.observation.server.version);
  return stated?.started === false || stated?.configTestOk === false;
}

/** The verdict never claims what was not compared: no baseline is "unverified" (or an error when the
 * candidate's own config does not load), both sides down alike is "broken-on-both". */
function decideVerdict(run: ScenarioRun, sides: SideJudgement[], differences: Difference[], compared: boolean): Verdict {
  if (run.error) return "error";
  const unmet = sides.some((s) => s.stated && !s.ok && s.skipped === null);
  const ran = sides.filter((s) => s.observation !== null);
  if (!compared) {
    if (ran.some((s) => notStarted(s) && !expectedNotToStart(s, run.scenario))) return "error";
    return unmet ? "regression" : "unverified";
  }
  if (ran.length > 1 && ran.every((s) => notStarted(s) && !expectedNotToStart(s, run.scenario))) return "broken-on-both";
  return unmet ? "regression" : worst(differences.map((d) => d.class));
}

function judgeSide(run: ScenarioRun, side: Side, observation: SideObservation | undefined): SideJudgement {
  if (!observation) {
    const skipped = run.skipped.find((s) => s.side.id === side.id)?.reason ?? (run.error ? "the scenario could not run" : "not run");
    return { side, observation: null, ok: false, stated: false, failures: [], skipped };
  }
  const check = checkExpectations(run.scenario, observation, "expect");
  return { side, observation, ok: check.failures.length === 0, stated: check.stated, failures: check.failures, skipped: null };
}

/** Whether a side met its expectations for a request (null: the server part). */
function metFor(judgement: SideJudgement): (request: string | null) => boolean {
  return (request) => judgement.observation !== null && !judgement.failures.some((f) => f.request === request);
}

/** A run is judged once per triage inputs: the progress line and the report ask for the same judgement. Runs
 * are not changed after observe returns them, so the judgement can be kept with the run. */
const judged = new WeakMap<ScenarioRun, { inputs: TriageInputs; judgement: ScenarioJudgement }>();

export function judgeScenario(run: ScenarioRun, inputs: TriageInputs = DEFAULT_TRIAGE): ScenarioJudgement {
  const kept = judged.get(run);
  if (kept?.inputs === inputs) return kept.judgement;
  const judgement = judgeScenarioOnce(run, inputs);
  judged.set(run, { inputs, judgement });
  return judgement;
}

function judgeScenarioOnce(run: ScenarioRun, inputs: TriageInputs): ScenarioJudgement {
  const { scenario } = run;
  const planned = [...run.plan.sides.map((s) => s.side), ...run.skipped.map((s) => s.side)];
  const sides = planned
    .filter((side, index) => planned.findIndex((s) => s.id === side.id) === index)
    .sort((a, b) => (a.role === b.role ? 0 : a.role === "baseline" ? -1 : 1))
    .map((side) => judgeSide(run, side, run.observations.find((o) => o.side.id === side.id)));

  const guideChecks = run.observations.map((o) => ({ observation: o, check: checkExpectations(scenario, o, "guide") }));
  const guideStated = guideChecks.some((g) => g.check.stated);
  const guideFailures = guideChecks.flatMap((g) => g.check.failures.map((f) => ({ ...f, side: g.observation.side.id, version: g.observation.server.version.text })));
  const guideHolds = guideStated ? guideFailures.length === 0 : null;

  const baseline = sides.find((s) => s.side.role === "baseline");
  const compared: Comparison[] =
    baseline?.observation
      ? sides
          .filter((s): s is SideJudgement & { observation: SideObservation } => s.side.role === "candidate" && s.observation !== null)
          .map((candidate) => {
            const diff = diffScenario({
              scenario,
              baseline: baseline.observation!,
              candidate: candidate.observation,
              met: { baseline: metFor(baseline), candidate: metFor(candidate) },
              guideWrong: guideHolds === false,
            });
            return { candidate: candidate.side.id, server: diff.server, requests: diff.requests };
          })
      : [];

  const triage = triageScenario({
    scenario,
    baseline: baseline?.observation ?? null,
    candidates: sides
      .filter((s): s is SideJudgement & { observation: SideObservation } => s.side.role === "candidate" && s.observation !== null)
      .map((s) => ({ observation: s.observation, comparison: compared.find((c) => c.candidate === s.side.id) ?? null })),
    lint: inputs.lint.get(scenario.id),
    rules: inputs.rules,
    ignore: inputs.ignore,
  });
  const comparisons = triage.comparisons;
  const differences = comparisons.flatMap((c) => [...c.server, ...c.requests.flatMap((r) => r.differences)]);
  const verdict = decideVerdict(run, sides, differences, baseline?.observation != null);
  // Each candidate as if it were the only one: the baseline, that candidate, and that comparison's differences.
  const candidates = sides
    .filter((s) => s.side.role === "candidate")
    .map((candidate): CandidateJudgement => {
      const comparison = comparisons.find((c) => c.candidate === candidate.side.id);
      const own = comparison ? [...comparison.server, ...comparison.requests.flatMap((r) => r.differences)] : [];
      return { side: candidate.side, verdict: decideVerdict(run, baseline ? [baseline, candidate] : [candidate], own, baseline?.observation != null) };
    });
  return {
    run,
    verdict,
    candidates,
    coverage: baseline?.observation || !run.skipped.some((s) => s.side.role === "baseline") ? "both" : "candidate-only",
    sides,
    guide: { claim: scenario.guideClaim, holds: guideHolds, notes: scenario.guideNotes, failures: guideFailures },
    comparisons,
    cells: scenarioCells(run, baseline?.observation ?? null, comparisons),
    findings: triage.findings,
    ignored: triage.ignored,
  };
}
