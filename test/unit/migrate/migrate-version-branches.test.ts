// Access lines one version reads and the other skips, and the module an AuthType needs: what the differential
// fuzzer found migrate got wrong on real 2.2.34 and 2.4.68 (test/fixtures/fuzz/), now marked or fixed by migrate.
import { describe, expect, it } from "vitest";
import { migrateTree } from "../../../harness/migrate/migrate-tree.ts";
import { memoryTree } from "../conf/memory-tree.ts";

function migrate(text: string) {
  const tree = memoryTree({ "fuzz.conf": text }, { layout: "fragment", mainFile: "fuzz.conf" });
  const migration = migrateTree(tree, { defines: [], annotate: false, rollback: new Set() });
  return { changes: migration.changes, text: migration.migrated.source.files.get("fuzz.conf")!.toString() };
}

describe("migrate and the branches only one version reads", () => {
  it("a section whose access lines sit only in <IfModule !mod_authz_core.c> needs action: 2.4 applies none of them", () => {
    const { changes } = migrate("<Location /fz0>\n    <IfModule !mod_authz_core.c>\n        Order Deny,Allow\n        Deny from all\n    </IfModule>\n</Location>\n");
    expect(changes.filter((c) => c.status === "needs action").map((c) => c.before)).toEqual([["Order Deny,Allow", "Deny from all"]]);
  });

  it("a dual-syntax section (a 2.4 branch beside the 2.2 one) needs nothing", () => {
    const { changes } = migrate("<Location /fz0>\n    <IfModule !mod_authz_core.c>\n        Order Deny,Allow\n        Deny from all\n    </IfModule>\n    <IfModule mod_authz_core.c>\n        Require all denied\n    </IfModule>\n</Location>\n");
    expect(changes.filter((c) => c.status === "needs action")).toEqual([]);
  });

  it("host lines and Satisfy only 2.4 reads (<IfModule mod_access_compat.c>) need action", () => {
    for (const lines of [["Order Allow,Deny", "Allow from 10.9.0.0/16"], ["Satisfy Any"]]) {
      const { changes } = migrate(`<Directory /usr/local/apache2/htdocs/fz0>\n    <IfModule mod_access_compat.c>\n${lines.map((l) => `        ${l}\n`).join("")}    </IfModule>\n    AuthType Basic\n    AuthName "fz0"\n    AuthUserFile /usr/local/apache2/conf/fuzz.users\n    Require valid-user\n</Directory>\n`);
      expect(changes.filter((c) => c.status === "needs action").map((c) => c.before)).toEqual([lines]);
    }
  });

  it("AuthType Digest brings mod_auth_digest, which the official 2.4 stock config does not load", () => {
    const { changes, text } = migrate('<Directory /usr/local/apache2/htdocs/fz0>\n    AuthType Digest\n    AuthName "fz0"\n    AuthUserFile /usr/local/apache2/conf/fuzz.digest\n    Require valid-user\n</Directory>\n');
    expect(changes.find((c) => c.rule === "auth-type-module")?.after).toEqual(["LoadModule auth_digest_module modules/mod_auth_digest.so"]);
    expect(text).toMatch(/<IfModule !auth_digest_module>\s+LoadModule auth_digest_module modules\/mod_auth_digest\.so\s+<\/IfModule>/);
  });

  it("Require user and Require group together become the group lines alone, as 2.2 decides them", () => {
    const { text } = migrate('<Location /fz0>\n    AuthType Basic\n    AuthName "fz0"\n    AuthUserFile /usr/local/apache2/conf/fuzz.users\n    AuthGroupFile /usr/local/apache2/conf/fuzz.groups\n    Require user bob\n    Require group staff\n</Location>\n');
    expect(text).toContain("Require group staff");
    expect(text).not.toContain("Require user bob");
  });
});
