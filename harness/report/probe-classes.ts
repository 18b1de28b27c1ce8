// How every format tells a probe run's cells in short: the count per outcome class on one line ("144 cells: 130
// equal, 2 widened (security), 12 vacuous"), the outcome pair of one cell ("denied → served"), and which cells are
// counterexamples. A probe run sends a request per cell, so a status per request says nothing at a glance.
import { outcomeChange, SECURITY_CLASSES } from "../judge/outcome/cell-class.ts";
import type { ReportCellClass, ReportProbeCell, ReportProbes } from "./report-model.ts";

/** The order the classes are told in, as proof-text.ts tells a proof's: equal first, then the changes worst first. */
export const CELL_CLASS_ORDER: readonly ReportCellClass[] = ["equal", "widened", "source-exposed", "narrowed", "changed", "vacuous", "unprobed", "accepted"];

/** The classes whose cells show the two versions part: each is a counterexample to equivalence, worst first. */
export const COUNTEREXAMPLE_CLASSES: readonly ReportCellClass[] = ["widened", "source-exposed", "narrowed", "changed"];

export function isSecurityClass(cls: ReportCellClass): boolean {
  return (SECURITY_CLASSES as ReadonlySet<string>).has(cls);
}

export function isCounterexample(cell: Pick<ReportProbeCell, "class">): boolean {
  return COUNTEREXAMPLE_CLASSES.includes(cell.class);
}

/** Paints one class's count (the terminal colours the security ones); plain by default. */
export type ClassPainter = (cls: ReportCellClass, text: string) => string;

const plain: ClassPainter = (_cls, text) => text;

/** "144 cells: 130 equal, 2 widened (security), 12 vacuous": the classes that occur, in CELL_CLASS_ORDER. */
export function probeClassesText(probes: ReportProbes, paint: ClassPainter = plain): string {
  const counts = CELL_CLASS_ORDER.filter((cls) => probes.classes[cls] > 0).map((cls) =>
    paint(cls, `${probes.classes[cls]} ${cls}${isSecurityClass(cls) ? " (security)" : ""}`),
  );
  const total = probes.cells.length;
  return `${total} cell${total === 1 ? "" : "s"}${counts.length > 0 ? `: ${counts.join(", ")}` : ""}`;
}

/** What happened to the cell in a few characters: "=" when equal, else what each side did ("denied → served";
 * the answers when both did the same in different ways: "error 500 → 503"). */
export function outcomePair(cell: ReportProbeCell): string {
  if (cell.class === "equal") return "=";
  if (cell.baseline === null || cell.candidate === null) return cell.class;
  const a = cell.baseline;
  const b = cell.candidate;
  if (a.outcome !== b.outcome) return outcomeChange(a.outcome, b.outcome);
  if (a.answer !== b.answer) return `${a.outcome.replace("-", " ")} ${a.answer} → ${b.answer}`;
  return cell.class === "vacuous" ? `${a.outcome.replace("-", " ")} (vacuous)` : a.outcome.replace("-", " ");
}

/** The counterexample cells, worst class first, each class in the cells' order. */
export function counterexamples(probes: ReportProbes): ReportProbeCell[] {
  return COUNTEREXAMPLE_CLASSES.flatMap((cls) => probes.cells.filter((cell) => cell.class === cls));
}

/** Who asked, as the matrix's columns say it: "outsider · none", "10.0.0.0/8 · valid admin". */
export function askerText(cell: Pick<ReportProbeCell, "client" | "credentials" | "user">): string {
  return `${cell.client} · ${cell.credentials}${cell.user === null ? "" : ` ${cell.user}`}`;
}
