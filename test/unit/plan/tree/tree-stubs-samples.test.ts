import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { treeScenarios } from "../../../../harness/cli/tree-inputs.ts";
import { planScenario } from "../../../../harness/plan/plan-scenario.ts";
import { BASELINE, CANDIDATE } from "../../../../harness/plan/side.ts";
import { officialDefaults } from "../../../../harness/server/official-defaults.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";

const CONFIGS = resolve(import.meta.dirname, "../../../../configs");
const SAMPLES = readdirSync(CONFIGS).filter((name) => statSync(join(CONFIGS, name)).isDirectory()).sort();

describe("treeStubs on the configs/ samples", () => {
  it.each(SAMPLES)("%s: nothing the tree holds is made up, wherever the tree is written from (its mount or /)", async (name) => {
    const { scenarios, trees } = await treeScenarios({ configs: [join(CONFIGS, name)], candidateConfigs: [], layout: undefined, defines: [] });
    const tree = [...trees.values()][0]!;
    const sides = [
      { side: BASELINE, inspection: officialDefaults("httpd:2.2.34", httpdVersion("2.2.34")) },
      { side: CANDIDATE, inspection: officialDefaults("httpd:2.4.68", httpdVersion("2.4.68")) },
    ];
    const held = [...tree.source.files.keys(), ...tree.source.directories].filter((path) => path !== "");
    for (const side of planScenario(scenarios[0]!, sides, trees).sides) {
      const made = (side.tree?.stubs ?? []).filter((stub) => stub.target.startsWith("/")).map((stub) => stub.target);
      // A path the tree holds below its own root, named by the config as if the tree sat at / (or at its mount).
      const shadowed = made.filter((target) => held.some((path) => target === `/${path}` || target === join(tree.source.mount, path)));
      expect(shadowed, `${side.side.id}: ${side.tree?.mount}`).toEqual([]);
    }
  });
});
