import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadScenarios } from "../../../harness/scenario/load-scenario.ts";
import { parseSeedTable, seedCoverage } from "../../../harness/scenario/seed-coverage.ts";

const CATALOGUE = fileURLToPath(new URL("../../../scenarios/catalogue/", import.meta.url));
const rows = parseSeedTable(readFileSync(new URL("../../../spec/seed-rows.tsv", import.meta.url), "utf8"));

describe("catalogue coverage", () => {
  it("reads all 72 seed rows of the guide, 69 of them observable", () => {
    expect(rows).toHaveLength(72);
    expect(rows.filter((r) => r.observe !== "lint").map((r) => r.id)).toHaveLength(69);
  });

  it("has a catalogue scenario for every observable seed row", async () => {
    const coverage = seedCoverage(rows, await loadScenarios([CATALOGUE]));
    expect(coverage.uncovered.map((r) => r.id)).toEqual([]);
    expect(coverage.covered).toBe(69);
  });

  it("counts a row as uncovered when its only scenario goes", () => {
    const coverage = seedCoverage(rows, [{ id: "only-a6", seed: ["A6"] }]);
    expect(coverage.covered).toBe(1);
    expect(coverage.uncovered.map((r) => r.id)).toContain("T1");
    expect(coverage.uncovered.map((r) => r.id)).not.toContain("D2");
  });
});
