// Pure: a fleet's lint findings as one SARIF run, from the entries (a single run's or merged shards'), so code
// scanning sees every config's constructs with file:line. Each entry's findings are already those its ignore file
// lets through; they are grouped by cause as lint groups them. fleetSarifChunks gives the same text in pieces, one
// finding at a time, for a writer that reads the entries one at a time from a journal (the SARIF of 1,000 configs
// is tens of MB).
import { lintSarif, type Naming, naming, ruleOfFinding, sarifChunks, sarifResultParts, sarifRun } from "../report/lint-sarif.ts";
import { RULES } from "../rules/all-rules.ts";
import { groupByCause, lintOutcome } from "../rules/lint-outcome.ts";
import type { Rule } from "../rules/rule.ts";
import { atLeast } from "../rules/severity.ts";
import type { FleetEntry } from "./blob.ts";

type Options = { toolVersion: string; cwd: string };

export function fleetSarif(entries: Iterable<Pick<FleetEntry, "lint">>, options: Options): object {
  const trees: Array<NonNullable<FleetEntry["lint"]>> = [];
  for (const entry of entries) if (entry.lint) trees.push({ tree: entry.lint.tree, findings: entry.lint.findings });
  return lintSarif(lintOutcome({ trees, ignore: null, baseline: null, failOn: "blocking" }), RULES, options);
}

/** `${JSON.stringify(fleetSarif(entries), null, 2)}\n` in pieces: the entries are read twice, once for the rules
 * and counts the head holds, once for the results (each entry's findings grouped by cause, as lintOutcome does). */
export function fleetSarifChunks(entries: () => Iterable<Pick<FleetEntry, "lint">>, options: Options): Generator<string> {
  const described: Rule[] = [...RULES];
  const names = new Map<string, Naming>();
  let failing = 0;
  for (const { lint } of entries()) {
    if (!lint) continue;
    names.set(lint.tree.path, naming(lint.tree, options.cwd));
    for (const cause of groupByCause(lint.tree.path, lint.findings)) {
      if (!described.some((rule) => rule.id === cause.rule)) described.push(ruleOfFinding(cause));
      if (cause.severity !== "expected" && atLeast(cause.severity, "blocking")) failing++;
    }
  }
  // The run without its results: the rules described in the same order, the same counts.
  const head = sarifRun({ ...lintOutcome({ trees: [], ignore: null, baseline: null, failOn: "blocking" }), failing }, described, options, []);
  const ruleIndex = new Map(described.map((rule, index) => [rule.id, index] as const));
  return sarifChunks(head, (function* () {
    for (const { lint } of entries()) {
      if (!lint) continue;
      for (const cause of groupByCause(lint.tree.path, lint.findings)) yield sarifResultParts(cause, names.get(lint.tree.path)!, ruleIndex);
    }
  })());
}
