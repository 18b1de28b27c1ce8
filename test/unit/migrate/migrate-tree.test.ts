// migrateTree on every configs/ sample: what 2.4 would refuse is gone (lint finds nothing blocking on the
// migrated tree for the sample's 2.4 installation), every change says its rule and state, and only changed lines
// differ: the rest of each file is byte for byte the original.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type ConfigTree, loadTree } from "../../../harness/conf/load-tree.ts";
import { migrateTree } from "../../../harness/migrate/migrate-tree.ts";
import type { Migration } from "../../../harness/migrate/migration.ts";
import { lintTree } from "../../../harness/rules/lint-tree.ts";
import { defaultTargetModules, TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
const SAMPLES = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe("migrateTree on the configs/ samples", () => {
  const migrations = new Map<string, Migration>();
  beforeAll(async () => {
    for (const sample of SAMPLES) {
      const tree = await loadTree(`${CONFIGS}${sample}`);
      migrations.set(sample, migrateTree(tree, { defines: [], annotate: false, rollback: new Set() }));
    }
  });

  for (const sample of SAMPLES) {
    it(`${sample}: nothing 2.4 refuses is left, and lines nobody changed are the original's`, () => {
      const migration = migrations.get(sample)!;
      const target = TARGET_PROFILES[defaultTargetModules(migration.migrated.layout)];
      const blocking = lintTree(migration.migrated, { defines: [], target }).findings.filter((f) => f.severity === "blocking");
      expect(blocking.map((f) => `${f.rule} ${f.file}:${f.line} ${f.directive}`)).toEqual([]);
      expect(migration.changes.length).toBeGreaterThan(0);
      for (const change of migration.changes) {
        expect(change.rule).toMatch(/\S/);
        expect(["fixed", "needs action", "needs inspection"]).toContain(change.status);
      }
      const links = migration.original.source.links;
      const changedFiles = new Set(migration.changes.map((c) => links.get(c.span.file) ?? c.span.file));
      for (const [path, bytes] of migration.original.source.files) {
        const after = migration.migrated.source.files.get(path)!;
        if (!changedFiles.has(path)) expect(after.equals(bytes), path).toBe(true);
      }
    });
  }

  it("translates access by meaning and keeps what it cannot translate with mod_access_compat, saying why", () => {
    const status = migrations.get("tool-status-alias")!.changes.find((c) => c.span.line === 14)!;
    expect(status).toMatchObject({ rule: "M2", status: "fixed", after: ["<RequireAny>", "    Require ip 127.0.0.1 ::1", "    Require valid-user", "</RequireAny>"] });
    // .htaccess files too: merged right after their directory's <Directory> sections, a <FilesMatch> in one after it.
    const htaccess = migrations.get("app-htaccess")!.changes.filter((c) => c.span.file.endsWith(".htaccess"));
    expect(htaccess.map((c) => [c.span.file, c.after.join(" | ")])).toEqual([
      ["vhosts/app.example.com/htdocs/.htaccess", "Require all denied"],
      ["vhosts/app.example.com/htdocs/admin/.htaccess", "Require ip 10.20.0.0/16 127.0.0.1"],
      ["vhosts/app.example.com/htdocs/private/.htaccess", "Require all denied"],
      ["vhosts/app.example.com/htdocs/uploads/.htaccess", "Require all denied"],
    ]);
    const text = migrations.get("app-htaccess")!.migrated.source.files.get("conf/httpd.conf")!.toString("utf8");
    expect(text).not.toMatch(/access_compat_module/);
  });

  it("replaces what 2.4 does not have, adds beside what it reads, and carries renamed modules", () => {
    const debian = migrations.get("debian-ssl")!;
    const file = (path: string) => debian.migrated.source.files.get(debian.migrated.source.links.get(path) ?? path)!.toString("utf8");
    expect(file("apache2.conf")).toMatch(/^Mutex file:\$\{APACHE_LOCK_DIR\} mpm-accept$/m);
    expect(file("apache2.conf")).not.toMatch(/^\s*LockFile/m);
    expect(file("sites-enabled/default-ssl")).toMatch(/SSLOptions \+StdEnvVars\n\s*SSLOptions \+LegacyDNStringFormat/);
    expect(file("mods-enabled/mpm_prefork.load")).toBe("LoadModule mpm_prefork_module /usr/lib/apache2/modules/mod_mpm_prefork.so\n");
    const rhel = migrations.get("rhel-balancer")!;
    expect(rhel.changes.find((c) => c.before[0]?.includes("mod_mem_cache"))).toMatchObject({ rule: "B2", status: "needs inspection" });
    expect(rhel.migrated.source.files.get("conf/httpd.conf")!.toString("utf8")).toMatch(/^LoadModule cache_disk_module modules\/mod_cache_disk\.so$/m);
  });

  it("writes a fragment's missing modules guarded, at the top of the file that needs them", () => {
    const text = migrations.get("queuewatch-cgi")!.migrated.source.files.get("etc/queuewatch/apache.conf")!.toString("utf8");
    expect(text).toMatch(/<IfModule !cgid_module>\n\s*LoadModule cgid_module modules\/mod_cgid\.so\n<\/IfModule>/);
  });

  it("rolls back an access hunk on request, keeping 2.2's lines (the 2.4 stock config around a fragment loads mod_access_compat)", async () => {
    const tree: ConfigTree = await loadTree(`${CONFIGS}tool-status-alias`);
    const migration = migrateTree(tree, { defines: [], annotate: true, rollback: new Set(["access:etc/statgraph/apache.conf:43"]) });
    const text = migration.migrated.source.files.get("etc/statgraph/apache.conf")!.toString("utf8");
    expect(text).toMatch(/<Directory \/usr\/share\/statgraph\/status>[\s\S]*Order deny,allow[\s\S]*<\/Directory>/);
    expect(text).not.toMatch(/LoadModule access_compat_module/);
    expect(TARGET_PROFILES.official.stock).toContain("access_compat_module");
    expect(text).toMatch(/# migrated \(M2\): only 127\.0\.0\.1 ::1 without a password/);
    expect(migration.changes.find((c) => c.id === "access:etc/statgraph/apache.conf:43")).toMatchObject({ status: "needs action", proven: false });
  });
});
