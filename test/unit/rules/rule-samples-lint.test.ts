// Every rule's sample, as the 2.2 config the harness boots it with (test/containers/rules/rule-samples.test.ts
// runs the same on real servers), read for the 2.4 server the harness boots it on (its base's and the sample's
// modules, as the module map names them on 2.4): lint names the rule because of the sample (not because of the minimal base
// around it), with the severity the sample claims of 2.4 (blocking exactly when 2.4 refuses it or exits at start).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES } from "../../../harness/rules/all-rules.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import { lintTree } from "../../../harness/rules/lint-tree.ts";
import { sampledRules, sampleTargetModules, writeSampleTree, type SampledRule } from "../../helpers/rule-samples.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "rule-samples-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function lintFindings(rule: SampledRule, dir: string): Promise<LintFinding[]> {
  const tree = await writeSampleTree(rule, join(root, dir));
  return lintTree(tree, { defines: [], target: sampleTargetModules(rule) }).findings.filter((f) => f.rule === rule.id);
}

/** Lint's findings of `rule` that the sample brings: those the same minimal base without the sample's config,
 * modules and files does not have (by fingerprint, which does not move with line numbers). A rule whose
 * construct is an absence (a default) may anchor its finding on a base line the sample's modules add. */
async function findingsOfSample(rule: SampledRule): Promise<LintFinding[]> {
  const bare: SampledRule = { ...rule, sample: { config: "", on24: rule.sample.on24, ...(rule.sample.omitModules ? { omitModules: rule.sample.omitModules } : {}) } };
  const without = new Set((await lintFindings(bare, `${rule.id}-bare`)).map((f) => f.fingerprint));
  return (await lintFindings(rule, rule.id)).filter((f) => !without.has(f.fingerprint));
}

describe("each rule's sample, linted as the 2.2 tree it runs as", () => {
  it("some rules have samples", () => {
    expect(sampledRules(RULES).length).toBeGreaterThan(0);
  });

  for (const rule of sampledRules(RULES)) {
    it(`${rule.id}: lint finds ${rule.id} in what the sample adds, blocking exactly when 2.4 ${rule.sample.on24}`, async () => {
      const own = await findingsOfSample(rule);
      expect(own.map((f) => `${f.rule} ${f.file}:${f.line} ${f.directive}`), `${rule.id}'s sample:\n${rule.sample.config}`).not.toEqual([]);
      const blocking = own.some((f) => f.severity === "blocking");
      expect({ rule: rule.id, on24: rule.sample.on24, blocking }).toEqual({ rule: rule.id, on24: rule.sample.on24, blocking: rule.sample.on24 !== "starts" });
    });
  }
});
