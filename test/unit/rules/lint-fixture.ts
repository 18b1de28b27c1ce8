// Test helpers for the rules: a tree written into a temp dir and linted for a 2.4 target, and evidence built
// from log lines as 2.4 writes them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { parseConfigTestOutput } from "../../../harness/logs/split-config-test.ts";
import type { Evidence } from "../../../harness/rules/evidence.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import { lintTree, type LintResult } from "../../../harness/rules/lint-tree.ts";
import { TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";

/** A 2.2 httpd.conf head that 2.4 takes as it is: an MPM, the modules 2.2 had in core, and the defaults that
 * changed (EnableSendfile, FileETag, AllowOverride) set explicitly, so no row's default finding shows up. */
export const READY = [
  'ServerRoot "/usr/local/apache2"',
  "Listen 80",
  "LoadModule mpm_prefork_module modules/mod_mpm_prefork.so",
  "LoadModule unixd_module modules/mod_unixd.so",
  "LoadModule authn_core_module modules/mod_authn_core.so",
  "LoadModule authz_core_module modules/mod_authz_core.so",
  "LoadModule version_module modules/mod_version.so",
  "User daemon",
  "Group daemon",
  "ServerName localhost",
  'DocumentRoot "/usr/local/apache2/htdocs"',
  "EnableSendfile On",
  "FileETag INode MTime Size",
  "<Directory />",
  "    AllowOverride None",
  "</Directory>",
].join("\n");

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (tree paths → text) into a new temp dir laid out as an official ServerRoot and lints it. */
export async function lintFiles(files: Record<string, string>, target: keyof typeof TARGET_PROFILES = "official"): Promise<LintResult> {
  const dir = mkdtempSync(join(tmpdir(), "rules-"));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(join(dir, "htdocs"), { recursive: true });
  return lintTree(await loadTree(dir), { defines: [], target: TARGET_PROFILES[target] });
}

/** Lints READY followed by `body` as conf/httpd.conf (the body starts on line 12). */
export async function lintBody(body: string, extra: Record<string, string> = {}): Promise<LintResult> {
  return lintFiles({ "conf/httpd.conf": `${READY}\n${body}\n`, ...extra });
}

export const BODY_LINE = READY.split("\n").length + 1;

/** The findings of one rule, as "line directive" strings for compact expectations. */
export function of(result: LintResult, rule: string): LintFinding[] {
  return result.findings.filter((finding) => finding.rule === rule);
}

/** Evidence of a failed 2.4 config test whose output is `lines` (as `httpd -t` prints them). */
export function configTestEvidence(lines: readonly string[], field = "configTest"): Evidence {
  const candidate = parseConfigTestOutput(lines.join("\n"), 1, "2.4").records;
  const baseline = parseConfigTestOutput("Syntax OK", 0, "2.2").records;
  return {
    field,
    baseline: "ok",
    candidate: "failed",
    request: null,
    status: { baseline: null, candidate: null },
    log: { baseline, candidate },
    families: { baseline: "2.2", candidate: "2.4" },
    findings: [],
  };
}
