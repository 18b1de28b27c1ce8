// The whole catalogue on real servers: every scenario must meet what it states for 2.4 on the local 2.4
// image, and for 2.2 when a 2.2 image is given (HTTPD_BASELINE_IMAGE); otherwise the 2.2 checks are
// skipped with the reason.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { CATALOGUE_DIR } from "../../../harness/cli/catalogue-dir.ts";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import { runHarness } from "../../../harness/observe/run-harness.ts";
import { buildScenarioReport } from "../../../harness/report/build-report.ts";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { loadScenarios } from "../../../harness/scenario/load-scenario.ts";
import type { Scenario } from "../../../harness/scenario/scenario.ts";

const scenarios: Scenario[] = await loadScenarios([CATALOGUE_DIR]);
const reports = new Map<string, ReportScenario>();

describe("the upgrade catalogue", { timeout: 1_200_000 }, () => {
  beforeAll(async () => {
    const images = inject("images");
    const { runs } = await runHarness({
      scenarios,
      baselineImage: images.baseline ?? "harness-no-baseline-image:2.2",
      candidateImage: images.candidate,
      allowMissingBaseline: true,
      concurrency: Number(process.env.HARNESS_CATALOGUE_CONCURRENCY ?? 3),
      learnNoise: true,
    });
    for (const run of runs) reports.set(run.scenario.id, buildScenarioReport(judgeScenario(run)));
  }, 1_200_000);

  describe.each(scenarios.map((s) => [s.id, s] as const))("%s", (id) => {
    it("meets what it states for 2.4", () => {
      const report = reports.get(id)!;
      expect(report.error).toBeNull();
      expect(report.expectations.candidate.stated).toBe(true);
      expect(report.expectations.candidate.failures).toEqual([]);
    });

    it("meets what it states for 2.2", (context) => {
      const images = inject("images");
      if (!images.baseline) return context.skip(`2.2 expectations not checked: ${images.baselineMissingReason}`);
      const report = reports.get(id)!;
      expect(report.error).toBeNull();
      expect(report.expectations.baseline.failures).toEqual([]);
      expect(report.verdict).not.toBe("regression");
    });
  });
});
