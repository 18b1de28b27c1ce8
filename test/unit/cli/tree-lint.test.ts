import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { treeLint, treeScenarios } from "../../../harness/cli/tree-inputs.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import { scenario } from "../../fixtures/observations/scenarios.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/plan/tree/", import.meta.url));

// A rule that finds every Listen line: what lint finds is the rules' business, where it goes is treeLint's.
const LISTEN: Rule = {
  id: "T-LISTEN",
  seed: [],
  title: "a Listen line",
  severity: "behaviour",
  detect: (context) =>
    context.source.nodes.flatMap((node) => (node.kind === "directive" && node.key === "listen" ? [{ node, sections: [], message: "Listen", fix: null }] : [])),
};

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tree-lint-"));
  await mkdir(join(dir, "port", "conf"), { recursive: true });
  await writeFile(join(dir, "port", "conf", "httpd.conf"), 'ServerRoot "/usr/local/apache2"\nListen 8081\nListen 8082\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("treeLint", () => {
  it("lints the tree each side runs, by scenario id: the original on the baseline, the port on the candidate", async () => {
    const { scenarios, trees } = await treeScenarios({ configs: [`${FIXTURES}official-24`], candidateConfigs: [join(dir, "port")], layout: undefined, defines: [] });
    const lint = treeLint(scenarios, trees, undefined, [LISTEN]);
    // The engine's invalid-command pass runs too (the port loads no MPM, so 2.4 refuses its Listen lines: B4).
    const lines = (side: "baseline" | "candidate") => lint.get("official-24")![side].filter((f) => f.rule === "T-LISTEN").map((f) => [f.rule, f.file, f.line]);
    expect(lint.get("official-24")!.candidate.filter((f) => f.rule === "B4").map((f) => f.line)).toEqual([2, 3]);
    expect([...lint.keys()]).toEqual(["official-24"]);
    expect(lines("baseline")).toEqual([["T-LISTEN", "conf/httpd.conf", 3]]);
    expect(lines("candidate")).toEqual([
      ["T-LISTEN", "conf/httpd.conf", 2],
      ["T-LISTEN", "conf/httpd.conf", 3],
    ]);
  });

  it("lints a tree run against itself once, the same findings for both sides", async () => {
    const { scenarios, trees } = await treeScenarios({ configs: [`${FIXTURES}official-24`], candidateConfigs: [], layout: undefined, defines: [] });
    const lint = treeLint(scenarios, trees, undefined, [LISTEN]).get("official-24")!;
    expect(lint.candidate).toBe(lint.baseline);
  });

  it("gives a scenario with an inline config no lint findings at all", () => {
    expect(treeLint([scenario("id: inline\ntitle: inline\n")], new Map()).size).toBe(0);
  });
});
