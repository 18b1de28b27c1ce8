// The command line's configuration trees: `--config PATH` (one site each, repeatable), `--candidate-config PATH`
// (the operator's own 2.4 port, paired with the --config of the same position), `--layout`, `-D NAME`. Trees
// are read once here, at the input boundary; a tree the harness cannot read as given (a missing include, an
// unclosed section, an Include cycle, a link out of the tree) stops the run before anything starts, with every
// such problem listed.
import { proofProbes } from "../judge/prove/proof-probes.ts";
import { withProbeWorld } from "../plan/probes/probe-scenario.ts";
import { basename, resolve } from "node:path";
import type { LayoutId } from "../conf/effective-config.ts";
import type { ConfigTree } from "../conf/load-tree.ts";
import { readTree } from "../conf/read-tree.ts";
import { HarnessError } from "../errors.ts";
import type { ScenarioLint } from "../judge/triage.ts";
import type { LoadedTrees } from "../plan/plan-scenario.ts";
import { lintTree } from "../rules/lint-tree.ts";
import type { Rule } from "../rules/rule.ts";
import { RULES } from "../rules/all-rules.ts";
import { defaultTargetModules, TARGET_PROFILES, type TargetModules } from "../rules/target-modules.ts";
import { smokeRequestsFor, treeScenario, writtenFor } from "../plan/tree/tree-scenario.ts";
import type { Scenario, TreeRef } from "../scenario/scenario.ts";
import { parseLayout } from "./layout-option.ts";
import { CATALOGUE_DIR } from "./catalogue-dir.ts";
import { USAGE } from "./parse-options.ts";

export interface TreeOptions {
  configs: readonly string[];
  candidateConfigs: readonly string[];
  layout: string | undefined;
  defines: readonly string[];
  /** `--target-modules`: what the candidate loads around a fragment besides its image's stock config. */
  targetModules?: TreeRef["targetModules"];
}

export { parseLayout } from "./layout-option.ts";

/** Scenario files, loaded and validated (zod): imported when a command is given some, so that a command on trees
 * alone never loads the scenario schema. */
async function loadScenarios(paths: readonly string[]): Promise<Scenario[]> {
  return (await import("../scenario/load-scenario.ts")).loadScenarios(paths);
}

export async function treeScenarios(options: TreeOptions): Promise<{ scenarios: Scenario[]; trees: Map<string, ConfigTree> }> {
  const layout = parseLayout(options.layout);
  if (options.candidateConfigs.length > 0 && options.candidateConfigs.length !== options.configs.length) {
    throw new HarnessError("HARNESS_USAGE", `${options.candidateConfigs.length} --candidate-config for ${options.configs.length} --config`, {
      hint: "Give one --candidate-config per --config, in the same order (the candidate runs the port of the config at the same position).",
    });
  }
  const trees = new Map<string, ConfigTree>();
  const scenarios: Scenario[] = [];
  const ids = new Set<string>();
  const ref = async (path: string, role: "baseline" | "candidate"): Promise<{ tree: ConfigTree; ref: TreeRef }> => {
    const absolute = resolve(path);
    const tree = trees.get(absolute) ?? (await readTree(absolute, layout, options.defines));
    trees.set(absolute, tree);
    const at = { file: path, line: 1, column: 1 };
    // A --config tree is the original; its own LoadModule lines say whether it was written for 2.4 already.
    const family = role === "candidate" ? "2.4" : writtenFor(tree, options.defines);
    return { tree, ref: { at, path: absolute, layout, defines: [...options.defines], writtenFor: family } };
  };
  for (const [index, path] of options.configs.entries()) {
    const baseline = await ref(path, "baseline");
    const port = options.candidateConfigs[index];
    const own = port === undefined ? baseline : await ref(port, "candidate");
    const candidate = options.targetModules ? { ...own, ref: { ...own.ref, targetModules: options.targetModules } } : own;
    // Named after the path given; a dot file (.htaccess) by its name without the dot.
    const name = basename(resolve(path)).replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^\.+/, "") || "config";
    let id = name;
    for (let n = 2; ids.has(id); n++) id = `${name}-${n}`;
    ids.add(id);
    scenarios.push(treeScenario({ id, baseline, candidate }));
  }
  return { scenarios, trees };
}

/** The trees scenario files name (`config: { tree: ... }`), read once each. */
export async function scenarioTrees(scenarios: readonly Scenario[], into: Map<string, ConfigTree> = new Map()): Promise<LoadedTrees> {
  for (const scenario of scenarios) {
    const refs = scenario.server.tree;
    if (!refs) continue;
    for (const ref of [refs.baseline, refs.candidate]) {
      if (!into.has(ref.path)) into.set(ref.path, await readTree(ref.path, ref.layout, ref.defines));
    }
  }
  return into;
}

