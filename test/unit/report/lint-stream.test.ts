// lint's JSON and SARIF written in pieces (lintJsonChunks, lintSarifChunks: what `lint` writes) are byte for byte
// the text the whole document gives (JSON.stringify of lintDocument, lintSarif), on every sample of configs/, on a
// generated tree of many vhosts whose causes have hundreds of places each, and on edge cases (no finding at all, a
// tree with none, several trees, an ignored and a known place).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { lintDocument, lintJsonChunks } from "../../../harness/report/lint-json.ts";
import { lintSarif, lintSarifChunks } from "../../../harness/report/lint-sarif.ts";
import { RULES } from "../../../harness/rules/all-rules.ts";
import { parseIgnoreFile } from "../../../harness/rules/ignore-file.ts";
import { baselineKey } from "../../../harness/rules/lint-baseline.ts";
import { type LintedTree, type LintOutcome, lintOutcome } from "../../../harness/rules/lint-outcome.ts";
import { lintTree } from "../../../harness/rules/lint-tree.ts";
import { defaultTargetModules, TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import { writeBenchTree } from "../../../scripts/bench-conf-tree.ts";
import { finding, lintedTree } from "../rules/lint-findings.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const SAMPLES = readdirSync(CONFIGS, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
const OPTIONS = { toolVersion: "9.9.9", cwd: fileURLToPath(new URL("../../../", import.meta.url)).replace(/\/$/, "") };

async function linted(path: string, label: string): Promise<{ tree: LintedTree; findings: ReturnType<typeof lintTree>["findings"] }> {
  const tree = await loadTree(path);
  const result = lintTree(tree, { defines: [], target: TARGET_PROFILES[defaultTargetModules(tree.layout)] });
  return { tree: { path: label, root: path, layout: tree.layout, targetModules: defaultTargetModules(tree.layout), files: result.files }, findings: result.findings };
}

function expectSameText(outcome: LintOutcome): void {
  expect([...lintJsonChunks(outcome, "9.9.9")].join("")).toBe(`${JSON.stringify(lintDocument(outcome, "9.9.9"), null, 2)}\n`);
  expect([...lintSarifChunks(outcome, RULES, OPTIONS)].join("")).toBe(`${JSON.stringify(lintSarif(outcome, RULES, OPTIONS), null, 2)}\n`);
}

describe("lint's reports in pieces", { timeout: 120_000 }, () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it("samples are there to compare", () => {
    expect(SAMPLES.length).toBeGreaterThanOrEqual(5);
  });

  it.each(SAMPLES)("are the whole document's text for configs/%s", async (sample) => {
    const outcome = lintOutcome({ trees: [await linted(join(CONFIGS, sample), `configs/${sample}`)], ignore: null, baseline: null, failOn: "blocking" });
    expect(outcome.places).toBeGreaterThan(0);
    expectSameText(outcome);
  });

  it("are the whole document's text for every sample at once (many trees in one lint)", async () => {
    const trees = await Promise.all(SAMPLES.map((sample) => linted(join(CONFIGS, sample), `configs/${sample}`)));
    expectSameText(lintOutcome({ trees, ignore: null, baseline: null, failOn: "security" }));
  });

  it("are the whole document's text for a generated tree of 500 vhosts, a cause at hundreds of places", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lint-stream-"));
    made.push(dir);
    writeBenchTree(dir, { siteFiles: 50, vhostsPerFile: 10 });
    const outcome = lintOutcome({ trees: [await linted(dir, dir)], ignore: null, baseline: null, failOn: "blocking" });
    expect(Math.max(...outcome.findings.map((cause) => cause.places.length))).toBeGreaterThanOrEqual(500);
    expectSameText(outcome);
  });

  it("are the whole document's text with nothing found, a tree without findings, ignored and known places", () => {
    expectSameText(lintOutcome({ trees: [], ignore: null, baseline: null, failOn: "blocking" }));
    expectSameText(lintOutcome({ trees: [{ tree: lintedTree(), findings: [] }], ignore: null, baseline: null, failOn: "blocking" }));
    const ignore = parseIgnoreFile("ignore:\n  - rule: B4\n    reason: later\n", "fleet.yaml");
    expectSameText(
      lintOutcome({
        trees: [
          { tree: lintedTree({ path: "configs/a" }), findings: [finding({ rule: "B4" }), finding({ fingerprint: "known" }), finding({ line: 9, fingerprint: "new", related: [{ file: "apache2.conf", line: 8, column: 1 }] })] },
          { tree: lintedTree({ path: "configs/b" }), findings: [] },
        ],
        ignore,
        baseline: { path: "old.json", keys: new Set([baselineKey("configs/a", "known")]) },
        failOn: "blocking",
      }),
    );
  });

  it("are the whole document's text for places whose text is hand-written: escapes, shared and nested arrays, odd values", () => {
    const sections = ['<VirtualHost "*:80">', "<Directory /srv/\\x\u2028\u0001é>"];
    const chain = [{ file: "apache2.conf", line: 20, column: 1 }, { file: "sites-enabled/a b.conf", line: 3, column: 5 }];
    const findings = [
      finding({ directive: 'Header set X "a\\b" \u0007', sections, includeChain: chain, related: [{ file: "x.conf", line: 1, column: 2 }] }),
      finding({ line: 4, sections, includeChain: chain, fingerprint: "f:2" }),
      finding({ line: 5, sections: ["a"], includeChain: [], related: chain }),
      // What the text by hand does not write: JSON.stringify writes it (a field left out, a value that is no number).
      finding({ line: 6, directive: undefined as unknown as string }),
      finding({ line: Number.NaN, column: Number.POSITIVE_INFINITY }),
      finding({ line: 8, related: [{ file: "y.conf", line: 1, column: 2, extra: true } as never] }),
      // A place's own prediction (schema 2.1), with what JSON escapes.
      finding({ line: 9, predicted: 'predicted by the access model: 2.2 denied (403), 2.4 served (200) for "an outsider"\u2028' }),
      finding({ line: 10, predicted: 7 as unknown as string }),
    ];
    expectSameText(lintOutcome({ trees: [{ tree: lintedTree(), findings }], ignore: null, baseline: null, failOn: "blocking" }));
  });

  it("are the whole document's text for more distinct lines than the writer keeps the text of, each met again later", () => {
    const lines = Array.from({ length: 5_000 }, (_, at) => `Allow from 10.${at >> 8}.${at & 255}.0/24`);
    const findings = [...lines, ...lines.slice(0, 100)].map((directive, at) => finding({ line: at + 1, directive, fingerprint: `f${at}` }));
    expectSameText(lintOutcome({ trees: [{ tree: lintedTree(), findings }], ignore: null, baseline: null, failOn: "blocking" }));
  });
});
