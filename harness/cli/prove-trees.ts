// One proof: the original tree on the baseline image (2.2), the port on the candidate (2.4), the probes generated
// from both, run once on real servers and judged (judge/prove/judge-proof.ts). The probe world (identities in
// every store, an object behind every path) is staged on both sides alike; the trees are not changed. Used by `prove`, by `migrate --prove` and by the container tests.
import { basename } from "node:path";
import type { ConfigTree } from "../conf/load-tree.ts";
import type { EffectiveConfig } from "../conf/effective-config.ts";
import { HarnessError } from "../errors.ts";
import { judgeProof, type ProofInput } from "../judge/prove/judge-proof.ts";
import { withPower } from "../judge/prove/power.ts";
import { portMutants } from "../plan/mutants/port-mutants.ts";
import type { Proof } from "../judge/prove/proof.ts";
import { runHarness } from "../observe/run-harness.ts";
import type { ScenarioRun } from "../observe/scenario-run.ts";
import type { ProbeSet } from "../plan/probes/probe.ts";
import { proofProbes } from "../judge/prove/proof-probes.ts";
import { withProbes } from "../plan/probes/probe-scenario.ts";
import { treeScenario } from "../plan/tree/tree-scenario.ts";
import type { IgnoreFile } from "../rules/ignore-file.ts";
import type { Scenario, TreeRef } from "../scenario/scenario.ts";
import { OFFICIAL_PROFILE } from "../server/httpd-profile.ts";

export interface ProveInput {
  original: ConfigTree;
  /** How the original is named (its host path). */
  originalPath: string;
  port: ConfigTree;
  /** How the port is named: its host path, or "<original> (migrated)". */
  portPath: string;
  defines: readonly string[];
  baselineImage: string;
  candidateImage: string;
  ignore: IgnoreFile | null;
  signal?: AbortSignal;
  scenarioTimeLimitMs?: number;
  /** Measure the proof's power with mutants of the port (default true; `prove --no-power` turns it off). */
  power?: boolean;
}

export interface ProveResult {
  proof: Proof;
  set: ProbeSet;
  run: ScenarioRun;
  /** The whole run, for the run reports (--report). */
  result: Awaited<ReturnType<typeof runHarness>>;
  scenario: Scenario;
  trees: Map<string, ConfigTree>;
  configs: { baseline: EffectiveConfig; candidate: EffectiveConfig };
}

export async function proveTrees(input: ProveInput): Promise<ProveResult> {
  const { set, configs } = proofProbes(input.original, input.port, input.defines);
  const original = input.original;
  const port = input.port;
  const at = { file: input.originalPath, line: 1, column: 1 };
  const ref = (path: string, tree: ConfigTree, writtenFor: "2.2" | "2.4"): TreeRef => ({ at: { ...at, file: path }, path, layout: tree.layout, defines: [...input.defines], writtenFor });
  const base = treeScenario({
    id: basename(input.originalPath).replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^\.+/, "") || "config",
    baseline: { tree: original, ref: ref(input.originalPath, original, "2.2") },
    candidate: { tree: port, ref: ref(input.portPath, port, "2.4") },
  });
  const fragment = input.original.layout === "fragment" || input.port.layout === "fragment";
  const defaultRoot = fragment ? OFFICIAL_PROFILE.docRoot : null;
  // Power: mutants of the port, each reloaded into the candidate's server after the port's own probes.
  const mutants = input.power === false ? [] : portMutants(port, configs.candidate, set.probes, { defaultRoot });
  const variantKey = (id: string) => `${input.portPath}#${id}`;
  const probed = withProbes(base, set);
  const scenario: Scenario = {
    ...probed,
    title: `prove ${input.portPath} against ${input.originalPath}`,
    server: { ...probed.server, variants: mutants.map((m) => ({ id: m.id, tree: variantKey(m.id), requests: m.probes })) },
  };
  const trees = new Map([[input.originalPath, original], [input.portPath, port], ...mutants.map((m) => [variantKey(m.id), m.tree] as const)]);
  const result = await runHarness({
    scenarios: [scenario],
    trees,
    baselineImage: input.baselineImage,
    candidateImage: input.candidateImage,
    allowMissingBaseline: false,
    concurrency: 1,
    learnNoise: false,
    ...(input.scenarioTimeLimitMs === undefined ? {} : { scenarioTimeLimitMs: input.scenarioTimeLimitMs }),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
  const run = result.runs[0];
  if (run === undefined) throw new HarnessError("HARNESS_INTERNAL", "the proof's run returned nothing");
  if (run.error !== null) {
    throw new HarnessError(run.error.code === "HARNESS_CLIENT_ADDRESS" ? "HARNESS_CLIENT_ADDRESS" : "HARNESS_CONTAINER", `the proof could not run: ${run.error.message}`, {
      hint: "A probe client's address or name clashes with a network of this engine, or the engine failed; see the message.",
    });
  }
  if (run.observations.length < 2) {
    throw new HarnessError("HARNESS_IMAGE_MISSING", `prove needs both servers; ran: ${run.observations.map((o) => o.server.image).join(", ") || "none"} (${run.skipped.map((s) => s.reason).join("; ")})`, {
      hint: "Give the 2.2 image with --baseline or HTTPD_BASELINE_IMAGE.",
    });
  }
  const judged: ProofInput = { set, run, baselineConfigs: [configs.baseline], candidateConfigs: [configs.candidate], ignore: input.ignore, defaultRoot };
  const plain = judgeProof(judged);
  const variantsMs = run.observations[1]?.variants.reduce((sum, v) => sum + v.durationMs, 0) ?? 0;
  const proof = input.power === false ? plain : withPower(plain, judged, mutants, variantsMs);
  return { proof, set, run, result, scenario, trees, configs };
}
