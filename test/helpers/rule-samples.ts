// Test helper: a rule's sample (Rule.sample) as the harness runs it (a scenario with the minimal base, the
// modules it names translated per version by the module map) and as lint reads it (the 2.2 config that
// scenario renders, written out as an official-layout tree). One sample, one scenario: a failure names its rule.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import { stringify } from "yaml";
import { loadTree, type ConfigTree } from "../../harness/conf/load-tree.ts";
import { planScenario } from "../../harness/plan/plan-scenario.ts";
import { BASELINE, CANDIDATE } from "../../harness/plan/side.ts";
import { moduleFileOfId } from "../../harness/conf/module-identity.ts";
import type { Rule, RuleSample } from "../../harness/rules/rule.ts";
import { TARGET_PROFILES, type TargetModules } from "../../harness/rules/target-modules.ts";
import { parseScenario } from "../../harness/scenario/load-scenario.ts";
import type { Scenario } from "../../harness/scenario/scenario.ts";
import { officialDefaults } from "../../harness/server/official-defaults.ts";
import { httpdVersion } from "../../harness/versions/httpd-version.ts";

export type SampledRule = Rule & { sample: RuleSample };

/** The name of the one request a sample's scenario sends. */
export const SAMPLE_REQUEST = "sample";

export function sampledRules(rules: readonly Rule[]): SampledRule[] {
  return rules.filter((rule): rule is SampledRule => rule.sample !== undefined);
}

export function sampleScenarioId(rule: Rule): string {
  return `rule-sample-${rule.id.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
}

/** The scenario file a sample becomes; a "starts" sample is asked its request (or `/`) once it started. */
export function sampleScenarioYaml(rule: SampledRule): string {
  const { sample } = rule;
  return stringify({
    id: sampleScenarioId(rule),
    title: `rule ${rule.id}'s sample: ${rule.title}`,
    server: {
      base: "minimal",
      modules: sample.modules ?? [],
      omitModules: sample.omitModules ?? [],
      config: sample.config.endsWith("\n") ? sample.config : `${sample.config}\n`,
      files: sample.files ?? {},
    },
    // One attempt is enough: the test asks for an answer, not for a stable one.
    requests: [{ name: SAMPLE_REQUEST, path: sample.request ?? "/", repeat: false }],
  });
}

export function sampleScenario(rule: SampledRule): Scenario {
  return parseScenario(sampleScenarioYaml(rule), `${sampleScenarioId(rule)}.scenario.yaml`);
}

const BASELINE_22 = officialDefaults("httpd:2.2.34", httpdVersion("2.2.34"));
const CANDIDATE_24 = officialDefaults("httpd:2.4.62", httpdVersion("2.4.62"));

/** Plans the sample's scenario for both lines from the official layout's facts, without an engine: a sample the
 * harness cannot plan (a module no httpd has) throws here, for its own rule, instead of stopping a whole run. */
export function planSampleOffline(rule: SampledRule): void {
  planScenario(sampleScenario(rule), [
    { side: BASELINE, inspection: BASELINE_22 },
    { side: CANDIDATE, inspection: CANDIDATE_24 },
  ]);
}

/** The 2.4 server the harness boots the sample on, as lint's target: the official image's compiled-in modules
 * and every module the 2.4 side's config loads (its minimal base: MPM, unixd, authz_core; the sample's modules as
 * the module map names them on 2.4). Lint reads the sample's 2.2 tree for that server, as the harness runs it;
 * against a bare target a dual-syntax sample's `<IfModule mod_authz_core.c>` branch would never hold. */
export function sampleTargetModules(rule: SampledRule): TargetModules {
  const plan = planScenario(sampleScenario(rule), [{ side: CANDIDATE, inspection: CANDIDATE_24 }]);
  // The base's lines only: the site part is the sample itself, which lint reads with its own guards.
  const base = plan.sides[0]!.config.text.split(/^# --- site ---$/m)[0]!;
  const loaded = [...base.matchAll(/^\s*LoadModule\s+(\S+)\s/gm)].map((match) => moduleFileOfId(match[1]!) ?? match[1]!);
  const official = TARGET_PROFILES.official;
  return { name: `${sampleScenarioId(rule)} (2.4 side)`, compiledIn: [...official.compiledIn, ...loaded], stock: official.stock };
}

/** Writes the 2.2 config the sample's scenario renders (official layout, offline module facts) into `dir` as a
 * tree, with the sample's files, and loads it: what lint reads is what the 2.2 server boots. */
export async function writeSampleTree(rule: SampledRule, dir: string): Promise<ConfigTree> {
  const plan = planScenario(sampleScenario(rule), [{ side: BASELINE, inspection: BASELINE_22 }]);
  const side = plan.sides[0]!;
  const root = BASELINE_22.profile.serverRoot;
  const write = async (path: string, text: string): Promise<void> => {
    const target = join(dir, posix.relative(root, path));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  };
  await write(side.config.path, side.config.text);
  for (const file of side.files) {
    if ("text" in file.content && file.path.startsWith(`${root}/`)) await write(file.path, file.content.text);
  }
  return loadTree(dir);
}
