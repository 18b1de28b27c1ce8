// `migrate` as an operator runs it: a patch that applies with patch(1) and gives the --out tree, a JSON summary
// valid against schema/migrate.schema.json, SARIF valid against the OASIS schema with every change's state,
// exit 1 when something needs action, and bad input refused without writing anything.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { runCli } from "./config-command-output.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const validateJson = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(readFileSync(new URL("../../../schema/migrate.schema.json", import.meta.url), "utf8")) as object);
const sarifSchema = JSON.parse(readFileSync(new URL("../../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8")) as Record<string, unknown>;
const { id, $schema: _draft04, ...sarifBody } = sarifSchema;
const sarifAjv = new Ajv({ strict: false, allErrors: true });
sarifAjv.addFormat("uri", (text: string) => URL.canParse(text));
sarifAjv.addFormat("uri-reference", (text: string) => URL.canParse(text, "file:///base/"));
sarifAjv.addFormat("date-time", () => true);
const validateSarif = sarifAjv.compile({ ...sarifBody, $id: id as string });

function tree(out: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${path}/`);
      else if (entry.isFile()) files.set(path, readFileSync(join(dir, entry.name), "utf8"));
    }
  };
  walk(out, "");
  return files;
}

describe("migrate command", () => {
  it("writes a patch that applies with patch(1) and gives the same tree as --out", async () => {
    const work = mkdtempSync(join(tmpdir(), "migrate-cli-"));
    const patched = join(work, "patched");
    cpSync(`${CONFIGS}name-vhosts`, patched, { recursive: true });
    const viaPatch = await runCli("migrate", `${CONFIGS}name-vhosts`, "--patch", join(work, "p.diff"));
    const viaOut = await runCli("migrate", `${CONFIGS}name-vhosts`, "--out", join(work, "out"));
    expect([viaPatch.status, viaOut.status]).toEqual([0, 0]);
    execFileSync("patch", ["-s", "-p1", "-d", patched, "-i", join(work, "p.diff")]);
    expect(tree(patched)).toEqual(tree(join(work, "out")));
    expect(tree(patched).get("conf/httpd.conf")).toMatch(/^LoadModule mpm_prefork_module modules\/mod_mpm_prefork\.so$/m);
    expect(viaOut.stdout).toMatch(/changes \(\d+ fixed, 0 need action/);
  });

  it("summarises as JSON and SARIF, each change with its rule and state; exit 1 when something needs action", async () => {
    // Access lines inside <Limit> keep 2.2's form with mod_access_compat: that needs action.
    const limited = mkdtempSync(join(tmpdir(), "m-limit-"));
    cpSync(`${CONFIGS}static-expires`, limited, { recursive: true });
    writeFileSync(join(limited, "conf/httpd.conf"), `${readFileSync(join(limited, "conf/httpd.conf"), "utf8")}\n<Directory "/usr/local/apache2/htdocs/upload">\n    <Limit POST>\n        Order deny,allow\n        Deny from all\n    </Limit>\n</Directory>\n`);
    const json = await runCli("migrate", limited, "--format", "json", "--patch", join(mkdtempSync(join(tmpdir(), "m-")), "p.diff"));
    expect(json.status).toBe(1);
    const document = JSON.parse(json.stdout) as { counts: Record<string, number>; changes: Array<{ status: string }> };
    expect(validateJson(document), JSON.stringify(validateJson.errors)).toBe(true);
    expect(document.counts["needs action"]).toBeGreaterThan(0);
    const sarif = await runCli("migrate", `${CONFIGS}debian-ssl`, "--format", "sarif", "--patch", join(mkdtempSync(join(tmpdir(), "m-")), "p.diff"));
    const log = JSON.parse(sarif.stdout) as { runs: Array<{ results: Array<{ properties: { status: string }; fixes?: unknown[] }> }> };
    expect(validateSarif(log), JSON.stringify(validateSarif.errors?.slice(0, 3))).toBe(true);
    const results = log.runs[0]!.results;
    expect(results.every((r) => ["fixed", "needs action", "needs inspection"].includes(r.properties.status))).toBe(true);
    expect(results.filter((r) => r.properties.status === "fixed").every((r) => (r.fixes?.length ?? 0) > 0)).toBe(true);
  });

  it("refuses a non-empty --out and a tree it cannot read, writing nothing", async () => {
    const work = mkdtempSync(join(tmpdir(), "migrate-bad-"));
    mkdirSync(join(work, "full"));
    writeFileSync(join(work, "full/keep.txt"), "mine");
    const full = await runCli("migrate", `${CONFIGS}name-vhosts`, "--out", join(work, "full"));
    expect(full.status).toBe(2);
    expect(readFileSync(join(work, "full/keep.txt"), "utf8")).toBe("mine");
    const broken = join(work, "broken");
    mkdirSync(join(broken, "conf"), { recursive: true });
    writeFileSync(join(broken, "conf/httpd.conf"), "ServerRoot /usr/local/apache2\n<Directory />\nOrder deny,allow\n");
    const bad = await runCli("migrate", broken, "--out", join(work, "never"));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/conf\/httpd\.conf:2/);
    expect(existsSync(join(work, "never"))).toBe(false);
  });
});
