// Every rule's sample, as the 2.2 config the harness boots it with (test/containers/rules/rule-samples.test.ts
// runs the same on real servers): lint names the rule on the sample's own lines, with the severity the sample
// claims of 2.4 (blocking exactly when 2.4 refuses it).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES } from "../../../harness/rules/all-rules.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import { lintTree } from "../../../harness/rules/lint-tree.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import { sampledRules, writeSampleTree, type SampledRule } from "../../helpers/rule-samples.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "rule-samples-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Lint's findings of `rule` on the sample's own lines and files (the minimal base around it is not the rule's). */
async function findingsInSample(rule: SampledRule): Promise<LintFinding[]> {
  const sample = await writeSampleTree(rule, join(root, rule.id));
  const { findings } = lintTree(sample.tree, { defines: [], target: TARGET_PROFILES.official });
  const inSample = (f: LintFinding): boolean =>
    (f.file === sample.main.file && f.line >= sample.main.from && f.line <= sample.main.to) || sample.files.includes(f.file);
  return findings.filter((f) => f.rule === rule.id && inSample(f));
}

describe("each rule's sample, linted as the 2.2 tree it runs as", () => {
  it("some rules have samples", () => {
    expect(sampledRules(RULES).length).toBeGreaterThan(0);
  });

  for (const rule of sampledRules(RULES)) {
    it(`${rule.id}: lint finds ${rule.id} on the sample's lines, blocking exactly when 2.4 ${rule.sample.on24}`, async () => {
      const own = await findingsInSample(rule);
      expect(own.map((f) => `${f.rule} ${f.file}:${f.line} ${f.directive}`), `${rule.id}'s sample:\n${rule.sample.config}`).not.toEqual([]);
      const blocking = own.some((f) => f.severity === "blocking");
      expect({ rule: rule.id, on24: rule.sample.on24, blocking }).toEqual({ rule: rule.id, on24: rule.sample.on24, blocking: rule.sample.on24 === "refuses" });
    });
  }
});
