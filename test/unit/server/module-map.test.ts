import { describe, expect, it } from "vitest";
import { moduleBinding, resolveModules } from "../../../harness/server/module-map.ts";
import { builtModules } from "../../fixtures/observations/recorded.ts";

const MODULES_DIR = "/usr/local/apache2/modules";
const built22 = builtModules("2.2");
const built24 = builtModules("2.4");

describe("moduleBinding", () => {
  it("binds 2.2's access_compat to mod_authz_host, where Order/Allow/Deny live on 2.2", () => {
    expect(moduleBinding("access_compat", "2.2")).toEqual({ file: "mod_authz_host.so", id: "authz_host_module" });
    expect(moduleBinding("access_compat", "2.4")).toEqual({ file: "mod_access_compat.so", id: "access_compat_module" });
  });

  it("treats the authorization core, User and the MPM as compiled into 2.2, and as modules on 2.4", () => {
    const names = ["authz_core", "authn_core", "unixd", "mpm_event"];
    expect(names.map((name) => moduleBinding(name, "2.2"))).toEqual(["builtin", "builtin", "builtin", "builtin"]);
    expect(names.map((name) => moduleBinding(name, "2.4"))).toEqual([
      { file: "mod_authz_core.so", id: "authz_core_module" },
      { file: "mod_authn_core.so", id: "authn_core_module" },
      { file: "mod_unixd.so", id: "unixd_module" },
      { file: "mod_mpm_event.so", id: "mpm_event_module" },
    ]);
  });

  it("loads cache_disk from 2.2's old file name mod_disk_cache.so (seed B2)", () => {
    expect(moduleBinding("cache_disk", "2.2")).toEqual({ file: "mod_disk_cache.so", id: "disk_cache_module" });
    expect(moduleBinding("cache_disk", "2.4")).toEqual({ file: "mod_cache_disk.so", id: "cache_disk_module" });
  });

  it("has no disk_cache on 2.4, while 2.2 loads it under that name", () => {
    expect(moduleBinding("disk_cache", "2.4")).toBe("absent");
    expect(moduleBinding("disk_cache", "2.2")).toEqual({ file: "mod_disk_cache.so", id: "disk_cache_module" });
  });

  it("maps authn_alias on 2.4 to mod_authn_core, where AuthnProviderAlias moved (seed N3)", () => {
    expect(moduleBinding("authn_alias", "2.4")).toEqual({ file: "mod_authn_core.so", id: "authn_core_module" });
    expect(moduleBinding("authn_alias", "2.2")).toEqual({ file: "mod_authn_alias.so", id: "authn_alias_module" });
  });

  it("has every non-builtin exception's 2.2 and 2.4 file in the recorded images", () => {
    for (const [family, built] of [["2.2", built22], ["2.4", built24]] as const) {
      for (const name of ["access_compat", "cache_disk", "authn_alias", "status", "proxy_http", "ssl"]) {
        const binding = moduleBinding(name, family);
        if (typeof binding === "string") continue;
        expect({ family, name, present: built.has(binding.file) }).toEqual({ family, name, present: true });
      }
    }
  });
});

describe("resolveModules", () => {
  it("writes the LoadModule lines of a 2.4 site in the order asked, with the image's modules directory", () => {
    expect(resolveModules(["mpm_event", "unixd", "status", "access_compat"], "2.4", built24, MODULES_DIR)).toEqual({
      loadLines: [
        "LoadModule mpm_event_module /usr/local/apache2/modules/mod_mpm_event.so",
        "LoadModule unixd_module /usr/local/apache2/modules/mod_unixd.so",
        "LoadModule status_module /usr/local/apache2/modules/mod_status.so",
        "LoadModule access_compat_module /usr/local/apache2/modules/mod_access_compat.so",
      ],
      missing: [],
    });
  });

  it("writes nothing for 2.2's builtin modules", () => {
    expect(resolveModules(["mpm_event", "unixd", "authz_core", "authn_core", "log_config"], "2.2", built22, MODULES_DIR)).toEqual({
      loadLines: ["LoadModule log_config_module /usr/local/apache2/modules/mod_log_config.so"],
      missing: [],
    });
  });

  it("reports a module whose .so the image does not have as missing instead of guessing a line", () => {
    // mod_security2 is not part of httpd; 2.2.34 predates mod_http2; 2.4 has no disk_cache at all.
    expect(resolveModules(["security2", "status", "http2"], "2.2", built22, MODULES_DIR)).toEqual({
      loadLines: ["LoadModule status_module /usr/local/apache2/modules/mod_status.so"],
      missing: ["security2", "http2"],
    });
    expect(resolveModules(["disk_cache", "cache_disk"], "2.4", built24, MODULES_DIR)).toEqual({
      loadLines: ["LoadModule cache_disk_module /usr/local/apache2/modules/mod_cache_disk.so"],
      missing: ["disk_cache"],
    });
  });

  it("reports a module as missing when the image lacks the file, even if the line has the module", () => {
    const withoutStatus = new Set([...built24].filter((file) => file !== "mod_status.so"));
    expect(resolveModules(["status"], "2.4", withoutStatus, MODULES_DIR)).toEqual({ loadLines: [], missing: ["status"] });
  });

  it("loads mod_authz_host once on 2.2 when a site asks for both access_compat and authz_host", () => {
    expect(resolveModules(["access_compat", "authz_host", "status"], "2.2", built22, MODULES_DIR)).toEqual({
      loadLines: [
        "LoadModule authz_host_module /usr/local/apache2/modules/mod_authz_host.so",
        "LoadModule status_module /usr/local/apache2/modules/mod_status.so",
      ],
      missing: [],
    });
    expect(resolveModules(["access_compat", "authz_host"], "2.4", built24, MODULES_DIR).loadLines).toEqual([
      "LoadModule access_compat_module /usr/local/apache2/modules/mod_access_compat.so",
      "LoadModule authz_host_module /usr/local/apache2/modules/mod_authz_host.so",
    ]);
  });

  it("loads a module named twice once", () => {
    expect(resolveModules(["status", "status"], "2.4", built24, "/m")).toEqual({ loadLines: ["LoadModule status_module /m/mod_status.so"], missing: [] });
  });
});

describe("resolveModules with the image's compiled-in modules", () => {
  it("loads nothing for a module compiled into httpd and does not report it missing (Debian's static mod_unixd)", () => {
    const available = new Set(["mod_mpm_event.so", "mod_status.so"]);
    expect(resolveModules(["mpm_event", "unixd", "log_config", "status"], "2.4", available, "/usr/lib/apache2/modules", new Set(["unixd", "log_config"]))).toEqual({
      loadLines: ["LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so", "LoadModule status_module /usr/lib/apache2/modules/mod_status.so"],
      missing: [],
    });
  });
});
