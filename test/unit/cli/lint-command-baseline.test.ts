// `lint --baseline FILE`: a fleet that cannot be fixed in one day gates CI on new findings only.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./config-command-output.ts";
import { DEBIAN_TREE, writeTree } from "./lint-trees.ts";

interface Json {
  findings: Array<{ rule: string; line: number }>;
  baseline: { file: string; known: number } | null;
  summary: { known: number; findings: number; failed: boolean };
}

describe.each(["json", "sarif"])("lint --baseline with an earlier --format %s", (format) => {
  it("reports only findings that are new, counts the known ones, and passes when nothing new blocks", async () => {
    const root = writeTree(DEBIAN_TREE);
    const earlier = join(root, `earlier.${format}`);
    expect((await runCli("lint", root, "--format", format, "--output", earlier)).status).toBe(1);

    // Unchanged: everything is known.
    const same = await runCli("lint", root, "--baseline", earlier, "--format", "json");
    expect(same.status).toBe(0);
    const known = JSON.parse(same.stdout) as Json;
    expect(known.findings).toEqual([]);
    expect(known.baseline).toEqual({ file: earlier, known: known.summary.known });
    expect(known.summary.known).toBeGreaterThanOrEqual(2);

    // Lines moved (a comment added above) and one new blocking line: only the new one is reported.
    const main = join(root, "apache2.conf");
    writeFileSync(main, `# moved down by a comment\n${readFileSync(main, "utf8")}SSLMutex default\n`);
    const next = await runCli("lint", root, "--baseline", earlier, "--format", "json");
    expect(next.status).toBe(1);
    const fresh = JSON.parse(next.stdout) as Json;
    expect(fresh.findings.map((finding) => [finding.rule, finding.line])).toEqual([["R9", 8]]);
    expect(fresh.summary.known).toBe(known.summary.known);

    const text = await runCli("lint", root, "--baseline", earlier);
    expect(text.stdout).toContain(`1 finding: 1 blocking; ${known.summary.known} known in the baseline ${earlier}, not shown\nFAIL`);
  });
});

describe("lint --baseline: bad files", () => {
  it.each([
    ["not JSON", '{\n  "findings": [\n    { "rule": "R9", }\n', /:3: not JSON/],
    ["neither output", '{\n  "schemaVersion": "1.0"\n}\n', /:1: the file has neither "findings"/],
    ["a finding without a fingerprint", '{\n  "findings": [\n    { "rule": "R9", "tree": "." },\n    { "rule": "B4" }\n  ]\n}\n', /:3: findings\[0\] has no "fingerprint"/],
  ])("refuses %s, naming the file and line (status 2)", async (_, text, message) => {
    const root = writeTree(DEBIAN_TREE);
    const file = join(root, "baseline.json");
    writeFileSync(file, text);
    const { status, stderr, stdout } = await runCli("lint", root, "--baseline", file);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(`--baseline ${file}`);
    expect(stderr).toMatch(message);
    expect(stderr).toContain("Give --baseline the file an earlier");
  });

  it("refuses a baseline that does not exist", async () => {
    const { status, stderr } = await runCli("lint", writeTree(DEBIAN_TREE), "--baseline", "/nonexistent/lint.json");
    expect(status).toBe(2);
    expect(stderr).toContain("--baseline /nonexistent/lint.json: no such file");
  });
});
