// Test helper: runs scenarios written inline as YAML through the real harness (real engine, real images).
import { inject } from "vitest";
import { judgeScenario } from "../../harness/judge/judge-scenario.ts";
import { runHarness } from "../../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../../harness/observe/scenario-run.ts";
import { buildScenarioReport } from "../../harness/report/build-report.ts";
import type { ReportScenario } from "../../harness/report/report-model.ts";
import { parseScenario } from "../../harness/scenario/load-scenario.ts";

export interface YamlRunResult {
  runs: ScenarioRun[];
  reports: ReportScenario[];
  /** Containers the run created (servers, hosts, seats, clients). */
  containersCreated: number;
}

/** Both sides run the local 2.4 image unless a baseline is given: what CI has. */
export async function runYamlScenarios(
  yamls: string[],
  options: { baseline?: string; candidate?: string; learnNoise?: boolean; concurrency?: number; sharedNetworkWindowMs?: number; sharedNetworkTurnsAlone?: boolean; reuseServers?: boolean } = {},
): Promise<YamlRunResult> {
  const images = inject("images");
  const scenarios = yamls.map((yaml, index) => parseScenario(yaml, `inline-${index}.scenario.yaml`));
  const { runs, containersCreated } = await runHarness({
    scenarios,
    baselineImage: options.baseline ?? options.candidate ?? images.candidate,
    candidateImage: options.candidate ?? images.candidate,
    allowMissingBaseline: false,
    concurrency: options.concurrency ?? 2,
    learnNoise: options.learnNoise ?? false,
    ...(options.sharedNetworkWindowMs === undefined ? {} : { sharedNetworkWindowMs: options.sharedNetworkWindowMs }),
    ...(options.sharedNetworkTurnsAlone === undefined ? {} : { sharedNetworkTurnsAlone: options.sharedNetworkTurnsAlone }),
    ...(options.reuseServers === undefined ? {} : { reuseServers: options.reuseServers }),
  });
  return { runs, reports: runs.map((run) => buildScenarioReport(judgeScenario(run))), containersCreated: containersCreated ?? 0 };
}
