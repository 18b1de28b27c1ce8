import { describe, expect, it } from "vitest";
import { SARIF_CAUSE_FINGERPRINT_KEY } from "../../../harness/rules/lint-baseline.ts";
import { lintOutcome, type LintedTree } from "../../../harness/rules/lint-outcome.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import type { Rule } from "../../../harness/rules/rule.ts";
import { causeFingerprint, literalFix, lintSarif } from "../../../harness/report/lint-sarif.ts";
import { finding, lintedTree } from "../rules/lint-findings.ts";

const OPEN: Rule = { id: "A1", seed: ["A1"], title: "Allow from all is Require all granted", severity: "security", security: true, fix: "Require all granted", help: "Guide: access control." };
const MUTEX: Rule = { id: "R9", seed: ["R9"], title: "mutex and lock directives are replaced by Mutex (2.4)", severity: "blocking" };
const ETAG: Rule = { id: "E1", seed: [], title: "ETag format", severity: "expected" };

function sarif(trees: Array<{ tree: LintedTree; findings: LintFinding[] }>, rules: readonly Rule[] = [OPEN, MUTEX, ETAG]) {
  return lintSarif(lintOutcome({ trees, ignore: null, baseline: null, failOn: "blocking" }), rules, { toolVersion: "9.9.9", cwd: "/srv/repo" }) as any;
}

describe("literalFix", () => {
  it("takes 2.4 directives as written, and nothing else", () => {
    expect(literalFix({ directive: "Allow from all", fix: "Require all granted" })).toBe("Require all granted");
    expect(literalFix({ directive: "Order deny,allow", fix: "Require ip 10.0.0.0/8\nRequire host example.test" })).toBe("Require ip 10.0.0.0/8\nRequire host example.test");
    // A placeholder, prose, an addition elsewhere, a 2.2-only directive, nothing to write, the same line.
    expect(literalFix({ directive: "LockFile x", fix: "Mutex file:DIR mpm-accept" })).toBeNull();
    expect(literalFix({ directive: "LockFile x", fix: "remove LockFile; see the rule for its 2.4 replacement" })).toBeNull();
    expect(literalFix({ directive: "RewriteEngine on", fix: "LoadModule rewrite_module modules/mod_rewrite.so" })).toBeNull();
    expect(literalFix({ directive: "LoadModule authz_default_module x.so", fix: "LoadModule authz_core_module modules/mod_authz_core.so" })).toBe("LoadModule authz_core_module modules/mod_authz_core.so");
    expect(literalFix({ directive: "X", fix: "Order allow,deny" })).toBe("Order allow,deny");
    expect(literalFix({ directive: "<Location /x>", fix: "<Location /x>\n    Require all denied\n</Location>" })).toBe("<Location /x>\n    Require all denied\n</Location>");
    expect(literalFix({ directive: "<Location /x>", fix: "<Location PATH>" })).toBeNull();
    expect(literalFix({ directive: "LockFile x", fix: "Mutex file:${APACHE_LOCK_DIR} default" })).toBe("Mutex file:${APACHE_LOCK_DIR} default");
    expect(literalFix({ directive: "X", fix: "AuthzLDAPAuthoritative off" })).toBeNull();
    expect(literalFix({ directive: "X", fix: null })).toBeNull();
    expect(literalFix({ directive: "Require all granted", fix: "Require all granted" })).toBeNull();
  });
});

