// Several configuration trees on real servers in one run, in-process through the harness's own prove path: each
// tree on the baseline (2.2, on the image's stock config when it is a fragment), migrate's port of it on the
// candidate (2.4), and the unchanged 2.2 tree reloaded into the same candidate server as a variant (what lint's
// 2.4 claims are about). The probes are prove's (generated from the original and the port), the world is staged
// once per side. Returns, per tree and per probe, the real outcome on each side with its witnesses, the proof's
// class of the migrated cell, and the prediction of rules/predict-cells.ts: for the original on 2.2 and on 2.4, and
// for the port on 2.4. The fuzzer runs its batches through here (run-batch.ts), the samples' test its trees.
import type { ConfigTree } from "../../harness/conf/load-tree.ts";
import { judgeProof, questionOf } from "../../harness/judge/prove/judge-proof.ts";
import type { CellRecord } from "../../harness/judge/prove/proof.ts";
import { proofProbes } from "../../harness/judge/prove/proof-probes.ts";
import { sideWitness, type SideWitness } from "../../harness/judge/outcome/probe-outcome.ts";
import { migrateTree } from "../../harness/migrate/migrate-tree.ts";
import type { Migration } from "../../harness/migrate/migration.ts";
import type { SideObservation } from "../../harness/observe/observation.ts";
import { runHarness } from "../../harness/observe/run-harness.ts";
import type { Probe, ProbeSet } from "../../harness/plan/probes/probe.ts";
import { withProbes } from "../../harness/plan/probes/probe-scenario.ts";
import { treeScenario } from "../../harness/plan/tree/tree-scenario.ts";
import { lintContext } from "../../harness/rules/lint-context.ts";
import { type CellPrediction, type Prediction, predictCells } from "../../harness/rules/predict-cells.ts";
import { stockDocumentRoot } from "../../harness/rules/stock-access.ts";
import { TARGET_PROFILES } from "../../harness/rules/target-modules.ts";
import type { Scenario, TreeRef } from "../../harness/scenario/scenario.ts";
import { OFFICIAL_PROFILE } from "../../harness/server/httpd-profile.ts";

export interface Images {
  baseline: string;
  candidate: string;
}

export interface TreeInput {
  /** The scenario's id: unique within one run. */
  id: string;
  /** How the tree is named (its host path). */
  path: string;
  tree: ConfigTree;
}

export interface CellRun {
  probe: Probe;
  prediction: CellPrediction;
  /** The real outcome of the original on 2.2 and on 2.4 (unmigrated); null: that side did not answer it. */
  real: { "2.2": SideWitness | null; "2.4": SideWitness | null };
  /** The proof's cell (original on 2.2 against migrate's port on 2.4). */
  migrated: CellRecord | null;
  /** Migrate's port on the candidate: the prediction for it on 2.4, and its real answer (null: none). */
  port: { prediction: Prediction; real: SideWitness | null };
}

export interface TreeRun {
  input: TreeInput;
  migration: Migration;
  set: ProbeSet;
  cells: CellRun[];
  /** Why a side could not answer at all (a config test 2.4 refused, a server that did not start). */
  failures: string[];
  /** Why the unchanged tree has no real answers on 2.4 (2.4 refused to load it); null when it answered. */
  unmigratedRefused: string | null;
}

export interface RunTreesOptions {
  signal?: AbortSignal;
  /** Scenarios at once (default 1). */
  concurrency?: number;
  /** Let the baseline side be skipped when its image is absent (the 2.4 sides still run). Default true. */
  allowMissingBaseline?: boolean;
  /** The candidate image's kind, whose stock config surrounds a fragment on 2.4 (default official). */
  target?: "official" | "debian";
}

const UNMIGRATED = "unmigrated";

interface Prepared {
  input: TreeInput;
  migration: Migration;
  set: ProbeSet;
  configs: ReturnType<typeof proofProbes>["configs"];
  predictions: Map<string, CellPrediction>;
  portPredictions: Map<string, CellPrediction>;
  defaultRoot: string | null;
  scenario: Scenario;
  portPath: string;
  variantKey: string;
}

