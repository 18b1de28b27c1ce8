// docs/scenario-format.md must stay true to the loader: its YAML parses, its whole scenarios load, and its
// complete example is the fixture the loader's tests check.
import { readFileSync } from "node:fs";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../../harness/scenario/load-scenario.ts";

const DOC = readFileSync(new URL("../../../docs/scenario-format.md", import.meta.url), "utf8");
const FULL = readFileSync(new URL("../../fixtures/scenarios/full.scenario.yaml", import.meta.url), "utf8");
const YAML_BLOCKS = [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");

describe("docs/scenario-format.md", () => {
  it("has YAML examples that are all valid YAML", () => {
    expect(YAML_BLOCKS.length).toBeGreaterThan(15);
    for (const block of YAML_BLOCKS) expect(parseDocument(block).errors, block).toEqual([]);
  });

  it("has whole-scenario examples that load", () => {
    const whole = YAML_BLOCKS.filter((block) => /^id: /m.test(block));
    expect(whole.length).toBeGreaterThanOrEqual(2);
    for (const block of whole) expect(() => parseScenario(block, "docs/scenario-format.md")).not.toThrow();
  });

  it("ends with the complete example of test/fixtures/scenarios/full.scenario.yaml", () => {
    expect(YAML_BLOCKS.at(-1)).toBe(FULL);
  });
});
