import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { FIXTURES, runCli } from "./config-command-output.ts";

const schema = JSON.parse(readFileSync(new URL("../../../schema/config.schema.json", import.meta.url), "utf8")) as Record<string, unknown>;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

function check(value: unknown): ErrorObject[] {
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

async function json(...argv: string[]): Promise<{ status: number; document: Record<string, unknown> }> {
  const { status, stdout } = await runCli("config", ...argv, "--format", "json");
  return { status, document: JSON.parse(stdout) as Record<string, unknown> };
}

describe("config --format json", () => {
  it("writes the contract for the official tree, valid against schema/config.schema.json", async () => {
    const { status, document } = await json(`${FIXTURES}official`);
    expect(status).toBe(0);
    expect(check(document)).toEqual([]);
    expect(document).toMatchObject({
      schemaVersion: "1.0",
      version: "2.4.68",
      layout: "official",
      files: ["conf/httpd.conf", "conf/extra/vhosts.conf"],
      mpm: "event",
      problems: [],
    });
    expect(document.modules).toEqual([
      "core_module", "so_module", "http_module", "version_module", "mpm_event_module", "authz_core_module",
      "unixd_module", "alias_module", "log_config_module", "ssl_module",
    ]);
    expect(document.vhosts).toEqual([
      { names: ["www.example.test", "example.test"], address: "*", port: 80, tls: false, file: "conf/extra/vhosts.conf", line: 1 },
      { names: ["shop.example.test"], address: "*", port: 80, tls: false, file: "conf/extra/vhosts.conf", line: 10 },
      { names: ["www.example.test"], address: "*", port: 443, tls: true, file: "conf/extra/vhosts.conf", line: 15 },
    ]);
    const directives = document.directives as { name: string }[];
    expect(directives).toContainEqual({
      name: "Require", args: ["all", "granted"], file: "conf/httpd.conf", line: 25, column: 9,
      context: ['<Directory "/usr/local/apache2/htdocs">'],
    });
    expect(directives).toContainEqual({
      name: "ErrorLog", args: ["|/usr/local/apache2/bin/rotatelogs logs/ssl_error 86400"], file: "conf/extra/vhosts.conf",
      line: 19, column: 5, context: ["<VirtualHost *:443>"],
    });
  });

  it("is valid with problems too, and the error still gives status 2", async () => {
    const { status, document } = await json(`${FIXTURES}broken`);
    expect(status).toBe(2);
    expect(check(document)).toEqual([]);
    expect(document.problems).toEqual([
      expect.objectContaining({ file: "conf/httpd.conf", line: 3, column: 1, severity: "error" }),
    ]);
  });

  it("is valid for the Debian tree on 2.2 as well", async () => {
    const { document } = await json(`${FIXTURES}debian`, "--for", "2.2");
    expect(check(document)).toEqual([]);
    expect(document.version).toBe("2.2.34");
  });

  it("reads one site file as a fragment, with the sections around each directive", async () => {
    const { status, document } = await json(`${FIXTURES}fragment/site.conf`);
    expect(status).toBe(0);
    expect(check(document)).toEqual([]);
    expect(document).toMatchObject({ layout: "fragment", files: ["site.conf"], mpm: null });
    expect(document.directives).toContainEqual({
      name: "AuthUserFile", args: ["conf/private.passwd"], file: "site.conf", line: 7, column: 9,
      context: ["<VirtualHost *:8080>", "<Location /private>"],
    });
  });

  it("follows --layout over what the tree looks like", async () => {
    const { document } = await json(`${FIXTURES}official`, "--layout", "fragment");
    expect(document.layout).toBe("fragment");
  });

  it("rejects what breaks the contract (the check can fail)", () => {
    const errors = check({ schemaVersion: "1.0", version: "2.4", layout: "suse", files: [], modules: [], mpm: null, vhosts: [], directives: [], problems: [] });
    expect(errors.map((error) => error.instancePath).sort()).toEqual(["/layout", "/version"]);
  });
});
