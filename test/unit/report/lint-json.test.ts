import { describe, expect, it } from "vitest";
import { lintOutcome } from "../../../harness/rules/lint-outcome.ts";
import { lintDocument } from "../../../harness/report/lint-json.ts";
import { finding, lintedTree } from "../rules/lint-findings.ts";

describe("lintDocument", () => {
  it("puts the contract's fields first in each finding, then the rest, then the tree", () => {
    const outcome = lintOutcome({ trees: [{ tree: lintedTree(), findings: [finding()] }], ignore: null, baseline: null, failOn: "blocking" });
    const document = lintDocument(outcome, "1.2.3");
    expect(Object.keys(document.findings[0]!)).toEqual([
      "rule", "severity", "file", "line", "column", "directive", "message", "fix", "security", "seed", "places", "tree",
    ]);
    expect(Object.keys(document.findings[0]!.places[0]!)).toEqual([
      "file", "line", "column", "endLine", "endColumn", "directive", "fingerprint", "sections", "includeChain", "related",
    ]);
    expect(document).toMatchObject({
      schemaVersion: "2.1",
      tool: { name: "httpd-upgrade-harness", version: "1.2.3" },
      files: [{ tree: "configs/a", file: "apache2.conf" }],
      trees: [{ path: "configs/a", layout: "debian", targetModules: "debian" }],
      summary: { findings: 1, places: 1, known: 0, ignored: 0, failOn: "blocking", failing: 1, failed: true },
    });
    // A place the access model made a claim for carries it, last (schema 2.1); the others have no such key.
    const claimed = lintOutcome({ trees: [{ tree: lintedTree(), findings: [finding({ predicted: "the outcome is not predicted: why" }), finding({ line: 4 })] }], ignore: null, baseline: null, failOn: "blocking" });
    const places = lintDocument(claimed, "1.2.3").findings[0]!.places;
    expect(places.map((place) => Object.keys(place).at(-1))).toEqual(["predicted", "related"]);
    expect(places[0]!.predicted).toBe("the outcome is not predicted: why");
    // The tree's absolute root stays out of the contract: the output is the same on every machine.
    expect(JSON.stringify(document)).not.toContain("/srv/repo");
  });
});
