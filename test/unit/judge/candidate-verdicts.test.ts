// A version matrix: each candidate gets its own verdict against the baseline, beside the scenario's worst one.
import { describe, expect, it } from "vitest";
import { summarizeCandidates } from "../../../harness/judge/judge-run.ts";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import type { SideObservation } from "../../../harness/observe/observation.ts";
import type { RunSide } from "../../../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { planScenario } from "../../../harness/plan/plan-scenario.ts";
import { BASELINE, CANDIDATE, type Side } from "../../../harness/plan/side.ts";
import { F_TXT_BODY, F_TXT_HEADERS, recordedInspection, requestObservation, response } from "../../fixtures/observations/recorded.ts";
import { F_YAML, fObservations, run, scenario } from "../../fixtures/observations/scenarios.ts";

const SECOND: Side = { id: "candidate-2", role: "candidate" };

/** Case f with a second candidate: the same 2.4 answers, or a 500 in their place. */
function matrixRun(secondStatus: number): ScenarioRun {
  const f = scenario(F_YAML);
  const { baseline, candidate } = fObservations(f);
  const answer = { outcome: response(secondStatus, F_TXT_HEADERS["2.4"], F_TXT_BODY) };
  const second: SideObservation = { ...candidate, side: SECOND, requests: [requestObservation("file", "2.4", answer, answer)] };
  const plan = planScenario(f, [
    { side: BASELINE, inspection: recordedInspection("2.2") },
    { side: CANDIDATE, inspection: recordedInspection("2.4") },
    { side: SECOND, inspection: recordedInspection("2.4") },
  ]);
  return { ...run(f, { baseline, candidate }), plan, observations: [baseline, candidate, second] };
}

describe("each candidate's own verdict", () => {
  it("is judged against the baseline alone; the scenario's verdict is the worst of them", () => {
    const judgement = judgeScenario(matrixRun(500));
    expect(judgement.candidates.map((c) => [c.side.id, c.verdict])).toEqual([
      ["candidate", "expected-change"],
      ["candidate-2", "regression"],
    ]);
    expect(judgement.verdict).toBe("regression");
  });

  it("is the same for every candidate that answers alike", () => {
    const judgement = judgeScenario(matrixRun(200));
    expect(judgement.candidates.map((c) => c.verdict)).toEqual(["expected-change", "expected-change"]);
    expect(judgement.verdict).toBe("expected-change");
  });

  it("is the scenario's verdict in a one-candidate run", () => {
    const f = scenario(F_YAML);
    const judgement = judgeScenario(run(f, fObservations(f)));
    expect(judgement.candidates).toEqual([{ side: CANDIDATE, verdict: judgement.verdict }]);
  });
});

describe("the run's candidates", () => {
  const sides: RunSide[] = [
    { side: BASELINE, image: "httpd:2.2.34", version: "2.2.34", missing: false },
    { side: CANDIDATE, image: "httpd:2.4.62", version: "2.4.62", missing: false, label: "2.4.62" },
    { side: SECOND, image: "harness-httpd-debian:x", version: "2.4.62", missing: false, label: "debian", axis: "distribution" },
  ];

  it("carry their labels, axes (read from the layout when not stated) and verdict counts", () => {
    const scenarios = [matrixRun(500), matrixRun(200)].map((r) => judgeScenario(r));
    expect(summarizeCandidates(scenarios, sides).map(({ side, label, axis, image, byVerdict }) => [side.id, label, axis, image, byVerdict["expected-change"], byVerdict.regression])).toEqual([
      ["candidate", "2.4.62", "upstream", "httpd:2.4.62", 2, 0],
      ["candidate-2", "debian", "distribution", "harness-httpd-debian:x", 1, 1],
    ]);
  });

  it("are labelled by image, with no axis, when nothing says and nothing ran", () => {
    expect(summarizeCandidates([], [{ side: CANDIDATE, image: "httpd:2.4", version: null, missing: false }])).toMatchObject([{ label: "httpd:2.4", axis: null }]);
  });
});
