// A batch's answers against the static ones: every cell whose real outcome differs from the prediction (on 2.2 or
// on 2.4), and every cell where migrate's port is not equivalent on real servers although migrate did not mark the
// change in that fragment "needs action". Each is attributed to the fragment whose paths the cell's URL is under.
import type { SideWitness } from "../../harness/judge/outcome/probe-outcome.ts";
import type { Prediction } from "../../harness/rules/predict-cells.ts";
import type { BatchRun, CellRun } from "./run-batch.ts";

export type DisagreementKind = "predict-2.2" | "predict-2.4" | "migrate";

export interface Disagreement {
  kind: DisagreementKind;
  /** The fragment's prefix ("fz3"); null for a cell under no fragment (the stock config's own paths). */
  fragment: string | null;
  cell: string;
  expected: string;
  real: string;
  why: string;
}

/** The fragment a URL belongs to: /fz3/..., /fz3-cgi/..., /fz3-outside/... */
export function fragmentOf(path: string): string | null {
  return /^\/(fz\d+)(?:[-/]|$)/.exec(path)?.[1] ?? null;
}

/** The batch text's line ranges per fragment ("# fragment fz3" up to the next). */
export function fragmentLines(text: string): Map<string, { from: number; to: number }> {
  const ranges = new Map<string, { from: number; to: number }>();
  const lines = text.split("\n");
  let current: string | null = null;
  lines.forEach((line, index) => {
    const head = /^# fragment (fz\d+)$/.exec(line);
    if (head) current = head[1]!;
    if (current === null) return;
    const range = ranges.get(current);
    if (range) range.to = index + 1;
    else ranges.set(current, { from: index + 1, to: index + 1 });
  });
  return ranges;
}

const COUNTEREXAMPLE = new Set(["widened", "source-exposed", "narrowed", "changed"]);

/** Whether a prediction can be held to a real answer: both exist, and the answer is the config's (a 404 where
 * nothing was planted, a directory whose every file runs as CGI, is the world's). */
export function comparable(predicted: Prediction, real: SideWitness | null): real is SideWitness {
  if (real === null || predicted.outcome === "unpredicted") return false;
  return !(real.outcome === "not-found" && (real.object === "none" || real.object === "missing"));
}

export function cellDisagreements(cell: CellRun, fragment: string | null, needsAction: boolean): Disagreement[] {
  const found: Disagreement[] = [];
  for (const version of ["2.2", "2.4"] as const) {
    const predicted = cell.prediction[version];
    const real = cell.real[version];
    if (!comparable(predicted, real)) continue;
    if (real.outcome !== predicted.outcome) found.push({ kind: `predict-${version}`, fragment, cell: cell.probe.cell, expected: predicted.outcome, real: `${real.outcome} (${real.answer})`, why: predicted.why });
  }
  const migrated = cell.migrated;
  if (migrated !== null && COUNTEREXAMPLE.has(migrated.class) && !needsAction) {
    found.push({ kind: "migrate", fragment, cell: cell.probe.cell, expected: `equivalent: ${migrated.baseline?.outcome ?? "?"} (${migrated.baseline?.answer ?? "?"})`, real: `${migrated.class}: ${migrated.candidate?.outcome ?? "?"} (${migrated.candidate?.answer ?? "?"})`, why: "migrate marked no change in the fragment needs action" });
  }
  return found;
}

export function batchDisagreements(run: BatchRun): Disagreement[] {
  const ranges = fragmentLines(run.text);
  const needsAction = new Set<string>();
  for (const change of run.migration.changes) {
    if (change.status !== "needs action") continue;
    for (const [prefix, range] of ranges) if (change.span.line >= range.from && change.span.line <= range.to) needsAction.add(prefix);
  }
  return run.cells.flatMap((cell) => {
    const fragment = fragmentOf(cell.probe.path);
    return cellDisagreements(cell, fragment, fragment !== null && needsAction.has(fragment));
  });
}

/** What a disagreement is, without the cell: the same signature twice is the same bug. */
export function signature(d: Disagreement): string {
  return `${d.kind}: expected ${d.expected.replace(/ \(.*\)$/, "")}, got ${d.real.replace(/ \(.*\)$/, "")}`;
}
