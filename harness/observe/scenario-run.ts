import type { ScenarioPlan } from "../plan/scenario-plan.ts";
import type { Side } from "../plan/side.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { SideObservation } from "./observation.ts";

/** A side that was not run, and why ("baseline image httpd:2.2.34 missing"). */
export interface SkippedSide {
  side: Side;
  image: string;
  reason: string;
}

/** Everything one scenario's run recorded, before any judgement. */
export interface ScenarioRun {
  scenario: Scenario;
  plan: ScenarioPlan;
  /** One per side that ran, in the plan's order (baseline first). */
  observations: SideObservation[];
  skipped: SkippedSide[];
  /** The harness could not run the scenario (a container would not start, a backend failed). */
  error: { code: string; message: string } | null;
  durationMs: number;
  /** The engine that ran it, when a run spreads over several (`--engines`). */
  engine?: string;
}

export function observationOf(run: Pick<ScenarioRun, "observations">, sideId: string): SideObservation | undefined {
  return run.observations.find((observation) => observation.side.id === sideId);
}
