// A version matrix: each candidate gets its own verdict against the baseline, beside the scenario's worst one.
import { describe, expect, it } from "vitest";
import { summarizeCandidates } from "../../../harness/judge/judge-run.ts";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import type { RunSide } from "../../../harness/observe/run-harness.ts";
import { BASELINE, CANDIDATE } from "../../../harness/plan/side.ts";
import { matrixRun, SECOND } from "../../fixtures/observations/matrix.ts";
import { F_YAML, fObservations, run, scenario } from "../../fixtures/observations/scenarios.ts";

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
