// What lint claims the requests a finding's lines govern get on 2.2 and on the 2.4 target (rules/access-outcome.ts
// computes it from predictCells): the data a finding carries beside its words.
import type { Probe } from "../plan/probes/probe.ts";
import type { OutcomeSeverity } from "./outcome-severity.ts";
import type { Prediction } from "./predict-cells.ts";

/** One governed cell: who asks, and the prediction on each side. */
export interface CellOutcome {
  cell: string;
  probe: Probe;
  /** "an outsider without credentials", "a client from 10.0.0.0/8 as user alice". */
  who: string;
  "2.2": Prediction;
  "2.4": Prediction;
}

export type OutcomeClaim =
  /** Some governed cell's outcome changes: the changes, most urgent first, and the severity they add up to. */
  | { kind: "differs"; severity: OutcomeSeverity; text: string; cells: CellOutcome[]; unpredicted: number }
  /** Every governed cell is predicted, and alike on both: no difference to claim. */
  | { kind: "same"; text: string; cells: CellOutcome[] }
  /** The model cannot say: why. */
  | { kind: "unpredicted"; text: string; why: string };
