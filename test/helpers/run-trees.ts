// Test helper: runs configuration trees through the real harness (real engine, real images), as `run --config`
// does, and returns each tree's report. The baseline is the real 2.2 image when one is given
// (HTTPD_BASELINE_IMAGE); without one, the candidate runs alone. Judged as the run command judges: lint's findings
// on the trees feed triage (no ignore file).
import { inject } from "vitest";
import { runTargetModules } from "../../harness/cli/target-modules-option.ts";
import { treeLint, treeScenarios } from "../../harness/cli/tree-inputs.ts";
import { withTreeProbes } from "../../harness/cli/tree-probes.ts";
import { judgeScenario } from "../../harness/judge/judge-scenario.ts";
import { runHarness } from "../../harness/observe/run-harness.ts";
import { buildScenarioReport } from "../../harness/report/build-report.ts";
import { RULES } from "../../harness/rules/all-rules.ts";
import type { ReportScenario } from "../../harness/report/report-model.ts";

export async function runTrees(
  configs: readonly string[],
  options: {
    candidateConfigs?: readonly string[];
    baseline?: string | null;
    concurrency?: number;
    /** Prove's probes and their world, as `run --config` sends by default (without: the smoke requests). */
    probes?: boolean;
    /** As `run --target-modules VALUE`. */
    targetModules?: string;
  } = {},
): Promise<Map<string, ReportScenario>> {
  const images = inject("images");
  const target = await runTargetModules(options.targetModules);
  const read = await treeScenarios({ configs, candidateConfigs: options.candidateConfigs ?? [], layout: undefined, defines: [], ...(target ? { targetModules: target.candidate } : {}) });
  const { trees } = read;
  const scenarios = options.probes === true ? withTreeProbes(read.scenarios, read.trees) : read.scenarios;
  const baseline = options.baseline === undefined ? images.baseline : options.baseline;
  const { runs } = await runHarness({
    scenarios,
    trees,
    // A name no engine has: the run then goes on with the candidate alone (allowMissingBaseline).
    baselineImage: baseline ?? "httpd-upgrade-harness-test/no-baseline:2.2",
    candidateImage: images.candidate,
    allowMissingBaseline: true,
    concurrency: options.concurrency ?? 2,
    learnNoise: false,
  });
  const triage = { rules: RULES, lint: treeLint(scenarios, trees, target?.lint ?? null), ignore: null };
  return new Map(runs.map((run) => [run.scenario.id, buildScenarioReport(judgeScenario(run, triage))]));
}
