import type { Scenario } from "../scenario/scenario.ts";
import type { Side, SideObservation } from "./observation.ts";

/** Everything one scenario's run recorded, before any judgement. */
export interface ScenarioRun {
  scenario: Scenario;
  observations: Partial<Record<Side, SideObservation>>;
  /** Sides that were not run, and why ("baseline image httpd:2.2.34 missing"). */
  skipped: Partial<Record<Side, string>>;
  /** The harness could not run the scenario (a container would not start, a backend failed). */
  error: { code: string; message: string } | null;
  durationMs: number;
}
