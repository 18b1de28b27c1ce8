// Every disagreement the differential fuzzer shrank stays a regression test: for each fixture under
// test/fixtures/fuzz/, the per-cell prediction (rules/predict-cells.ts) of its fragment equals the real answer
// recorded on 2.2.34 and 2.4.68, cell by cell, unless the fixture is explained (then it carries the reason and the
// guide row or real fact); a migrate fixture fixed by marking the change "needs action" is still marked so.
import { describe, expect, it } from "vitest";
import { proofProbes } from "../../../harness/judge/prove/proof-probes.ts";
import { migrateTree } from "../../../harness/migrate/migrate-tree.ts";
import { lintContext } from "../../../harness/rules/lint-context.ts";
import { predictCells } from "../../../harness/rules/predict-cells.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import { OFFICIAL_PROFILE } from "../../../harness/server/httpd-profile.ts";
import { loadFixtures } from "../../fuzz/fuzz-fixtures.ts";
import { memoryTree } from "../conf/memory-tree.ts";

const fixtures = loadFixtures();

describe("the differential fuzzer's fixtures", () => {
  it("are there", () => {
    expect(fixtures.length).toBeGreaterThan(0);
  });

  for (const { fixture, text } of fixtures) {
    it(`${fixture.id} (${fixture.signature}): ${fixture.status === "explained" ? "carries its explanation" : "the prediction is the real answer in every cell"}`, () => {
      if (fixture.status === "explained") {
        expect(fixture.explanation?.reason ?? "").not.toBe("");
        expect(fixture.explanation?.row ?? "").not.toBe("");
        return;
      }
      const tree = memoryTree({ "fuzz.conf": text }, { layout: "fragment", mainFile: "fuzz.conf" });
      const migration = migrateTree(tree, { defines: [], annotate: false, rollback: new Set() });
      const { set } = proofProbes(tree, migration.migrated, []);
      const predictions = new Map(predictCells(lintContext(tree, { defines: [], target: TARGET_PROFILES.official }), set, { defaultRoot: OFFICIAL_PROFILE.docRoot }).map((p) => [p.cell, p]));
      let compared = 0;
      const wrong: string[] = [];
      for (const cell of fixture.cells) {
        const prediction = predictions.get(cell.cell);
        expect(prediction, `the probes no longer have cell ${cell.cell}`).toBeDefined();
        for (const version of ["2.2", "2.4"] as const) {
          const real = cell.real[version];
          const predicted = prediction![version];
          if (real === null || predicted.outcome === "unpredicted") continue;
          compared++;
          if (predicted.outcome !== real) wrong.push(`${cell.cell} on ${version}: predicted ${predicted.outcome} (${predicted.why}), real ${real}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(compared).toBeGreaterThan(0);
      if (fixture.kind === "migrate" && (fixture.changes.some((c) => c.status === "needs action") || /needs action/.test(fixture.fix ?? ""))) {
        expect(migration.changes.some((c) => c.status === "needs action")).toBe(true);
      }
    });
  }
});
