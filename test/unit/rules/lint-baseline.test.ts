import { describe, expect, it } from "vitest";
import { baselineKey, parseBaseline, SARIF_FINGERPRINT_KEY } from "../../../harness/rules/lint-baseline.ts";

describe("parseBaseline", () => {
  it("reads the tree and fingerprint of each finding of lint's JSON", () => {
    const text = JSON.stringify({ schemaVersion: "1.0", findings: [{ fingerprint: "f1", tree: "a" }, { fingerprint: "f2", tree: "b" }] });
    expect([...parseBaseline(text, "old.json").keys]).toEqual([baselineKey("a", "f1"), baselineKey("b", "f2")]);
  });

  it("reads every place of each finding of lint's JSON (schemaVersion 2.0), with its finding's tree", () => {
    const text = JSON.stringify({ schemaVersion: "2.0", findings: [{ tree: "a", places: [{ fingerprint: "f1" }, { fingerprint: "f2" }] }, { tree: "b", places: [{ fingerprint: "f1" }] }] });
    expect([...parseBaseline(text, "old.json").keys]).toEqual([baselineKey("a", "f1"), baselineKey("a", "f2"), baselineKey("b", "f1")]);
    const broken = '{\n  "findings": [\n    {"tree": "a", "places": [\n      {"fingerprint": "f1"},\n      {"line": 3}\n    ]}\n  ]\n}';
    expect(() => parseBaseline(broken, "old.json")).toThrow(/old\.json:5: findings\[0\]\.places\[1\] has no "fingerprint"/);
  });

  it("reads lint's SARIF of a result per cause: each location's fingerprint, the result's tree", () => {
    const location = (fingerprint: string) => ({ physicalLocation: {}, properties: { fingerprint } });
    const result = { ruleId: "M2", partialFingerprints: { "httpdUpgradeHarness/cause/v1": "c" }, locations: [location("f1"), location("f2")], properties: { tree: "." } };
    const text = JSON.stringify({ version: "2.1.0", runs: [{ results: [result] }] });
    expect([...parseBaseline(text, "new.sarif").keys]).toEqual([baselineKey(".", "f1"), baselineKey(".", "f2")]);
  });

  it("reads lint's SARIF of a result per place (older): the partial fingerprint and the tree property of each result", () => {
    const result = (fingerprint: string) => ({ ruleId: "R9", partialFingerprints: { [SARIF_FINGERPRINT_KEY]: fingerprint }, properties: { tree: "." } });
    const text = JSON.stringify({ version: "2.1.0", runs: [{ results: [result("f1")] }, { results: [result("f2")] }] });
    expect([...parseBaseline(text, "old.sarif").keys]).toEqual([baselineKey(".", "f1"), baselineKey(".", "f2")]);
  });

  it("reads an empty lint as knowing nothing", () => {
    expect(parseBaseline('{"findings": []}', "old.json").keys.size).toBe(0);
  });

  it.each([
    ["[]", 1, "the file is not a JSON object"],
    ['{\n  "findings": [\n    {"fingerprint": "f1", "tree": "a"},\n    {"fingerprint": 7, "tree": "a"}\n  ]\n}', 4, 'findings[1] has no "fingerprint"'],
    ['{\n  "runs": [\n    {\n      "results": [\n        {"ruleId": "X"}\n      ]\n    }\n  ]\n}', 5, "runs[0].results[0] has no partialFingerprints"],
    ['{\n  "runs": [\n    {"tool": {}}\n  ]\n}', 3, 'runs[0] has no "results" list'],
    ['{\n  "findings": [\n  }\n', 3, "not JSON"],
  ])("refuses %j at line %i", (text, line, message) => {
    expect(() => parseBaseline(text, "old.json")).toThrow(`--baseline old.json:${line}: ${message}`);
  });
});
