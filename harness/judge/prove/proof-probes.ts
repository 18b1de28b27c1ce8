// Pure: the probes a proof (and a fleet's run of a tree) sends, generated from the original as 2.2 runs it and
// the port as the 2.4 target runs it: every virtual host x path region x a client at each address and name the
// configs name x credentials x methods (plan/probes/, with the options rules/tree-probes.ts gives lint's too). The
// views come from the rules' lint context, which is why this sits beside the proof's judge rather than in plan/.
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import type { ConfigTree } from "../../conf/load-tree.ts";
import { generateProbes } from "../../plan/probes/generate-probes.ts";
import type { ProbeSet } from "../../plan/probes/probe.ts";
import { lintContext } from "../../rules/lint-context.ts";
import { defaultTargetModules, TARGET_PROFILES } from "../../rules/target-modules.ts";
import { treeProbeOptions } from "../../rules/tree-probes.ts";

/** The views prove reads: the original as 2.2 runs it, the port as the 2.4 target runs it. */
export function proofConfigs(original: ConfigTree, port: ConfigTree, defines: readonly string[]): { baseline: EffectiveConfig; candidate: EffectiveConfig } {
  const baseline = lintContext(original, { defines, target: TARGET_PROFILES[defaultTargetModules(original.layout)] }).source;
  const candidate = lintContext(port, { defines, target: TARGET_PROFILES[defaultTargetModules(port.layout)] }).target;
  return { baseline, candidate };
}

export function proofProbes(original: ConfigTree, port: ConfigTree, defines: readonly string[]): { set: ProbeSet; configs: ReturnType<typeof proofConfigs> } {
  const configs = proofConfigs(original, port, defines);
  const set = generateProbes([configs.baseline], [configs.candidate], treeProbeOptions([original, port]));
  return { set, configs };
}
