import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { treeLabel } from "../../../harness/cli/lint-command.ts";
import { defaultTargetModules } from "../../../harness/rules/target-modules.ts";
import { detection, named } from "../../../harness/rules/detection.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import { runCli } from "./config-command-output.ts";
import { DEBIAN_TREE, PORTED_TREE, runLint, UNCLOSED_TREE, writeTree } from "./lint-trees.ts";

// Test rules with severities the registered rules do not have yet: each finds one directive on the 2.4 side.
const rule = (id: string, severity: Rule["severity"], directive: string): Rule => ({
  id,
  seed: [],
  title: `test: ${directive}`,
  severity,
  detect: (context) => named(context.target, directive).map((entry) => detection(entry, `${directive} under test`, null)),
});
const GRANTED = rule("T-security", "security", "Require");
const SERVER_NAME = rule("T-expected", "expected", "ServerName");
const DOCUMENT_ROOT = rule("T-deprecated", "deprecated", "DocumentRoot");

describe("lint: text output", () => {
  it("shows each finding once, its places with the directive and the include chain, then the fix", async () => {
    const root = writeTree(DEBIAN_TREE);
    const { status, stdout, stderr } = await runCli("lint", root);
    expect(stderr).toBe("");
    expect(status).toBe(1);
    expect(stdout).toContain(`${root}  (layout debian, 2.4 target debian, 3 files,`);
    expect(stdout).toMatch(/^ {2}blocking {2}R9 +2\.4 refuses to start: Invalid command 'LockFile'.*\n {6}apache2\.conf:3:1 {2}LockFile \$\{APACHE_LOCK_DIR\}\/accept\.lock\n {6}fix: /m);
    expect(stdout).toMatch(/^ {2}blocking {2}B4 +.*rewrite's directives.*\n {6}sites-enabled\/000-default\.conf:3:5 {2}RewriteEngine on {2}\(included from apache2\.conf:6\)\n/m);
    expect(stdout).toContain("      fix: LoadModule rewrite_module modules/mod_rewrite.so\n");
    expect(stdout.indexOf("apache2.conf:3:1")).toBeLessThan(stdout.indexOf("sites-enabled/000-default.conf:3:5"));
    expect(stdout).toMatch(/\n\d+ findings: \d+ blocking.*\nFAIL: \d+ findings at blocking or above \(--fail-on blocking\)\n$/);
    // Not a terminal: no colour codes.
    expect(stdout).not.toContain("\u001b[");
  });

  it("lints several trees in one run, each under its own heading; a clean 2.4 tree passes", async () => {
    const clean = writeTree(PORTED_TREE);
    const { status, stdout } = await runCli("lint", clean);
    expect(status).toBe(0);
    expect(stdout).toContain(`${clean}  (layout official, 2.4 target official, 1 file, 0 findings)`);
    expect(stdout).toMatch(/\nno findings\nPASS: nothing at blocking or above \(--fail-on blocking\)\n$/);

    const debian = writeTree(DEBIAN_TREE);
    const both = await runCli("lint", clean, debian);
    expect(both.status).toBe(1);
    expect(both.stdout.indexOf(clean)).toBeLessThan(both.stdout.indexOf(debian));

    // The same tree named twice is linted once.
    const twice = await runCli("lint", debian, `${debian}/`);
    expect(twice.stdout.split(`${debian}  (layout`)).toHaveLength(2);
  });

  it("colours on request (FORCE_COLOR) but never with NO_COLOR set, nor into --output", async ({ onTestFinished }) => {
    const root = writeTree(DEBIAN_TREE);
    const saved = { force: process.env.FORCE_COLOR, no: process.env.NO_COLOR };
    onTestFinished(() => {
      for (const [name, value] of [["FORCE_COLOR", saved.force], ["NO_COLOR", saved.no]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    delete process.env.NO_COLOR;
    process.env.FORCE_COLOR = "1";
    const coloured = await runCli("lint", root);
    expect(coloured.stdout).toContain("\u001b[31m");
    const out = join(root, "lint.txt");
    await runCli("lint", root, "--output", out);
    expect(readFileSync(out, "utf8")).not.toContain("\u001b[");
    process.env.NO_COLOR = "1";
    expect((await runCli("lint", root)).stdout).not.toContain("\u001b[");
  });

  it("follows -D into <IfDefine>, and reads one site file as a fragment", async () => {
    const root = writeTree({ "site.conf": "<IfDefine LEGACY>\n    LockFile /var/lock/accept.lock\n</IfDefine>\nServerName site.example.test\n" });
    const file = join(root, "site.conf");
    const plain = await runCli("lint", file, "--format", "json");
    expect(plain.status).toBe(0);
    const defined = await runCli("lint", file, "-D", "LEGACY", "--format", "json");
    expect(defined.status).toBe(1);
    const json = JSON.parse(defined.stdout) as { trees: unknown; findings: Array<{ rule: string; file: string; line: number }> };
    expect(json.trees).toEqual([{ path: file, layout: "fragment", targetModules: "official" }]);
    expect(json.findings).toContainEqual(expect.objectContaining({ rule: "R9", file: "site.conf", line: 2, column: 5 }));
  });

  it("writes to --output instead of standard output", async () => {
    const root = writeTree(DEBIAN_TREE);
    const out = join(root, "lint.json");
    const { status, stdout } = await runCli("lint", root, "--format", "json", "--output", out);
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ schemaVersion: "2.1", summary: { failed: true } });
    // Written beside the target and renamed into place: no temporary file is left.
    expect(readdirSync(root).filter((name) => name.startsWith("lint.json"))).toEqual(["lint.json"]);
  });
});

describe("lint: --fail-on and the exit status", () => {
  const tree = () => writeTree(PORTED_TREE);

  it("fails on a finding at or above --fail-on, passes below it", async () => {
    const root = tree();
    expect((await runLint([root], [GRANTED])).status).toBe(0);
    expect((await runLint([root, "--fail-on", "security"], [GRANTED])).status).toBe(1);
    expect((await runLint([root, "--fail-on", "deprecated"], [GRANTED])).status).toBe(1);
    expect((await runLint([root, "--fail-on", "security"], [DOCUMENT_ROOT])).status).toBe(0);
    expect((await runLint([root, "--fail-on", "deprecated"], [DOCUMENT_ROOT])).status).toBe(1);
  });

  it("never fails on an expected finding, but shows it", async () => {
    const { status, stdout } = await runLint([tree(), "--fail-on", "deprecated"], [SERVER_NAME]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/ {2}expected {2}T-expected {2}ServerName under test\n {6}conf\/httpd\.conf:6:1 {2}ServerName /);
    expect(stdout).toContain("1 finding: 1 expected\nPASS: nothing at deprecated or above (--fail-on deprecated)");
  });

  it("counts by severity in the summary, most urgent first", async () => {
    const { stdout } = await runLint([tree(), "--fail-on", "security"], [SERVER_NAME, DOCUMENT_ROOT, GRANTED]);
    expect(stdout).toContain("3 findings: 1 security, 1 deprecated, 1 expected\nFAIL: 1 finding at security or above (--fail-on security)");
  });
});

describe("lint: the ignore file", () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));

  it("reads .httpd-upgrade-ignore.yaml in the working directory and says what it silenced, by rule", async () => {
    const root = writeTree({ ...DEBIAN_TREE, ".httpd-upgrade-ignore.yaml": "ignore:\n  - rule: R9\n    reason: the fleet moves to Mutex in Q3\n" });
    process.chdir(root);
    const { status, stdout } = await runLint(["."]);
    expect(stdout).not.toMatch(/ R9 /);
    expect(stdout).toContain("1 ignored by .httpd-upgrade-ignore.yaml (R9 1)");
    // B4 still blocks.
    expect(status).toBe(1);
    const json = JSON.parse((await runLint([".", "--format", "json"])).stdout) as { ignored: unknown; findings: Array<{ rule: string; tree: string }> };
    expect(json.ignored).toEqual({ file: ".httpd-upgrade-ignore.yaml", total: 1, byRule: { R9: 1 }, entries: [{ at: ".httpd-upgrade-ignore.yaml:2", reason: "the fleet moves to Mutex in Q3", count: 1 }] });
    expect(json.findings.map((finding) => finding.tree)).toEqual(json.findings.map(() => "."));
  });

  it("takes --ignore FILE, whose entries can pass the lint", async () => {
    const root = writeTree(DEBIAN_TREE);
    const ignore = join(root, "fleet-ignore.yaml");
    writeFileSync(ignore, "ignore:\n  - path: 'sites-enabled/*'\n    reason: sites are ported by their owners\n  - rule: R9\n    reason: mutex later\n");
    const { status, stdout } = await runLint([root, "--ignore", ignore]);
    expect(status).toBe(0);
    expect(stdout).toContain(`no findings; 2 ignored by ${ignore} (R9 1, B4 1)`);
  });

  it("refuses a broken ignore file with its file and line (status 2)", async () => {
    const root = writeTree(DEBIAN_TREE);
    const ignore = join(root, "bad.yaml");
    writeFileSync(ignore, "ignore:\n  - rule: R9\n    reason: ok\n  - rule: B4\n");
    const { status, stderr } = await runCli("lint", root, "--ignore", ignore);
    expect(status).toBe(2);
    expect(stderr).toContain(`HARNESS_IGNORE_FILE: ${ignore}:4: an entry has no reason`);
    expect(stderr).toContain("Say why");
  });
});