function prepare(input: TreeInput, targetName: "official" | "debian"): Prepared {
  const original = input.tree;
  const migration = migrateTree(original, { defines: [], annotate: false, rollback: new Set() });
  const port = migration.migrated;
  const { set, configs } = proofProbes(original, port, []);
  // The candidate image's stock config surrounds a fragment, its modules are the target's; the 2.2 side is always
  // the official image, so its prediction is the official target's.
  const fragment = original.layout === "fragment";
  const defaultRoot = fragment ? OFFICIAL_PROFILE.docRoot : null;
  const target = TARGET_PROFILES[targetName];
  const roots = { defaultRoot, defaultRoot24: fragment ? stockDocumentRoot(targetName) : null };
  const predictions = new Map(predictCells(lintContext(original, { defines: [], target }), set, roots).map((p) => [p.probe, p]));
  const portPredictions = new Map(predictCells(lintContext(port, { defines: [], target }), set, roots).map((p) => [p.probe, p]));
  const portPath = `${input.path} (migrated)`;
  const at = { file: input.path, line: 1, column: 1 };
  const ref = (path: string, tree: ConfigTree, writtenFor: "2.2" | "2.4"): TreeRef => ({ at: { ...at, file: path }, path, layout: tree.layout, defines: [], writtenFor });
  const base = treeScenario({ id: input.id, baseline: { tree: original, ref: ref(input.path, original, "2.2") }, candidate: { tree: port, ref: ref(portPath, port, "2.4") } });
  const probed = withProbes(base, set);
  const variantKey = `${input.path}#${UNMIGRATED}`;
  const scenario: Scenario = { ...probed, server: { ...probed.server, variants: [{ id: UNMIGRATED, tree: variantKey, requests: set.probes.map((p) => p.id) }] } };
  return { input, migration, set, configs, predictions, portPredictions, defaultRoot, scenario, portPath, variantKey };
}

export async function runTrees(inputs: readonly TreeInput[], images: Images, options: RunTreesOptions = {}): Promise<TreeRun[]> {
  const prepared = inputs.map((input) => prepare(input, options.target ?? "official"));
  const trees = new Map<string, ConfigTree>();
  for (const p of prepared) {
    trees.set(p.input.path, p.input.tree);
    trees.set(p.portPath, p.migration.migrated);
    trees.set(p.variantKey, p.input.tree);
  }
  const result = await runHarness({
    scenarios: prepared.map((p) => p.scenario),
    trees,
    baselineImage: images.baseline,
    candidateImage: images.candidate,
    allowMissingBaseline: options.allowMissingBaseline ?? true,
    concurrency: options.concurrency ?? 1,
    learnNoise: false,
    // A run waits for the shared client subnets other runs hold; its own work is a minute or two per scenario.
    scenarioTimeLimitMs: 900_000,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return prepared.map((p) => {
    const run = result.runs.find((r) => r.scenario.id === p.input.id);
    const failures: string[] = [];
    if (run === undefined) return { input: p.input, migration: p.migration, set: p.set, cells: [], failures: ["the run returned nothing for it"], unmigratedRefused: null };
    if (run.error !== null) failures.push(`the scenario could not run: ${run.error.message}`);
    const baseline = run.observations.find((o) => o.side.role === "baseline");
    const candidate = run.observations.find((o) => o.side.role === "candidate");
    for (const skipped of run.skipped) failures.push(`skipped: ${skipped.reason}`);
    for (const side of run.observations) {
      if (side.started) continue;
      const output = [...side.configTest.messages, ...(side.startFailure?.logTail ?? [])].slice(-6).join(" | ");
      failures.push(`${side.server.version.family} (${side.side.role}) did not start: ${output}`);
    }
    const variant = candidate?.variants.find((v) => v.id === UNMIGRATED);
    const unmigratedRefused = variant !== undefined && !variant.reloaded ? `2.4 did not load the unmigrated tree: ${variant.reason ?? "no reason"}` : null;
    const variantSide: SideObservation | undefined = candidate === undefined || variant === undefined || !variant.reloaded ? undefined : { ...candidate, requests: variant.requests };
    const witness = (side: SideObservation | undefined, probe: Probe): SideWitness | null => {
      if (side === undefined || !side.started) return null;
      const request = side.requests.find((r) => r.name === probe.id);
      return request === undefined ? null : sideWitness(questionOf(probe), request, side);
    };
    const proof = baseline !== undefined && candidate !== undefined ? judgeProof({ set: p.set, run: { ...run, observations: [baseline, candidate] }, baselineConfigs: [p.configs.baseline], candidateConfigs: [p.configs.candidate], ignore: null, defaultRoot: p.defaultRoot }) : null;
    const byProbe = new Map((proof?.matrix ?? []).filter((c) => c.probe !== null).map((c) => [c.probe!, c]));
    const cells = p.set.probes.map((probe) => ({
      probe,
      prediction: p.predictions.get(probe.id)!,
      real: { "2.2": witness(baseline, probe), "2.4": witness(variantSide, probe) },
      migrated: byProbe.get(probe.id) ?? null,
      port: { prediction: p.portPredictions.get(probe.id)!["2.4"], real: witness(candidate, probe) },
    }));
    return { input: p.input, migration: p.migration, set: p.set, cells, failures, unmigratedRefused };
  });
}