/** Lint's findings on the trees each tree scenario runs, by scenario id, for triage to tie a run's differences
 * to config lines and to list every blocking problem of a tree 2.4 refuses: the --config tree (the baseline's,
 * and the candidate's unless a --candidate-config port runs there), read as the 2.4 target would. Scenarios
 * with an inline config have none. A tree is linted once per -D set, however many scenarios run it. */
export function treeLint(
  scenarios: readonly Scenario[],
  trees: LoadedTrees,
  target: TargetModules | null = null,
  rules: readonly Rule[] = RULES,
): Map<string, ScenarioLint> {
  const cache = new Map<string, ScenarioLint["candidate"]>();
  const lint = (ref: TreeRef): ScenarioLint["candidate"] => {
    const key = `${ref.path}\u0000${ref.defines.join("\u0000")}`;
    let findings = cache.get(key);
    if (!findings) {
      const tree = trees.get(ref.path);
      // As `lint PATH` reads the tree: for the 2.4 installation of its own layout unless told otherwise.
      findings = tree ? lintTree(tree, { defines: ref.defines, target: target ?? TARGET_PROFILES[defaultTargetModules(tree.layout)] }, rules).findings : [];
      cache.set(key, findings);
    }
    return findings;
  };
  const byScenario = new Map<string, ScenarioLint>();
  for (const scenario of scenarios) {
    const refs = scenario.server.tree;
    if (refs) byScenario.set(scenario.id, { baseline: lint(refs.baseline), candidate: lint(refs.candidate) });
  }
  return byScenario;
}

/** What a run runs: the scenario files given (the catalogue when none), the config trees given with --config
 * (only those, when no scenario file is named), and the trees scenario files name. */
export async function runInputs(
  positionals: readonly string[],
  values: { config?: string[]; "candidate-config"?: string[]; layout?: string; define?: string[] },
  /** Replaces each --config tree's smoke requests with probes generated from it (cli/tree-probes.ts). */
  withProbes?: (scenarios: Scenario[], trees: Map<string, ConfigTree>) => Scenario[],
  /** `--target-modules`, for the candidate of every --config tree. */
  targetModules?: TreeRef["targetModules"],
): Promise<{ scenarios: Scenario[]; trees: LoadedTrees }> {
  const configs = values.config ?? [];
  // Before treeScenarios, whose count check would otherwise answer "1 --candidate-config for 0 --config".
  if ((values["candidate-config"] ?? []).length > 0 && configs.length === 0) {
    throw new HarnessError("HARNESS_USAGE", "--candidate-config needs a --config: the original the port is compared with", { hint: USAGE });
  }
  const fromTrees = await treeScenarios({ configs, candidateConfigs: values["candidate-config"] ?? [], layout: values.layout, defines: values.define ?? [], ...(targetModules ? { targetModules } : {}) });
  if (withProbes) fromTrees.scenarios = withProbes(fromTrees.scenarios, fromTrees.trees);
  const files = positionals.length > 0 ? await loadScenarios(positionals) : configs.length > 0 ? [] : await loadScenarios([CATALOGUE_DIR]);
  const trees = await scenarioTrees(files, fromTrees.trees);
  return { scenarios: [...files.map((scenario) => withTree(scenario, trees)), ...fromTrees.scenarios], trees };
}

/** A scenario file's tree once read: the release line it was written for told from what it loads, and smoke
 * requests when the scenario writes none. */
function withTree(scenario: Scenario, trees: LoadedTrees): Scenario {
  const refs = scenario.server.tree;
  if (!refs) return scenario;
  const tree = (ref: TreeRef): ConfigTree => trees.get(ref.path)!;
  const baseline = refs.baseline.path === refs.candidate.path ? { ...refs.baseline, writtenFor: writtenFor(tree(refs.baseline), refs.baseline.defines) } : refs.baseline;
  const candidate = refs.baseline.path === refs.candidate.path ? baseline : refs.candidate;
  const requests =
    scenario.requests.length > 0
      ? scenario.requests
      : smokeRequestsFor(baseline === candidate ? [{ tree: tree(baseline), ref: baseline }] : [{ tree: tree(baseline), ref: baseline }, { tree: tree(candidate), ref: candidate }], scenario.server.at);
  const read = { ...scenario, server: { ...scenario.server, tree: { baseline, candidate } }, requests };
  // `world: probes`: the same world prove would stage for these trees.
  return scenario.server.worldFromProbes === true ? withProbeWorld(read, proofProbes(tree(baseline), tree(candidate), baseline.defines).set) : read;
}

