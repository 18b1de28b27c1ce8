// `run --config PATH` (unless `--requests smoke`): each tree's smoke requests replaced by the probes prove sends
// (generated from the tree as 2.2 reads it and the candidate's tree as 2.4 reads it), with the probe world staged
// on both sides alike.
import type { ConfigTree } from "../conf/load-tree.ts";
import { withProbes } from "../plan/probes/probe-scenario.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { proofProbes } from "../judge/prove/proof-probes.ts";

export function withTreeProbes(scenarios: Scenario[], trees: Map<string, ConfigTree>): Scenario[] {
  return scenarios.map((scenario) => {
    const refs = scenario.server.tree;
    if (!refs) return scenario;
    const baseline = trees.get(refs.baseline.path);
    const candidate = trees.get(refs.candidate.path);
    if (!baseline || !candidate) return scenario;
    return withProbes(scenario, proofProbes(baseline, candidate, refs.baseline.defines).set);
  });
}
