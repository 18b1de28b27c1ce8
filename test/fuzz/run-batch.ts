// One batch of fragments on real servers, in-process through the harness's own prove path: the batch's config as a
// fragment (on each image's stock config) on the baseline (2.2), migrate's port of it on the candidate (2.4), and
// the unchanged 2.2 text reloaded into the same candidate server as a variant (what lint's 2.4 claims are about).
// The probes are prove's (generated from the original and the port), the world is staged once per side. Returns,
// per probe, the real outcome on each side with its witnesses, the proof's class of the migrated cell, and the
// prediction of rules/predict-cells.ts for the original on 2.2 and on 2.4.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConfigTree } from "../../harness/conf/load-tree.ts";
import { readTree } from "../../harness/conf/read-tree.ts";
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
import { type CellPrediction, predictCells } from "../../harness/rules/predict-cells.ts";
import { TARGET_PROFILES } from "../../harness/rules/target-modules.ts";
import type { Scenario, TreeRef } from "../../harness/scenario/scenario.ts";
import { OFFICIAL_PROFILE } from "../../harness/server/httpd-profile.ts";

export interface Images {
  baseline: string;
  candidate: string;
}

export interface CellRun {
  probe: Probe;
  prediction: CellPrediction;
  /** The real outcome of the original on 2.2 and on 2.4 (unmigrated); null: that side did not answer it. */
  real: { "2.2": SideWitness | null; "2.4": SideWitness | null };
  /** The proof's cell (original on 2.2 against migrate's port on 2.4). */
  migrated: CellRecord | null;
}

export interface BatchRun {
  text: string;
  migration: Migration;
  set: ProbeSet;
  cells: CellRun[];
  /** Why a side could not answer at all (a config test 2.4 refused, a server that did not start). */
  failures: string[];
  durationMs: number;
}

const UNMIGRATED = "unmigrated";

export async function runBatch(text: string, images: Images, signal?: AbortSignal): Promise<BatchRun> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "fuzz-batch-"));
  try {
    const file = join(dir, "fuzz.conf");
    writeFileSync(file, text);
    const original: ConfigTree = await readTree(file, "fragment", []);
    const migration = migrateTree(original, { defines: [], annotate: false, rollback: new Set() });
    const port = migration.migrated;
    const { set, configs } = proofProbes(original, port, []);
    const defaultRoot = OFFICIAL_PROFILE.docRoot;
    const predictions = predictCells(lintContext(original, { defines: [], target: TARGET_PROFILES.official }), set, { defaultRoot });
    const portPath = `${file} (migrated)`;
    const at = { file, line: 1, column: 1 };
    const ref = (path: string, writtenFor: "2.2" | "2.4"): TreeRef => ({ at: { ...at, file: path }, path, layout: "fragment", defines: [], writtenFor });
    const base = treeScenario({ id: "fuzz-batch", baseline: { tree: original, ref: ref(file, "2.2") }, candidate: { tree: port, ref: ref(portPath, "2.4") } });
    const probed = withProbes(base, set);
    const variantKey = `${file}#${UNMIGRATED}`;
    const scenario: Scenario = { ...probed, server: { ...probed.server, variants: [{ id: UNMIGRATED, tree: variantKey, requests: set.probes.map((p) => p.id) }] } };
    const result = await runHarness({
      scenarios: [scenario],
      trees: new Map([[file, original], [portPath, port], [variantKey, original]]),
      baselineImage: images.baseline,
      candidateImage: images.candidate,
      allowMissingBaseline: true,
      concurrency: 1,
      learnNoise: false,
      // A batch waits for the shared client subnets other runs hold; its own work is a minute or two.
      scenarioTimeLimitMs: 900_000,
      ...(signal === undefined ? {} : { signal }),
    });
    const run = result.runs[0]!;
    const failures: string[] = [];
    if (run.error !== null) failures.push(`the batch could not run: ${run.error.message}`);
    const baseline = run.observations.find((o) => o.side.role === "baseline");
    const candidate = run.observations.find((o) => o.side.role === "candidate");
    for (const skipped of run.skipped) failures.push(`skipped: ${skipped.reason}`);
    for (const side of run.observations) {
      if (side.started) continue;
      const output = [...side.configTest.messages, ...(side.startFailure?.logTail ?? [])].slice(-6).join(" | ");
      failures.push(`${side.server.version.family} (${side.side.role}) did not start: ${output}`);
    }
    const variant = candidate?.variants.find((v) => v.id === UNMIGRATED);
    if (variant !== undefined && !variant.reloaded) failures.push(`2.4 did not load the unmigrated batch: ${variant.reason ?? "no reason"}`);
    const variantSide: SideObservation | undefined = candidate === undefined || variant === undefined ? undefined : { ...candidate, requests: variant.requests };
    const witness = (side: SideObservation | undefined, probe: Probe): SideWitness | null => {
      const request = side?.requests.find((r) => r.name === probe.id);
      return side === undefined || request === undefined || (variant !== undefined && side === variantSide && !variant.reloaded) ? null : sideWitness(questionOf(probe), request, side);
    };
    const proof = baseline !== undefined && candidate !== undefined ? judgeProof({ set, run: { ...run, observations: [baseline, candidate] }, baselineConfigs: [configs.baseline], candidateConfigs: [configs.candidate], ignore: null, defaultRoot }) : null;
    const byProbe = new Map((proof?.matrix ?? []).filter((c) => c.probe !== null).map((c) => [c.probe!, c]));
    const predicted = new Map(predictions.map((p) => [p.probe, p]));
    const cells = set.probes.map((probe) => ({
      probe,
      prediction: predicted.get(probe.id)!,
      real: { "2.2": witness(baseline, probe), "2.4": witness(variantSide, probe) },
      migrated: byProbe.get(probe.id) ?? null,
    }));
    return { text, migration, set, cells, failures, durationMs: Date.now() - started };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
