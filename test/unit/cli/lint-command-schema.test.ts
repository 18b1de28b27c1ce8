// `lint --format json` against schema/lint.schema.json, and `lint --format sarif` against the official SARIF
// 2.1.0 schema (test/fixtures/sarif/, OASIS errata01, see its README): both checks are shown to fail on output
// that breaks them, so a passing check means something.
import { readFileSync } from "node:fs";
import { Ajv, type ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { runCli } from "./config-command-output.ts";
import { DEBIAN_TREE, PORTED_TREE, writeTree } from "./lint-trees.ts";

const lintSchema = JSON.parse(readFileSync(new URL("../../../schema/lint.schema.json", import.meta.url), "utf8")) as Record<string, unknown>;
const validateLint = new Ajv2020({ strict: true, allErrors: true }).compile(lintSchema);

// The OASIS schema is draft-04, which ajv 8 reads as draft-07 once its `id` is spelled `$id`: the schema uses no
// keyword whose meaning changed between the two (no exclusiveMinimum/Maximum, no dependencies).
const sarifSchema = JSON.parse(readFileSync(new URL("../../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8")) as Record<string, unknown>;
const { id, $schema: _draft04, ...sarifBody } = sarifSchema;
const sarifAjv = new Ajv({ strict: false, allErrors: true });
sarifAjv.addFormat("uri", (text: string) => URL.canParse(text));
sarifAjv.addFormat("uri-reference", (text: string) => URL.canParse(text, "file:///base/"));
sarifAjv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i);
const validateSarif = sarifAjv.compile({ ...sarifBody, $id: id as string });

function check(validate: typeof validateLint, value: unknown): ErrorObject[] {
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

async function lintOutput(format: string, ...argv: string[]): Promise<{ status: number; document: Record<string, unknown> }> {
  const { status, stdout, stderr } = await runCli("lint", ...argv, "--format", format);
  expect(stderr).toBe("");
  return { status, document: JSON.parse(stdout) as Record<string, unknown> };
}

describe("lint --format json", () => {
  it("writes the contract, valid against schema/lint.schema.json, the issue's fields first", async () => {
    const debian = writeTree(DEBIAN_TREE);
    const ported = writeTree(PORTED_TREE);
    const { status, document } = await lintOutput("json", debian, ported);
    expect(status).toBe(1);
    expect(check(validateLint, document)).toEqual([]);
    expect(Object.keys(document).slice(0, 3)).toEqual(["schemaVersion", "tool", "findings"]);
    const findings = document.findings as Array<Record<string, unknown>>;
    expect(Object.keys(findings[0]!).slice(0, 8)).toEqual(["rule", "severity", "file", "line", "column", "directive", "message", "fix"]);
    expect(findings).toContainEqual(
      expect.objectContaining({
        rule: "R9", severity: "blocking", file: "apache2.conf", line: 3, column: 1, directive: "LockFile ${APACHE_LOCK_DIR}/accept.lock", tree: debian,
      }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        rule: "B4",
        file: "sites-enabled/000-default.conf",
        line: 3,
        column: 5,
        places: [
          expect.objectContaining({
            file: "sites-enabled/000-default.conf", line: 3, column: 5, includeChain: [{ file: "apache2.conf", line: 6, column: 1 }], sections: ["<VirtualHost *:80>"],
          }),
        ],
      }),
    );
    expect(findings.every((finding) => finding.tree === debian)).toBe(true);
    expect(document.files).toContainEqual({ tree: ported, file: "conf/httpd.conf" });
    expect(document.trees).toEqual([
      { path: debian, layout: "debian", targetModules: "debian" },
      { path: ported, layout: "official", targetModules: "official" },
    ]);
    const places = findings.reduce((sum, finding) => sum + (finding.places as unknown[]).length, 0);
    expect(document.summary).toMatchObject({ findings: findings.length, places, failOn: "blocking", failed: true, known: 0, ignored: 0 });
  });

  it("is valid with places that carry the access model's prediction (2.1), in JSON and in SARIF", async () => {
    const block = (name: string) => `<Directory /usr/local/apache2/htdocs/${name}>\n    Order allow,deny\n    Allow from all\n    <IfModule mod_authz_core.c>\n        Require ip 192.0.2.1\n    </IfModule>\n</Directory>\n`;
    const tree = writeTree({ "site.conf": `LoadModule access_compat_module modules/mod_access_compat.so\n${block("l1")}${block("l2")}` });
    const { document } = await lintOutput("json", tree);
    expect(check(validateLint, document)).toEqual([]);
    const a5 = (document.findings as Array<{ rule: string; places: Array<{ predicted?: string }> }>).filter((finding) => finding.rule === "A5");
    expect(a5.map((finding) => finding.places.map((place) => place.predicted))).toEqual([["l1", "l2"].map((name) => expect.stringContaining(`(GET /${name}/)`))]);
    const { document: sarif } = await lintOutput("sarif", tree);
    expect(check(validateSarif, sarif)).toEqual([]);
  });

  it("is valid with nothing found too", async () => {
    const { status, document } = await lintOutput("json", writeTree(PORTED_TREE));
    expect(status).toBe(0);
    expect(check(validateLint, document)).toEqual([]);
    expect(document).toMatchObject({ findings: [], ignored: { file: null, total: 0 }, baseline: null, summary: { failed: false, failing: 0 } });
  });

  it("rejects what breaks the contract (the check can fail)", async () => {
    const { document } = await lintOutput("json", writeTree(DEBIAN_TREE));
    const findings = document.findings as Array<Record<string, unknown>>;
    const broken = {
      ...document,
      findings: [{ ...findings[0], severity: "fatal", line: 0 }, { ...findings[0], places: [] }, { ...findings[0], places: [{ file: "apache2.conf" }] }],
      summary: { ...(document.summary as object), failOn: "expected" },
    };
    expect([...new Set(check(validateLint, broken).map((error) => error.instancePath))].sort()).toEqual([
      "/findings/0/line", "/findings/0/severity", "/findings/1/places", "/findings/2/places/0", "/summary/failOn",
    ]);
  });
});

describe("lint --format sarif", () => {
  it("is valid SARIF 2.1.0: one run, rule metadata, regions, fingerprints, the include chain", async () => {
    const debian = writeTree(DEBIAN_TREE);
    const { status, document } = await lintOutput("sarif", debian);
    expect(status).toBe(1);
    expect(check(validateSarif, document)).toEqual([]);
    expect(document.version).toBe("2.1.0");
    const runs = document.runs as Array<Record<string, any>>;
    expect(runs).toHaveLength(1);
    const rules = runs[0]!.tool.driver.rules as Array<Record<string, any>>;
    expect(rules.find((rule) => rule.id === "R9")).toMatchObject({ defaultConfiguration: { level: "error" }, shortDescription: { text: expect.stringContaining("Mutex") } });
    const results = runs[0]!.results as Array<Record<string, any>>;
    const b4 = results.find((result) => result.ruleId === "B4")!;
    expect(rules[b4.ruleIndex]!.id).toBe("B4");
    // The temp tree lies outside the working directory: absolute file URIs.
    expect(b4.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: `file://${debian}/sites-enabled/000-default.conf` },
      region: { startLine: 3, startColumn: 5, endLine: 3, endColumn: 21, snippet: { text: "RewriteEngine on" } },
    });
    expect(b4.relatedLocations).toEqual([
      { id: 1, physicalLocation: { artifactLocation: { uri: `file://${debian}/apache2.conf` }, region: { startLine: 6, startColumn: 1 } }, message: { text: "sites-enabled/000-default.conf is included here" } },
    ]);
    expect(Object.values(b4.partialFingerprints as object)[0]).toMatch(/^[0-9a-f]{32}$/);
    // A LoadModule line is added elsewhere, never written over the directive: no fix object.
    expect(b4.fixes).toBeUndefined();
    expect(runs[0]!.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: `file://${process.cwd()}/` } });
  });

  it("is valid with several trees and nothing found", async () => {
    const { status, document } = await lintOutput("sarif", writeTree(PORTED_TREE), writeTree(PORTED_TREE));
    expect(status).toBe(0);
    expect(check(validateSarif, document)).toEqual([]);
    expect((document.runs as Array<Record<string, any>>)[0]!.results).toEqual([]);
  });

  it("names files of a tree inside the working directory relative to it, as code scanning reads them", async () => {
    const repo = writeTree(Object.fromEntries(Object.entries(DEBIAN_TREE).map(([path, text]) => [`configs/debian/${path}`, text])));
    const cwd = process.cwd();
    process.chdir(repo);
    try {
      const { document } = await lintOutput("sarif", "configs/debian");
      expect(check(validateSarif, document)).toEqual([]);
      const result = (document.runs as Array<Record<string, any>>)[0]!.results.find((r: { ruleId: string }) => r.ruleId === "R9");
      expect(result.locations[0].physicalLocation.artifactLocation).toEqual({ uri: "configs/debian/apache2.conf", uriBaseId: "%SRCROOT%" });
      expect(result.properties).toMatchObject({ tree: "configs/debian", file: "apache2.conf" });
    } finally {
      process.chdir(cwd);
    }
  });

  it("rejects what breaks SARIF (the check can fail)", async () => {
    const { document } = await lintOutput("sarif", writeTree(DEBIAN_TREE));
    const runs = document.runs as Array<Record<string, any>>;
    const result = runs[0]!.results[0];
    const broken = { ...document, runs: [{ ...runs[0], results: [{ ...result, level: "fatal", locations: [{ physicalLocation: { region: { startLine: 0 } } }] }] }] };
    const paths = check(validateSarif, broken).map((error) => error.instancePath);
    expect(paths).toContain("/runs/0/results/0/level");
    expect(paths).toContain("/runs/0/results/0/locations/0/physicalLocation/region/startLine");
  });
});
