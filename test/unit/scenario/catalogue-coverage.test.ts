// The catalogue against the guide's seed table, as properties of the data: no count is written here, so the
// test follows the table and the catalogue as they grow, and fails for any row left without a scenario.
import { describe, expect, it } from "vitest";
import { CATALOGUE_DIR } from "../../../harness/cli/catalogue-dir.ts";
import { loadScenarios } from "../../../harness/scenario/load-scenario.ts";
import { seedCoverage } from "../../../harness/scenario/seed-coverage.ts";
import { readSeedRows } from "../../../harness/scenario/seed-rows.ts";

const rows = await readSeedRows();
const scenarios = await loadScenarios([CATALOGUE_DIR]);
const observable = rows.filter((row) => row.observe !== "lint");
const scenariosOf = (id: string) => scenarios.filter((s) => s.seed.includes(id)).map((s) => s.id);

describe("catalogue coverage", () => {
  it("reads the seed table as rows with unique ids and a way to observe each", () => {
    const ids = rows.map((row) => row.id);
    expect(ids.filter((id) => !/^[A-Z]\d+$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rows.filter((row) => row.observe === "").map((row) => row.id)).toEqual([]);
    // Something to cover: an empty or all-lint table would make every check below pass vacuously.
    expect(observable.length).toBeGreaterThan(0);
  });

  it("has a catalogue scenario for every observable seed row", () => {
    expect(observable.filter((row) => scenariosOf(row.id).length === 0).map((row) => row.id)).toEqual([]);
    const coverage = seedCoverage(rows, scenarios);
    expect(coverage.uncovered).toEqual([]);
    expect(coverage.observable).toBe(observable.length);
    expect(coverage.covered).toBe(observable.length);
  });

  it("names only seed ids that exist in the table", () => {
    const ids = new Set(rows.map((row) => row.id));
    const unknown = scenarios.flatMap((s) => s.seed.filter((id) => !ids.has(id)).map((id) => `${s.id}: ${id}`));
    expect(unknown).toEqual([]);
    expect(scenarios.filter((s) => s.seed.length > 0).length).toBeGreaterThan(0);
  });

  it("counts a row as uncovered when the scenarios naming it go", () => {
    for (const row of observable) {
      const without = scenarios.filter((s) => !s.seed.includes(row.id));
      expect(seedCoverage(rows, without).uncovered.map((r) => r.id)).toContain(row.id);
    }
  });

  it("needs no scenario for a lint-only row", () => {
    const coverage = seedCoverage(rows, []);
    expect(coverage.covered).toBe(0);
    expect(coverage.uncovered.map((r) => r.id)).toEqual(observable.map((r) => r.id));
  });
});
