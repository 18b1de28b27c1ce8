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
    expect(outcome.findings.map((f) => [f.rule, f.places.map((place) => place.file)])).toEqual([["B4", ["apache2.conf"]]]);
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
    expect(outcome.findings.map((f) => [f.tree, f.places.map((place) => place.fingerprint)])).toEqual([["a", ["new"]], ["b", ["known"]]]);
    expect(outcome.baseline).toEqual({ file: "old.json", known: 1 });
    expect(outcome.failing).toBe(1);
  });

  it("groups one cause's places into one finding per tree, in the order of first places, and decides on causes", () => {
    const order = (line: number, file = "apache2.conf") => finding({ rule: "M2", message: "Invalid command 'Order'", fix: "LoadModule access_compat_module", file, line, fingerprint: `o${line}` });
    const allow = finding({ rule: "M2", message: "Invalid command 'Allow'", fix: "LoadModule access_compat_module", line: 5, fingerprint: "a5" });
    const first = order(3);
    const outcome = lintOutcome({
      trees: [
        { tree: a, findings: [first, allow, order(8), order(2, "sites-enabled/x.conf")] },
        { tree: b, findings: [order(4)] },
      ],
      ignore: null,
      baseline: null,
      failOn: "blocking",
    });
    expect(outcome.findings.map((f) => [f.tree, f.message, f.places.map((place) => `${place.file}:${place.line}`)])).toEqual([
      ["a", "Invalid command 'Order'", ["apache2.conf:3", "apache2.conf:8", "sites-enabled/x.conf:2"]],
      ["a", "Invalid command 'Allow'", ["apache2.conf:5"]],
      ["b", "Invalid command 'Order'", ["apache2.conf:4"]],
    ]);
    // The places are the lint's own findings, not copies.
    expect(outcome.findings[0]!.places[0]).toBe(first);
    expect(outcome.places).toBe(5);
    expect(outcome.bySeverity.blocking).toBe(3);
    expect(outcome.failing).toBe(3);
  });

  it("keeps a rule's places apart where its message, fix or severity differs", () => {
    const outcome = lintOutcome({
      trees: [{ tree: a, findings: [finding({ fix: "x" }), finding({ fix: null }), finding({ severity: "behaviour" }), finding({ line: 9 })] }],
      ignore: null,
      baseline: null,
      failOn: "blocking",
    });
    expect(outcome.findings.map((f) => [f.fix, f.severity, f.places.length])).toEqual([["x", "blocking", 1], [null, "blocking", 2], [null, "behaviour", 1]]);
  });
});
