// Pure: whether a scenario's outcome changed between two images, as the judge would see it. The earlier image's
// observation stands where the baseline does and the later one where the candidate does; diffScenario compares
// them (status, the headers the judge keeps, body digest, log codes, config test, start), triage tells each
// difference by cause, and what is left is the change: noise (what varies between two answers of one side, the
// Date and Server headers, the ignore file's entries) and what a rule of severity `expected` calls benign (triage
// turns the diff's regression into an expected change) are not
// changes. A difference the scenario's own version ranges predict is still a change, marked as predicted.
import type { SideObservation } from "../../observe/observation.ts";
import { BASELINE, CANDIDATE } from "../../plan/side.ts";
import type { Scenario } from "../../scenario/scenario.ts";
import { checkExpectations } from "../check-expectations.ts";
import type { Difference } from "../difference.ts";
import { diffScenario } from "../diff-scenario.ts";
import { DEFAULT_TRIAGE, triageScenario, type TriageInputs } from "../triage.ts";

/** What one image made of a scenario: its observation, or why there is none (the scenario could not run). */
export type ScenarioOutcome = { observation: SideObservation } | { error: { code: string; message: string } };

/** One difference that is a change, with the cause triage gave it. */
export interface OutcomeDifference extends Difference {
  /** The finding's rule that explains it ("unexplained" when none), or null for one no finding folds. */
  cause: string | null;
}

export interface RequestChange {
  name: string;
  /** What each image answered, in a few words: "200", "no response", "not run". */
  before: string;
  after: string;
  differences: OutcomeDifference[];
}

export interface OutcomeChange {
  changed: boolean;
  /** Every change is an expected one: the scenario's version ranges or seed rows predict it, or a rule of the
   * upgrade guide explains it. */
  predicted: boolean;
  /** Server-level changes: config test, start, startup log; or the scenario's error on one image. */
  server: OutcomeDifference[];
  /** Requests whose outcome changed, in scenario order. */
  requests: RequestChange[];
}

const NOT_CHANGES = new Set<string>(["noise", "same"]);

function answered(observation: SideObservation, name: string): string {
  const outcome = observation.requests.find((r) => r.name === name)?.outcome;
  if (!outcome) return "not observed";
  switch (outcome.kind) {
    case "response":
      return String(outcome.status);
    case "transport-error":
      return `no response (${outcome.code})`;
    case "exec":
      return `exit ${outcome.exitCode}`;
    case "not-run":
      return "not run";
  }
}

export function compareOutcomes(scenario: Scenario, before: ScenarioOutcome, after: ScenarioOutcome, inputs: TriageInputs = DEFAULT_TRIAGE): OutcomeChange {
  if ("error" in before || "error" in after) {
    const text = (o: ScenarioOutcome): string | null => ("error" in o ? `${o.error.code}: ${o.error.message}` : null);
    const same = "error" in before && "error" in after && before.error.code === after.error.code;
    const difference: OutcomeDifference = { field: "error", baseline: text(before), candidate: text(after), class: "error", seed: [], reason: "the scenario could not run on one image", cause: null };
    return { changed: !same, predicted: false, server: same ? [] : [difference], requests: [] };
  }
  // Each side in the judge's places: the earlier image as the baseline, the later as the candidate.
  const baseline: SideObservation = { ...before.observation, side: BASELINE };
  const candidate: SideObservation = { ...after.observation, side: CANDIDATE };
  const checks = [baseline, candidate].map((o) => checkExpectations(scenario, o, "expect").failures);
  const met = (index: number) => (request: string | null) => !checks[index]!.some((f) => f.request === request);
  const diff = diffScenario({ scenario, baseline, candidate, met: { baseline: met(0), candidate: met(1) }, guideWrong: false });
  const triage = triageScenario({
    scenario,
    baseline,
    candidates: [{ observation: candidate, comparison: { candidate: CANDIDATE.id, server: diff.server, requests: diff.requests } }],
    lint: inputs.lint.get(scenario.id),
    rules: inputs.rules,
    ignore: inputs.ignore,
  });
  const comparison = triage.comparisons[0] ?? { candidate: CANDIDATE.id, server: diff.server, requests: diff.requests };
  // The finding that folds each difference: its rule and severity decide whether the difference is benign.
  const causeOf = (request: string | null, difference: Difference): { rule: string; severity: string } | null => {
    const finding = triage.findings.find((f) => f.differences.some((d) => d.request === request && d.field === difference.field));
    return finding ? { rule: finding.rule, severity: finding.severity } : null;
  };
  // What the diff alone called each difference: a regression that triage turned into an expected change by a rule
  // of severity `expected` (the same Vary tokens in another order, an expiry computed from each request's own
  // time, ...) is benign. An expected change the scenario predicts is credited to its seed row: still a change.
  const diffClass = new Map<string, string>();
  for (const d of diff.server) diffClass.set(`\u0000${d.field}`, d.class);
  for (const r of diff.requests) for (const d of r.differences) diffClass.set(`${r.name}\u0000${d.field}`, d.class);
  const changes = (request: string | null, differences: readonly Difference[]): OutcomeDifference[] =>
    differences.flatMap((difference) => {
      if (NOT_CHANGES.has(difference.class)) return [];
      const cause = causeOf(request, difference);
      const benign = cause?.severity === "expected" && diffClass.get(`${request ?? ""}\u0000${difference.field}`) === "regression" && difference.class === "expected-change";
      return benign ? [] : [{ ...difference, cause: cause?.rule ?? null }];
    });
  const server = changes(null, comparison.server);
  const requests = comparison.requests.flatMap((request) => {
    const differences = changes(request.name, request.differences);
    return differences.length === 0 ? [] : [{ name: request.name, before: answered(baseline, request.name), after: answered(candidate, request.name), differences }];
  });
  const all = [...server, ...requests.flatMap((r) => r.differences)];
  return { changed: all.length > 0, predicted: all.length > 0 && all.every((d) => d.class === "expected-change"), server, requests };
}
