// The whole catalogue on real servers, at the default concurrency (sized from the engine): every scenario must
// meet what it states for 2.4 on the local 2.4 image, and for 2.2 when a 2.2 image is given (HTTPD_BASELINE_IMAGE);
// otherwise the 2.2 checks are skipped with the reason. Then neither speed nor reused servers change an answer: the
// fast scenarios (no slow clients) run again one at a time, each server in a container of its own, and answer as they
// did at the default concurrency with each lane's servers reused.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { CATALOGUE_DIR } from "../../../harness/cli/catalogue-dir.ts";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import { runHarness } from "../../../harness/observe/run-harness.ts";
import { buildScenarioReport } from "../../../harness/report/build-report.ts";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { loadScenarios } from "../../../harness/scenario/load-scenario.ts";
import type { Scenario } from "../../../harness/scenario/scenario.ts";
import { comparableScenario } from "../../helpers/comparable-report.ts";

const scenarios: Scenario[] = await loadScenarios([CATALOGUE_DIR]);
const reports = new Map<string, ReportScenario>();

async function runCatalogue(only: readonly Scenario[], concurrency: number | null, reuseServers = true): Promise<Map<string, ReportScenario>> {
  const images = inject("images");
  const { runs } = await runHarness({
    scenarios: [...only],
    baselineImage: images.baseline ?? "harness-no-baseline-image:2.2",
    candidateImage: images.candidate,
    allowMissingBaseline: true,
    concurrency,
    learnNoise: true,
    reuseServers,
  });
  return new Map(runs.map((run) => [run.scenario.id, buildScenarioReport(judgeScenario(run))]));
}

describe("the upgrade catalogue", { timeout: 1_200_000 }, () => {
  beforeAll(async () => {
    const concurrency = process.env.HARNESS_CATALOGUE_CONCURRENCY ? Number(process.env.HARNESS_CATALOGUE_CONCURRENCY) : null;
    for (const [id, report] of await runCatalogue(scenarios, concurrency)) reports.set(id, report);
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

  // Slow clients (trickled raw requests) wait out the server's timeouts: half a minute each, and nothing that
  // concurrency could change about them that the others do not show.
  const fast = scenarios.filter((s) => s.requests.every((r) => r.trickleMs === null));

  // The default run reuses each lane's servers from scenario to scenario (server/server-host.ts); this one gives
  // every server a container of its own: neither speed nor reuse may change an answer.
  it(`answers the same one at a time, each server in a container of its own, as at the default concurrency with servers reused (${fast.length} fast scenarios)`, async () => {
    expect(fast.length).toBeGreaterThan(100);
    const oneAtATime = await runCatalogue(fast, 1, false);
    const atDefault = fast.map((s) => comparableScenario(reports.get(s.id)!));
    expect(fast.map((s) => comparableScenario(oneAtATime.get(s.id)!))).toEqual(atDefault);
  }, 1_200_000);
});
