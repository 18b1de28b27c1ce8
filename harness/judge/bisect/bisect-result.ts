// Pure: what a bisect found, as its reports show it, and the images it observed as one version matrix (the first
// image in the baseline's place, the others as candidates in list order), so `bisect --report` writes the same
// reports as `run` does, every observed image side by side.
import type { HarnessRunResult, RunSide } from "../../observe/run-harness.ts";
import type { ScenarioRun } from "../../observe/scenario-run.ts";
import { BASELINE, runSides } from "../../plan/side.ts";
import type { BisectImage, ChangePoint } from "./change-points.ts";

export interface BisectResult {
  /** "first": the first image whose outcome differs from the first image's (binary search); "all": every
   * change between neighbours (--all). */
  mode: "first" | "all";
  images: Array<BisectImage & { observed: boolean }>;
  scenarios: number;
  /** The list indexes observed, in the order bisect asked about them. */
  probed: number[];
  /** mode "first": whether the first and the last image agree (then nothing was bisected); null with --all. */
  endsAgree: boolean | null;
  changePoints: ChangePoint[];
}

/** One image's run, as observed: which side of its run it was, and that run's scenario runs. */
export interface ObservedImage {
  image: BisectImage;
  side: RunSide;
  runs: ScenarioRun[];
  startedAt: Date;
  durationMs: number;
}

/** The observed images as one run of a version matrix: the first (in list order) is the baseline, the others
 * candidates ("candidate", "candidate-2", ...) labelled with their names as given. */
export function imagesAsMatrix(observed: readonly ObservedImage[]): HarnessRunResult {
  const ordered = [...observed].sort((a, b) => a.image.index - b.image.index);
  const ids = runSides(Math.max(1, ordered.length - 1));
  const sideOf = (position: number) => (position === 0 ? BASELINE : ids[position]!);
  const sides: RunSide[] = ordered.map((o, position) => ({ ...o.side, side: sideOf(position), label: o.image.name }));
  const scenarioIds = [...new Set(ordered.flatMap((o) => o.runs.map((r) => r.scenario.id)))];
  const runs = scenarioIds.map((id): ScenarioRun => {
    const parts = ordered.map((o, position) => ({ position, o, run: o.runs.find((r) => r.scenario.id === id) }));
    const first = parts.find((p) => p.run)!.run!;
    return {
      scenario: first.scenario,
      plan: {
        ...first.plan,
        sides: parts.flatMap(({ position, o, run }) => {
          const plan = run?.plan.sides.find((s) => s.side.id === o.side.side.id);
          return plan ? [{ ...plan, side: sideOf(position) }] : [];
        }),
      },
      observations: parts.flatMap(({ position, o, run }) => {
        const observation = run?.observations.find((obs) => obs.side.id === o.side.side.id);
        return observation ? [{ ...observation, side: sideOf(position) }] : [];
      }),
      skipped: [],
      error: parts.find((p) => p.run?.error)?.run?.error ?? null,
      durationMs: parts.reduce((sum, p) => sum + (p.run?.durationMs ?? 0), 0),
    };
  });
  return {
    startedAt: ordered.reduce((earliest, o) => (o.startedAt < earliest ? o.startedAt : earliest), ordered[0]?.startedAt ?? new Date()),
    sides,
    runs,
    // Images observed in one round share that round's time: each round counts once.
    durationMs: [...new Map(ordered.map((o) => [o.startedAt.getTime(), o.durationMs])).values()].reduce((sum, ms) => sum + ms, 0),
  };
}
