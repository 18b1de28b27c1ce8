// Pure: which seed rows of the upgrade guide the scenarios exercise. Rows observed only by lint
// ("observe" = lint) need no scenario; every other row must have one.
import type { Scenario } from "./scenario.ts";

export interface SeedRow {
  id: string;
  section: string;
  item: string;
  observe: string;
  howItShows: string;
}

export function parseSeedTable(text: string): SeedRow[] {
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [id = "", section = "", item = "", observe = "", howItShows = ""] = line.split("\t");
      return { id: id.trim(), section, item, observe: observe.trim(), howItShows };
    });
}

export interface SeedCoverage {
  rows: Array<{ row: SeedRow; scenarios: string[]; needsScenario: boolean }>;
  observable: number;
  covered: number;
  uncovered: SeedRow[];
}

export function seedCoverage(rows: SeedRow[], scenarios: Pick<Scenario, "id" | "seed">[]): SeedCoverage {
  const result = rows.map((row) => ({
    row,
    scenarios: scenarios.filter((s) => s.seed.includes(row.id)).map((s) => s.id),
    needsScenario: row.observe !== "lint",
  }));
  const observable = result.filter((r) => r.needsScenario);
  const uncovered = observable.filter((r) => r.scenarios.length === 0).map((r) => r.row);
  return { rows: result, observable: observable.length, covered: observable.length - uncovered.length, uncovered };
}
