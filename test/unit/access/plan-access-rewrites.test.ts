import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planAccessRewrites } from "../../../harness/access/plan-access-rewrites.ts";
import { evaluateTree } from "../../../harness/conf/evaluate-tree.ts";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function rewrites(conf: string, rollback: string[] = []) {
  const root = mkdtempSync(join(tmpdir(), "access-plan-"));
  made.push(root);
  const file = join(root, "conf/httpd.conf");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, ['ServerRoot "/usr/local/apache2"', "Listen 80", 'DocumentRoot "/usr/local/apache2/htdocs"', conf].join("\n"));
  const tree = await loadTree(root);
  const config = evaluateTree(tree, { version: httpdVersion("2.2.34"), defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c", "mod_authz_host.c", "mod_alias.c", "mod_auth_basic.c"] });
  return planAccessRewrites(tree, config, { rollback: new Set(rollback) });
}

describe("planAccessRewrites", () => {
  it("gives a <Location> with only Require the address rules of the Directory its URLs reach", async () => {
    const result = await rewrites([
      "<Directory />", "  Order deny,allow", "  Deny from all", "</Directory>",
      "<Directory /usr/local/apache2/htdocs>", "  Order deny,allow", "  Deny from all", "  Allow from 10.0.0.0/8", "</Directory>",
      "<Location /admin>", "  AuthType Basic", "  AuthName admin", "  AuthUserFile /etc/pw", "  Require valid-user", "</Location>",
    ].join("\n"));
    const admin = result.find((r) => r.id === "access:conf/httpd.conf:13")!;
    expect(admin.compat).toBeNull();
    expect(admin.insert).toEqual(["<RequireAll>", "    Require ip 10.0.0.0/8", "    Require valid-user", "</RequireAll>"]);
    expect(admin.remove.map((node) => node.name)).toEqual(["Require"]);
    expect(result.find((r) => r.id === "access:conf/httpd.conf:8")!.insert).toEqual(["Require ip 10.0.0.0/8"]);
  });

  // Drupal-era shape: a <FilesMatch> of source extensions denied, then <Files "cron.php"> for localhost. The
  // extensions' pattern cannot take "cron.php", so the later section is translated; a pattern that can is kept.
  it("translates a later <Files> naming one file that an earlier <FilesMatch> in the same place cannot match", async () => {
    const conf = (second: string) => [
      "<Directory /srv/site>",
      '  <FilesMatch "\\.(engine|inc|module|sh|.*sql)$">', "    Order allow,deny", "  </FilesMatch>",
      `  <Files "${second}">`, "    Order deny,allow", "    Deny from all", "    Allow from 127.0.0.1", "  </Files>",
      "</Directory>",
    ].join("\n");
    const cron = (await rewrites(conf("cron.php"))).find((r) => r.id === "access:conf/httpd.conf:8")!;
    expect(cron.compat).toBeNull();
    expect(cron.insert).toEqual(["Require ip 127.0.0.1"]);
    const dump = (await rewrites(conf("dump.sql"))).find((r) => r.id === "access:conf/httpd.conf:8")!;
    expect(dump.compat?.reason).toMatch(/may match the same names/);
    const wild = (await rewrites(conf("*.inc"))).find((r) => r.id === "access:conf/httpd.conf:8")!;
    expect(wild.compat?.reason).toMatch(/may match the same names/);
  });

  it("keeps compat where the Directory sections a <Files> can meet disagree on what it inherits", async () => {
    const result = await rewrites([
      "<Directory /srv/a>", "  Order allow,deny", "  Allow from all", "</Directory>",
      "<Directory /srv/b>", "  Order deny,allow", "  Deny from all", "</Directory>",
      "<Files secret.txt>", "  Satisfy Any", "</Files>",
    ].join("\n"));
    const files = result.find((r) => r.id === "access:conf/httpd.conf:12")!;
    expect(files.compat?.reason).toMatch(/address rules .* differ/);
    expect(files.remove).toEqual([]);
  });

  it("keeps access lines inside <Limit> and hunks the prover rolled back as 2.2 wrote them", async () => {
    const conf = ["<Directory /srv/x>", "  <Limit POST>", "    Order deny,allow", "    Deny from all", "  </Limit>", "</Directory>", "<Directory /srv/y>", "  Order allow,deny", "  Allow from all", "</Directory>"].join("\n");
    const result = await rewrites(conf, ["access:conf/httpd.conf:10"]);
    expect(result.map((r) => r.compat?.reason)).toEqual([expect.stringMatching(/inside <Limit POST>/), "rolled back after a counterexample"]);
  });
});

describe("planAccessRewrites on .htaccess files", () => {
  async function withAccessFile(conf: string, htaccess: string) {
    const root = mkdtempSync(join(tmpdir(), "access-htaccess-"));
    made.push(root);
    mkdirSync(join(root, "conf"), { recursive: true });
    mkdirSync(join(root, "htdocs/admin"), { recursive: true });
    writeFileSync(join(root, "conf/httpd.conf"), ['ServerRoot "/usr/local/apache2"', "Listen 80", 'DocumentRoot "/usr/local/apache2/htdocs"', conf].join("\n"));
    writeFileSync(join(root, "htdocs/admin/.htaccess"), htaccess);
    const tree = await loadTree(root);
    const config = evaluateTree(tree, { version: httpdVersion("2.2.34"), defines: [], environment: {}, builtinModules: ["core.c", "mod_so.c", "mod_authz_host.c"] });
    return planAccessRewrites(tree, config, { rollback: new Set() });
  }

  it("translates a .htaccess file with what its directory's sections give it, at the top of the file", async () => {
    const result = await withAccessFile(
      ["<Directory /usr/local/apache2/htdocs>", "  AllowOverride All", "  Order allow,deny", "  Allow from all", "</Directory>"].join("\n"),
      "# admins only\nAuthType Basic\nAuthName admin\nAuthUserFile /etc/pw\nRequire valid-user\nSatisfy Any\nAllow from 10.0.0.0/8\n",
    );
    const file = result.find((r) => r.file === "htdocs/admin/.htaccess")!;
    expect(file).toMatchObject({ section: null, compat: null });
    // Its own Allow replaces the directory's address rules (Order Deny,Allow by default): everyone, no password.
    expect(file.insert).toEqual(["Require all granted"]);
  });

  it("leaves a .htaccess file httpd never reads (AllowOverride None) alone", async () => {
    const result = await withAccessFile(
      ["<Directory /usr/local/apache2/htdocs>", "  AllowOverride None", "</Directory>"].join("\n"),
      "Order deny,allow\nDeny from all\n",
    );
    expect(result.filter((r) => r.file.endsWith(".htaccess"))).toEqual([]);
  });
});
