// Pure: a fleet's lint findings as one SARIF run, from the entries (a single run's or merged shards'), so code
// scanning sees every config's constructs with file:line. Each entry's findings are already those its ignore file
// lets through.
import { lintSarif } from "../report/lint-sarif.ts";
import { RULES } from "../rules/all-rules.ts";
import { lintOutcome } from "../rules/lint-outcome.ts";
import type { FleetEntry } from "./blob.ts";

export function fleetSarif(entries: Iterable<Pick<FleetEntry, "lint">>, options: { toolVersion: string; cwd: string }): object {
  // Only the lint part of each entry is kept: the entries may be read one at a time from a journal.
  const trees: Array<NonNullable<FleetEntry["lint"]>> = [];
  for (const entry of entries) if (entry.lint) trees.push({ tree: entry.lint.tree, findings: entry.lint.findings });
  return lintSarif(lintOutcome({ trees, ignore: null, baseline: null, failOn: "blocking" }), RULES, options);
}
