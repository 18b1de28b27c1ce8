// `run --config PATH --probes`: each tree's smoke requests replaced by the probes prove sends (generated from
// the tree as 2.2 reads it and the candidate's tree as 2.4 reads it), with the probe users written into the
// trees' own user files, alike on both sides.
import type { ConfigTree } from "../conf/load-tree.ts";
import { probeRequests, withProbeUsers } from "../plan/probes/probe-scenario.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { proofProbes } from "../judge/prove/proof-probes.ts";

export function withTreeProbes(scenarios: Scenario[], trees: Map<string, ConfigTree>): Scenario[] {
  return scenarios.map((scenario) => {
    const refs = scenario.server.tree;
    if (!refs) return scenario;
    const baseline = trees.get(refs.baseline.path);
    const candidate = trees.get(refs.candidate.path);
    if (!baseline || !candidate) return scenario;
    const { set } = proofProbes(baseline, candidate, refs.baseline.defines);
    trees.set(refs.baseline.path, withProbeUsers(baseline, set.users));
    if (refs.candidate.path !== refs.baseline.path) trees.set(refs.candidate.path, withProbeUsers(candidate, set.users));
    const { clients, requests } = probeRequests(set, scenario.at);
    return { ...scenario, clients, requests };
  });
}