describe("lintSarif", () => {
  const tree = lintedTree({ path: "configs/a", root: "/srv/repo/configs/a" });

  it("describes each rule once, with its level, help, tags and security severity", () => {
    const log = sarif([{ tree, findings: [] }]);
    const rules = log.runs[0].tool.driver.rules;
    expect(rules.map((rule: { id: string }) => rule.id)).toEqual(["A1", "R9", "E1"]);
    expect(rules[0]).toEqual({
      id: "A1",
      name: "AllowFromAllIsRequireAllGranted",
      shortDescription: { text: OPEN.title },
      fullDescription: { text: "Guide: access control." },
      help: { text: "Fix: Require all granted\n\nGuide: access control." },
      defaultConfiguration: { level: "error" },
      properties: { tags: ["httpd-2.4-upgrade", "security", "seed:A1"], severity: "security", "security-severity": "7.5", "problem.severity": "error" },
    });
    expect(rules[1].name).toBe("MutexAndLockDirectivesAreReplacedByMutex");
    expect(rules[2].defaultConfiguration.level).toBe("note");
    expect(log.runs[0].tool.driver).toMatchObject({ name: "httpd-upgrade-harness", version: "9.9.9" });
  });

  it("writes a result per finding (a cause): region (end column exclusive), fingerprint, tree, related lines, a literal fix", () => {
    const allow = finding({
      rule: "A1", severity: "security", security: true, file: "sites-enabled/x.conf", line: 7, column: 5, endLine: 7, endColumn: 18,
      directive: "Allow from all", fix: "Require all granted", message: "2.4 opens this to everyone.", fingerprint: "f".repeat(32),
      includeChain: [{ file: "apache2.conf", line: 82, column: 1 }, { file: "sites-enabled/all.conf", line: 2, column: 1 }],
      related: [{ file: "sites-enabled/x.conf", line: 6, column: 5 }],
    });
    const result = sarif([{ tree, findings: [allow] }]).runs[0].results[0];
    expect(result).toMatchObject({ ruleId: "A1", ruleIndex: 0, level: "error", message: { text: "2.4 opens this to everyone. Fix: Require all granted" } });
    const region = { startLine: 7, startColumn: 5, endLine: 7, endColumn: 19 };
    const x = { uri: "configs/a/sites-enabled/x.conf", uriBaseId: "%SRCROOT%" };
    expect(result.locations).toEqual([
      { physicalLocation: { artifactLocation: x, region: { ...region, snippet: { text: "Allow from all" } } }, properties: { file: "sites-enabled/x.conf", fingerprint: "f".repeat(32), sections: [] } },
    ]);
    expect(result.partialFingerprints).toEqual({ [SARIF_CAUSE_FINGERPRINT_KEY]: causeFingerprint(allow) });
    expect(result.partialFingerprints[SARIF_CAUSE_FINGERPRINT_KEY]).toMatch(/^[0-9a-f]{32}$/);
    expect(result.relatedLocations.map((l: { id: number; message: { text: string }; physicalLocation: { artifactLocation: { uri: string } } }) => [l.id, l.physicalLocation.artifactLocation.uri, l.message.text])).toEqual([
      [1, "configs/a/apache2.conf", "include chain"],
      [2, "configs/a/sites-enabled/all.conf", "sites-enabled/x.conf is included here"],
      [3, "configs/a/sites-enabled/x.conf", "read together with the finding's line"],
    ]);
    expect(result.fixes).toEqual([
      { description: { text: "Replace with: Require all granted" }, artifactChanges: [{ artifactLocation: x, replacements: [{ deletedRegion: region, insertedContent: { text: "Require all granted" } }] }] },
    ]);
    expect(result.properties).toEqual({ tree: "configs/a", file: "sites-enabled/x.conf", severity: "security", security: true, seed: ["R9"], places: 1 });
  });

  it("writes one result for a cause at many places: a location each with its fingerprint, one fix replacing each, the include chains once", () => {
    const chain = [{ file: "apache2.conf", line: 40, column: 1 }];
    const allow = (file: string, line: number) =>
      finding({ rule: "A1", severity: "security", file, line, column: 5, endLine: line, endColumn: 18, directive: "Allow from all", fix: "Require all granted", message: "open", fingerprint: `${file}:${line}`, includeChain: file === "apache2.conf" ? [] : chain });
    const results = sarif([{ tree, findings: [allow("apache2.conf", 3), allow("sites/a.conf", 7), allow("sites/a.conf", 9)] }]).runs[0].results;
    expect(results).toHaveLength(1);
    const [result] = results;
    expect(result.locations.map((l: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } }; properties: { fingerprint: string } }) => [l.physicalLocation.artifactLocation.uri, l.physicalLocation.region.startLine, l.properties.fingerprint])).toEqual([
      ["configs/a/apache2.conf", 3, "apache2.conf:3"],
      ["configs/a/sites/a.conf", 7, "sites/a.conf:7"],
      ["configs/a/sites/a.conf", 9, "sites/a.conf:9"],
    ]);
    expect(result.relatedLocations).toEqual([
      { id: 1, physicalLocation: { artifactLocation: { uri: "configs/a/apache2.conf", uriBaseId: "%SRCROOT%" }, region: { startLine: 40, startColumn: 1 } }, message: { text: "sites/a.conf is included here" } },
    ]);
    expect(result.fixes).toHaveLength(1);
    expect(result.fixes[0].artifactChanges.map((change: { artifactLocation: { uri: string }; replacements: Array<{ deletedRegion: { startLine: number } }> }) => [change.artifactLocation.uri, change.replacements.map((r) => r.deletedRegion.startLine)])).toEqual([
      ["configs/a/apache2.conf", [3]],
      ["configs/a/sites/a.conf", [7, 9]],
    ]);
    expect(result.properties.places).toBe(3);
  });

  it("gives each location its place's prediction as the location's message, the result's message the cause's", () => {
    const allow = (line: number, predicted?: string) =>
      finding({ rule: "A1", severity: "security", line, column: 5, directive: "Allow from all", message: "open", fingerprint: `f${line}`, ...(predicted === undefined ? {} : { predicted }) });
    const [result] = sarif([{ tree, findings: [allow(3, "predicted by the access model: 2.2 denied (403), 2.4 served (200) for an outsider (GET /a/)"), allow(7)] }]).runs[0].results;
    expect(result.message.text).toBe("open");
    expect(result.locations.map((l: { message?: { text: string } }) => l.message)).toEqual([{ text: "predicted by the access model: 2.2 denied (403), 2.4 served (200) for an outsider (GET /a/)" }, undefined]);
  });

  it("indents a fix of several lines as the directive is, and leaves fixes out when the fix is no config text", () => {
    const results = sarif([
      {
        tree,
        findings: [
          finding({ rule: "A1", column: 9, directive: "Order deny,allow", fix: "Require ip 10.0.0.0/8\nRequire host example.test" }),
          finding({ rule: "R9", line: 4, fix: "Mutex file:DIR mpm-accept" }),
        ],
      },
    ]).runs[0].results;
    expect(results[0].fixes[0].artifactChanges[0].replacements[0].insertedContent.text).toBe("Require ip 10.0.0.0/8\n        Require host example.test");
    expect(results[1].fixes).toBeUndefined();
    expect(results[1].relatedLocations).toBeUndefined();
  });

  it("names files relative to the working directory (code scanning's root), or by file URI outside it", () => {
    const log = sarif([
      { tree, findings: [finding()] },
      { tree: lintedTree({ path: "/etc/apache 2", root: "/etc/apache 2" }), findings: [finding()] },
      { tree: lintedTree({ path: ".", root: "/srv/repo" }), findings: [finding()] },
    ]);
    expect(log.runs[0].originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: "file:///srv/repo/" } });
    expect(log.runs[0].invocations).toEqual([{ executionSuccessful: true, workingDirectory: { uri: "file:///srv/repo/" } }]);
    expect(log.runs[0].results.map((r: { locations: Array<{ physicalLocation: { artifactLocation: unknown } }> }) => r.locations[0]!.physicalLocation.artifactLocation)).toEqual([
      { uri: "configs/a/apache2.conf", uriBaseId: "%SRCROOT%" },
      { uri: "file:///etc/apache%202/apache2.conf" },
      { uri: "apache2.conf", uriBaseId: "%SRCROOT%" },
    ]);
  });

  it("describes a rule it was not given from its findings", () => {
    const log = sarif([{ tree, findings: [finding({ rule: "Z9", severity: "behaviour" })] }], []);
    expect(log.runs[0].tool.driver.rules).toMatchObject([{ id: "Z9", defaultConfiguration: { level: "warning" } }]);
    expect(log.runs[0].results[0].ruleIndex).toBe(0);
  });
});
