import { loadScenarios } from "../scenario/load-scenario.ts";
import { seedCoverage } from "../scenario/seed-coverage.ts";
import { readSeedRows } from "../scenario/seed-rows.ts";
import { EXIT } from "./exit-status.ts";
import { CATALOGUE_DIR } from "./catalogue-dir.ts";
import { parseOptions } from "./parse-options.ts";

/** Prints every seed row, the scenarios covering it, and the observable rows none covers. Exit 1 when an
 * observable row has no scenario. */
export async function runCatalogueCommand(args: string[]): Promise<number> {
  const { positionals } = parseOptions(args, {});
  const rows = await readSeedRows();
  const scenarios = await loadScenarios(positionals.length > 0 ? positionals : [CATALOGUE_DIR]);
  const coverage = seedCoverage(rows, scenarios);
  const lines = coverage.rows.map(({ row, scenarios: ids, needsScenario }) => {
    const mark = !needsScenario ? "lint " : ids.length > 0 ? "ok   " : "MISS ";
    return `${mark} ${row.id.padEnd(4)} ${row.observe.padEnd(16)} ${row.item.slice(0, 62).padEnd(62)} ${ids.join(", ")}`;
  });
  lines.push("", `${coverage.covered} of ${coverage.observable} observable rows covered (${coverage.rows.length - coverage.observable} lint-only rows need no scenario).`);
  if (coverage.uncovered.length > 0) lines.push(`Not covered: ${coverage.uncovered.map((r) => r.id).join(", ")}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  return coverage.uncovered.length > 0 ? EXIT.regressions : EXIT.ok;
}
