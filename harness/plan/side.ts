// The sides of a run: one baseline and one or more candidates, as a list, so a version matrix adds sides
// without changing a type.

export type SideRole = "baseline" | "candidate";

export interface Side {
  /** "baseline", "candidate", or "candidate-2"... for further candidates; used in names and reports. */
  id: string;
  role: SideRole;
}

export const BASELINE: Side = { id: "baseline", role: "baseline" };
export const CANDIDATE: Side = { id: "candidate", role: "candidate" };

/** The sides of a run with `candidates` candidates: baseline first. */
export function runSides(candidates = 1): Side[] {
  return [BASELINE, ...Array.from({ length: candidates }, (_, index) => (index === 0 ? CANDIDATE : { id: `candidate-${index + 1}`, role: "candidate" as const }))];
}

/** Where a candidate sits in a version matrix: an upstream release (a tag of httpd itself, built as upstream
 * ships it) or a distribution's build of one (Debian's apache2 package: its patches, layout and modules). */
export type MatrixAxis = "upstream" | "distribution";

export const MATRIX_AXES: readonly MatrixAxis[] = ["upstream", "distribution"];
