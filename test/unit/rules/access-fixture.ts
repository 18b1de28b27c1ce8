// Test helpers for the rules: a configuration tree written into a temp dir and linted with one rule, and the
// evidence of one request difference, so a test states its input as an operator writes it.
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import type { Evidence } from "../../../harness/rules/evidence.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import { lintContext, type LintContext } from "../../../harness/rules/lint-context.ts";
import { lintContextFindings } from "../../../harness/rules/lint-tree.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Files by tree path; one file alone is a fragment, `conf/httpd.conf` an official tree. */
export async function contextOf(files: Record<string, string>, target: keyof typeof TARGET_PROFILES = "official"): Promise<LintContext> {
  const dir = await mkdtemp(join(tmpdir(), "rules-"));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return lintContext(await loadTree(dir), { defines: [], target: TARGET_PROFILES[target] });
}

/** One rule's findings on a tree (the invalid-command pass's generic findings left out). */
export async function findingsOf(rule: Rule, files: Record<string, string>, target: keyof typeof TARGET_PROFILES = "official"): Promise<LintFinding[]> {
  return lintContextFindings(await contextOf(files, target), [rule]).filter((found) => found.rule === rule.id);
}

/** A fragment: one site file. */
export function fragment(text: string): Record<string, string> {
  return { "site.conf": text };
}

/** Evidence of a request difference; `over` replaces any part. */
export function evidence(over: Partial<Evidence> = {}): Evidence {
  return {
    field: "status",
    baseline: "401",
    candidate: "200",
    request: { name: "get", method: "GET", path: "/", host: null, client: "client", user: null },
    status: { baseline: 401, candidate: 200 },
    log: { baseline: [], candidate: [] },
    families: { baseline: "2.2", candidate: "2.4" },
    findings: [],
    ...over,
  };
}

/** A finding of `rule` (for the evidence's `findings`), at a line, in sections written as httpd's labels. */
export function finding(rule: string, line: number, sections: string[] = []): LintFinding {
  return {
    rule, severity: "security", security: true, seed: [], file: "site.conf", line, column: 1, endLine: line, endColumn: 10,
    directive: "x", message: "", fix: null, fingerprint: `${rule}-${line}`, sections, includeChain: [], related: [],
  };
}

/** A 2.4 error-log record. */
export function record(code: string | null, message: string, module: string | null = null) {
  return { raw: `[${module ?? "core"}:error] ${code ?? ""}: ${message}`, level: "error", module, code, event: code, client: null, message, normalized: message };
}