describe("lint: bad input", () => {
  it.each([
    [["lint"], /one PATH or more/],
    [["lint", "x", "--format", "yaml"], /--format "yaml": use text, json, sarif/],
    [["lint", "x", "--fail-on", "expected"], /--fail-on "expected": use blocking, security, behaviour, deprecated/],
    [["lint", "x", "--layout", "suse"], /--layout "suse"/],
    [["lint", "x", "--bogus"], /bogus/],
  ])("refuses %j with HARNESS_USAGE and status 2", async (argv, message) => {
    const { status, stderr, stdout } = await runCli(...argv);
    expect(status).toBe(2);
    expect(stderr).toContain("HARNESS_USAGE");
    expect(stderr).toMatch(message);
    expect(stdout).toBe("");
  });

  it("refuses a tree with an unclosed section, naming the line, and prints no findings (status 2)", async () => {
    const bad = writeTree(UNCLOSED_TREE);
    const { status, stdout, stderr } = await runCli("lint", writeTree(DEBIAN_TREE), bad);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("HARNESS_CONFIG_FILE");
    expect(stderr).toContain(`${bad} (1 problem):\n  conf/httpd.conf:3:1: <VirtualHost> was not closed`);
  });

  it("refuses a path that does not exist, and an unknown --target-modules file", async () => {
    const missing = await runCli("lint", "/nonexistent/apache2");
    expect(missing.status).toBe(2);
    const target = await runCli("lint", writeTree(PORTED_TREE), "--target-modules", "/nonexistent/modules.txt");
    expect(target.status).toBe(2);
    expect(target.stderr).toContain("--target-modules /nonexistent/modules.txt: no such file");
  });
});

describe("lint: the 2.4 target", () => {
  it("is the layout's own profile unless --target-modules says otherwise", async () => {
    expect(defaultTargetModules("debian")).toBe("debian");
    expect(defaultTargetModules("rhel")).toBe("rhel");
    expect(defaultTargetModules("official")).toBe("official");
    expect(defaultTargetModules("fragment")).toBe("official");
    const root = writeTree(DEBIAN_TREE);
    const modules = join(root, "modules.txt");
    writeFileSync(modules, "Loaded Modules:\n core_module (static)\n so_module (static)\n rewrite_module (shared)\n");
    const { stdout } = await runLint([root, "--target-modules", modules, "--format", "json"]);
    const json = JSON.parse(stdout) as { trees: Array<{ targetModules: string }> };
    expect(json.trees[0]!.targetModules).toBe(modules);
  });

  it("names a tree relative to the working directory when inside it", () => {
    expect(treeLabel("configs/a/", "/srv/repo")).toBe("configs/a");
    expect(treeLabel("/srv/repo", "/srv/repo")).toBe(".");
    expect(treeLabel("/etc/apache2", "/srv/repo")).toBe("/etc/apache2");
  });
});
