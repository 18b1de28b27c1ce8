import { describe, expect, it } from "vitest";
import { RULES, ruleById } from "../../../harness/rules/all-rules.ts";
import { findingsOf } from "./rule-harness.ts";

const ROWS = ["B1", "N1", "N2", "E1", "E2", "D2", "D3", "D4", "D5", "D6", "S2", "S3", "S6", "S7", "S8", "S10", "S11", "S12", "S13", "S14", "S16", "S17", "S18"];

describe("the behaviour, deprecated and expected rules in the registry", () => {
  it("are registered once each, by row id, with their own row among their seeds", () => {
    expect(ROWS.filter((id) => ruleById(id)?.seed.includes(id) !== true)).toEqual([]);
    const ids = RULES.map((rule) => rule.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it("have a fix text and a sample that starts on 2.4, except the rows with nothing to run", () => {
    const noSample = ROWS.filter((id) => ruleById(id)?.sample === undefined);
    expect(noSample).toEqual(["B1", "D6"]);
    expect(ROWS.filter((id) => ruleById(id)?.sample !== undefined && ruleById(id)?.sample?.on24 !== "starts")).toEqual([]);
    expect(ROWS.filter((id) => !ruleById(id)?.fix)).toEqual([]);
  });

  it("each have a detect or a recognise face", () => {
    expect(ROWS.filter((id) => !ruleById(id)?.detect && !ruleById(id)?.recognise)).toEqual([]);
  });

  it("show their own construct in their sample: lint finds it there", () => {
    const silent = ROWS.filter((id) => {
      const rule = ruleById(id)!;
      if (!rule.sample || !rule.detect) return false;
      const modules = (rule.sample.modules ?? []).map((name) => `LoadModule ${name}_module modules/mod_${name}.so\n`).join("");
      return findingsOf(rule, `ServerRoot /usr/local/apache2\n${modules}${rule.sample.config}\n`, rule.sample.files ?? {}).length === 0;
    });
    expect(silent).toEqual([]);
  });
});
