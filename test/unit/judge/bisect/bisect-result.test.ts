// The images a bisect observed, as one version matrix: the first in the baseline's place, the others candidates
// in list order, labelled by their names, so `bisect --report` writes what `run` writes.
import { describe, expect, it } from "vitest";
import { imagesAsMatrix, type ObservedImage } from "../../../../harness/judge/bisect/bisect-result.ts";
import { judgeRun } from "../../../../harness/judge/judge-run.ts";
import type { ScenarioRun } from "../../../../harness/observe/scenario-run.ts";
import { CANDIDATE, type Side } from "../../../../harness/plan/side.ts";
import { buildReport } from "../../../../harness/report/build-report.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { matrixRun, SECOND } from "../../../fixtures/observations/matrix.ts";

/** One image's own run: only the given side of the matrix run, as that run's candidate `side`. */
function alone(run: ScenarioRun, from: Side, as: Side): ScenarioRun {
  const observation = run.observations.find((o) => o.side.id === from.id)!;
  const plan = run.plan.sides.find((s) => s.side.id === from.id)!;
  return { ...run, observations: [{ ...observation, side: as }], plan: { ...run.plan, sides: [{ ...plan, side: as }] } };
}

describe("the observed images as a version matrix", () => {
  const run = matrixRun(500);
  const startedAt = new Date("2026-11-21T22:40:00Z");
  const observed = (index: number, name: string, from: Side, as: Side, round: number): ObservedImage => ({
    image: { index, name, image: `img-${index}`, version: httpdVersion("2.4.62") },
    side: { side: as, image: `img-${index}`, version: "2.4.62", missing: false },
    runs: [alone(run, from, as)],
    startedAt: new Date(startedAt.getTime() + round * 1000),
    durationMs: 1000,
  });

  it("puts the first image in the baseline's place and the others after it, in list order", () => {
    // Observed out of order (bisect looks at the ends first), each its run's "candidate".
    const result = imagesAsMatrix([observed(2, "c", SECOND, CANDIDATE, 0), observed(0, "a", CANDIDATE, CANDIDATE, 0), observed(1, "b", CANDIDATE, CANDIDATE, 1)]);
    expect(result.sides.map((s) => [s.side.id, s.side.role, s.label, s.image])).toEqual([
      ["baseline", "baseline", "a", "img-0"],
      ["candidate", "candidate", "b", "img-1"],
      ["candidate-2", "candidate", "c", "img-2"],
    ]);
    expect(result.runs[0]!.observations.map((o) => o.side.id)).toEqual(["baseline", "candidate", "candidate-2"]);
    expect(result.runs[0]!.plan.sides.map((s) => s.side.id)).toEqual(["baseline", "candidate", "candidate-2"]);
    // Two rounds of observation, each counted once.
    expect(result.durationMs).toBe(2000);
    const report = buildReport(judgeRun(result), "0.1.0");
    expect(report.scenarios[0]!.matrix?.map((m) => [m.label, m.verdict])).toEqual([
      ["b", "same"],
      ["c", "regression"],
    ]);
  });
});
