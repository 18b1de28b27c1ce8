// The hand-written 2.4 ports of the configs/ samples (test/fixtures/conf/ports/<sample>-24) are what an operator
// gets to by following lint's fixes: lint finds nothing above `deprecated` in them. A rule that flags a port is
// either wrong about 2.4 or has found a mistake in the port; either is fixed, this test is not loosened.
// (test/containers/conf/ports-start.test.ts checks that the same ports pass 2.4's config test.)
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { lintTree } from "../../../harness/rules/lint-tree.ts";
import { atLeast } from "../../../harness/rules/rule.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const PORTS = fileURLToPath(new URL("../../fixtures/conf/ports/", import.meta.url));
const SAMPLES = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

// The 2.4 installation each port is written for: the distribution's own package where the sample models one.
const TARGET: Readonly<Record<string, keyof typeof TARGET_PROFILES>> = { "debian-ssl": "debian", "rhel-balancer": "rhel" };

describe("lint on the hand-written 2.4 ports of the configs/ samples", () => {
  it("every sample has a port", () => {
    const ports = readdirSync(PORTS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(SAMPLES.filter((sample) => !ports.includes(`${sample}-24`))).toEqual([]);
  });

  for (const sample of SAMPLES) {
    it(`${sample}-24: nothing above deprecated, no bad input`, async () => {
      const tree = await loadTree(`${PORTS}${sample}-24`);
      const result = lintTree(tree, { defines: [], target: TARGET_PROFILES[TARGET[sample] ?? "official"] });
      expect(result.problems.filter((p) => p.severity === "error")).toEqual([]);
      const serious = result.findings.filter((f) => atLeast(f.severity, "behaviour"));
      expect(serious.map((f) => `${f.rule} (${f.severity}) ${f.file}:${f.line} ${f.directive}: ${f.message}`)).toEqual([]);
    });
  }
});
