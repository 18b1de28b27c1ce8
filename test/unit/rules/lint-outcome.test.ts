import { describe, expect, it } from "vitest";
import { parseIgnoreFile } from "../../../harness/rules/ignore-file.ts";
import { baselineKey } from "../../../harness/rules/lint-baseline.ts";
import { lintOutcome } from "../../../harness/rules/lint-outcome.ts";
import { finding, lintedTree } from "./lint-findings.ts";

const a = lintedTree({ path: "a" });
const b = lintedTree({ path: "b" });

describe("lintOutcome", () => {
  it("reports every finding of every tree, tagged with its tree, and fails at --fail-on", () => {
    const outcome = lintOutcome({
      trees: [
        { tree: a, findings: [finding({ rule: "R9" }), finding({ rule: "X", severity: "behaviour", fingerprint: "f2" })] },
        { tree: b, findings: [finding({ rule: "R9" })] },
      ],
      ignore: null,
      baseline: null,
      failOn: "blocking",
    });
    expect(outcome.findings.map((f) => [f.tree, f.rule])).toEqual([["a", "R9"], ["a", "X"], ["b", "R9"]]);
    expect(outcome.bySeverity).toEqual({ blocking: 2, security: 0, behaviour: 1, deprecated: 0, expected: 0 });
    expect(outcome.failing).toBe(2);
    expect(outcome.ignored).toEqual({ file: null, total: 0, byRule: {}, entries: [] });
    expect(outcome.baseline).toBeNull();
  });

  it("counts at or above the threshold, and never an expected finding", () => {
    const findings = [finding({ severity: "security" }), finding({ severity: "deprecated" }), finding({ severity: "expected" })];
    const failing = (failOn: "blocking" | "security" | "behaviour" | "deprecated") => lintOutcome({ trees: [{ tree: a, findings }], ignore: null, baseline: null, failOn }).failing;
    expect([failing("blocking"), failing("security"), failing("behaviour"), failing("deprecated")]).toEqual([0, 1, 1, 2]);
  });

  it("drops what the ignore file silences, counted by rule and by entry", () => {
    const ignore = parseIgnoreFile("ignore:\n  - rule: R9\n    reason: later\n  - path: 'sites-enabled/*'\n    reason: owners port them\n", "fleet.yaml");
    const outcome = lintOutcome({
      trees: [
        {
          tree: a,
          findings: [finding({ rule: "R9" }), finding({ rule: "B4", file: "sites-enabled/x.conf" }), finding({ rule: "B4", file: "apache2.conf" }), finding({ rule: "R9", line: 9 })],
        },
      ],
      ignore,
      baseline: null,
      failOn: "blocking",
    });
    expect(outcome.findings.map((f) => [f.rule, f.file])).toEqual([["B4", "apache2.conf"]]);
    expect(outcome.ignored).toEqual({
      file: "fleet.yaml",
      total: 3,
      byRule: { R9: 2, B4: 1 },
      entries: [{ at: "fleet.yaml:2", reason: "later", count: 2 }, { at: "fleet.yaml:4", reason: "owners port them", count: 1 }],
    });
  });

  it("drops what the baseline knows in the same tree only, and decides on the new findings alone", () => {
    const known = finding({ fingerprint: "known" });
    const outcome = lintOutcome({
      trees: [
        { tree: a, findings: [known, finding({ fingerprint: "new", severity: "deprecated" })] },
        { tree: b, findings: [known] },
      ],
      ignore: null,
      baseline: { path: "old.json", keys: new Set([baselineKey("a", "known")]) },
      failOn: "blocking",
    });
    expect(outcome.findings.map((f) => [f.tree, f.fingerprint])).toEqual([["a", "new"], ["b", "known"]]);
    expect(outcome.baseline).toEqual({ file: "old.json", known: 1 });
    expect(outcome.failing).toBe(1);
  });
});
