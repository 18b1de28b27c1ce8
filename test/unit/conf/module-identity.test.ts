import { describe, expect, test } from "vitest";
import { ModuleSet, moduleFileOfId, moduleIdOfFile } from "../../../harness/conf/module-identity.ts";

describe("module names", () => {
  test.each([
    ["mod_ssl.c", "ssl_module"],
    ["mod_authz_core.c", "authz_core_module"],
    ["prefork.c", "mpm_prefork_module"],
    ["event.c", "mpm_event_module"],
    ["util_ldap.c", "ldap_module"],
    ["mod_php5.c", "php5_module"],
    ["http_core.c", "http_module"],
    ["core.c", "core_module"],
  ])("%s ↔ %s", (file, id) => {
    expect(moduleIdOfFile(file)).toBe(id);
    expect(moduleFileOfId(id)).toBe(file);
  });

  test("names of neither form have no counterpart", () => {
    expect(moduleIdOfFile("ssl_module")).toBeNull();
    expect(moduleFileOfId("mod_ssl.c")).toBeNull();
  });

  test("a module set answers both names, case-sensitively as httpd's strcmp", () => {
    const set = new ModuleSet(["core.c", "prefork.c"]);
    set.addId("php5_module");
    expect(set.has("mpm_prefork_module")).toBe(true);
    expect(set.has("mod_php5.c")).toBe(true);
    expect(set.has("php5_module")).toBe(true);
    expect(set.has("Mod_php5.c")).toBe(false);
    expect(set.has("mod_ssl.c")).toBe(false);
  });
});
