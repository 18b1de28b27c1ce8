// Pure: which access hunks of a migration a failed proof points at. A counterexample names the lines that decide
// its request on the original (baseline) side; an access hunk whose section holds one of them is rolled back
// (kept as 2.2 wrote it, with mod_access_compat) in the next round of `migrate --prove`. Hunks are only ever
// added to the rollback set, so the loop ends: at worst every access hunk is rolled back.
import type { Proof } from "../judge/prove/proof.ts";
import type { MigrationChange } from "./migration.ts";

export const ACCESS_CHANGE_PREFIX = "access:";

export function isAccessChange(change: Pick<MigrationChange, "id">): boolean {
  return change.id.startsWith(ACCESS_CHANGE_PREFIX);
}

/** The ids of access hunks (not yet rolled back) that a counterexample's original-side lines fall into. */
export function hunksToRollBack(changes: readonly MigrationChange[], proof: Proof, rolledBack: ReadonlySet<string>): string[] {
  const lines = proof.counterexamples.flatMap((counterexample) => counterexample.config.baseline);
  const chosen: string[] = [];
  for (const change of changes) {
    if (!isAccessChange(change) || rolledBack.has(change.id)) continue;
    const { file, line, endLine } = change.span;
    if (lines.some((l) => l.file === file && l.line >= line && l.line <= endLine)) chosen.push(change.id);
  }
  return chosen;
}
