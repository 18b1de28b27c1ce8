// Pure: a proof's power, from the mutants of the port the candidate's server answered after the port itself. A
// mutant is killed when the proof, run with its answers in place of the port's, finds a counterexample in a cell
// where it found none for the port: the probes would have caught that wrong port. A surviving mutant names its
// region and the cells it passed through; the proof does not count those cells as proven (whatever a probe there
// saw, it saw the same with the region decided otherwise). Counted neither way: a mutant 2.4 would not load, and
// one whose probes compared nothing (every cell unprobed, vacuous or accepted: a region a ProxyPass shadows, a
// backend the harness cannot reach); no probe could have killed it.
import type { ScenarioRun } from "../../observe/scenario-run.ts";
import type { Mutant } from "../../plan/mutants/port-mutants.ts";
import { DIFFERENCE_CLASSES, type DifferenceClass } from "../outcome/cell-class.ts";
import { judgeProof, type ProofInput, summarise } from "./judge-proof.ts";
import type { CellClass, Proof, ProofPower } from "./proof.ts";

export type MutantSummary = Pick<Mutant, "id" | "region" | "mutation" | "file" | "line" | "probes">;

const COUNTEREXAMPLE: ReadonlySet<CellClass> = new Set<CellClass>(DIFFERENCE_CLASSES as readonly DifferenceClass[]);

export function withPower(proof: Proof, input: ProofInput, mutants: readonly MutantSummary[], durationMs: number): Proof {
  const [baselineSide, candidateSide] = input.run.observations;
  const power: ProofPower = { mutants: 0, killed: 0, survivors: [], uncounted: [], durationMs };
  if (baselineSide === undefined || candidateSide === undefined) return { ...proof, power };
  const classOf = new Map(proof.matrix.filter((c) => c.probe !== null).map((c) => [c.probe!, c.class]));
  const cellOf = new Map(proof.matrix.filter((c) => c.probe !== null).map((c) => [c.probe!, c.cell]));
  const weakened = new Map<string, string>();
  for (const mutant of mutants) {
    const observed = candidateSide.variants.find((v) => v.id === mutant.id);
    if (observed === undefined || !observed.reloaded) {
      power.uncounted.push({ mutation: mutant.mutation, file: mutant.file, line: mutant.line, reason: observed?.reason ?? "not run" });
      continue;
    }
    const compared = mutant.probes.some((p) => { const c = classOf.get(p); return c === "equal" || COUNTEREXAMPLE.has(c as CellClass); });
    if (!compared) {
      power.uncounted.push({ mutation: mutant.mutation, file: mutant.file, line: mutant.line, reason: "no cell of its region was compared (unprobed, vacuous or accepted)" });
      continue;
    }
    power.mutants++;
    const answers = new Map(observed.requests.map((r) => [r.name, r]));
    const requests = candidateSide.requests.map((r) => answers.get(r.name) ?? r);
    const run: ScenarioRun = { ...input.run, observations: [baselineSide, { ...candidateSide, requests }] };
    const judged = judgeProof({ ...input, run, set: { ...input.set, probes: input.set.probes.filter((p) => mutant.probes.includes(p.id)), cells: input.set.cells.filter((c) => c.probe !== null && mutant.probes.includes(c.probe)) } });
    const killed = judged.matrix.some((cell) => cell.probe !== null && COUNTEREXAMPLE.has(cell.class) && cell.class !== classOf.get(cell.probe));
    if (killed) {
      power.killed++;
      continue;
    }
    const cells = mutant.probes.map((p) => cellOf.get(p)).filter((c): c is string => c !== undefined);
    power.survivors.push({ region: mutant.region, mutation: mutant.mutation, file: mutant.file, line: mutant.line, cells });
    for (const cell of cells) if (!weakened.has(cell)) weakened.set(cell, `not proven: the mutant "${mutant.mutation}" (${mutant.file}:${mutant.line}) changed nothing a probe saw`);
  }
  const matrix = proof.matrix.map((cell) => {
    const why = weakened.get(cell.cell);
    return why !== undefined && cell.proven ? { ...cell, proven: false, reason: cell.reason === null ? why : `${cell.reason}; ${why}` } : cell;
  });
  return summarise({ probes: proof.probes, matrix, counterexamples: proof.counterexamples, accepted: proof.accepted, power });
}
