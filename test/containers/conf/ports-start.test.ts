// The hand-written 2.4 ports of the configs/ samples (test/fixtures/conf/ports/<sample>-24) pass real 2.4's config
// test and serve, run as `run --config SAMPLE --candidate-config PORT` runs them: the port as written, nothing
// carried over by the harness. The candidate alone: the 2.2 side of the originals is configs-samples.test.ts's.
// (Lint's side: test/unit/rules/ports-lint-clean.test.ts.)
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { moduleFileOfId } from "../../../harness/conf/module-identity.ts";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import { runTrees } from "../../helpers/run-trees.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const PORTS = fileURLToPath(new URL("../../fixtures/conf/ports/", import.meta.url));
const SAMPLES = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
// The 2.4 installation each port is written for (as lint reads them in test/unit/rules/ports-lint-clean.test.ts).
const TARGET: Readonly<Record<string, keyof typeof TARGET_PROFILES>> = { "debian-ssl": "debian", "rhel-balancer": "rhel" };

describe("the 2.4 ports of the configs/ samples on real 2.4", { timeout: 600_000 }, () => {
  const reports = new Map<string, ReportScenario>();

  beforeAll(async () => {
    const runs = await runTrees(
      SAMPLES.map((name) => `${CONFIGS}${name}`),
      { candidateConfigs: SAMPLES.map((name) => `${PORTS}${name}-24`), baseline: null, concurrency: 3 },
    );
    for (const [id, report] of runs) reports.set(id, report);
  }, 600_000);

  for (const sample of SAMPLES) {
    it(`${sample}-24 passes the config test as written, starts, and answers every smoke request`, () => {
      const report = reports.get(sample);
      expect(report, `no report for ${sample}`).toBeDefined();
      expect(report!.error).toBeNull();
      const tree = report!.servers.candidate!.tree!;
      expect(tree.origin).toBe(`${PORTS}${sample}-24`);
      // Taken as written for 2.4: no module of the port is renamed or dropped. A LoadModule path may move to where
      // this image keeps its modules, and what the port's distribution compiles into httpd is loaded here.
      expect(tree.adaptations.filter((a) => a.kind === "module-renamed" || a.kind === "module-absent")).toEqual([]);
      const builtIn = TARGET_PROFILES[TARGET[sample] ?? "official"].compiledIn;
      const added = tree.adaptations.filter((a) => a.kind === "module-added").map((a) => /LoadModule\s+(\S+)/.exec(a.now ?? "")?.[1] ?? a.now);
      expect(added.filter((id) => !builtIn.includes(moduleFileOfId(id ?? "") ?? ""))).toEqual([]);
      expect(report!.configTest.candidate, JSON.stringify(report!.configTest.candidate)).toMatchObject({ ok: true });
      expect(report!.servers.candidate?.started).toBe(true);
      expect(report!.requests.length).toBeGreaterThan(0);
      for (const request of report!.requests) expect({ request: request.name, status: request.candidate?.status }).toEqual({ request: request.name, status: expect.any(Number) });
    });
  }
});
