import { describe, expect, it } from "vitest";
import { builtinModuleId, loadedModules } from "../../../../harness/conf/queries/loaded-modules.ts";
import { at, effectiveConfig } from "./build-effective-config.ts";

describe("builtinModuleId", () => {
  it("names compiled-in modules as httpd -M does", () => {
    expect(["core.c", "http_core.c", "mod_so.c", "prefork.c", "mod_unixd.c", "event.c"].map(builtinModuleId)).toEqual([
      "core_module", "http_module", "so_module", "mpm_prefork_module", "unixd_module", "mpm_event_module",
    ]);
  });
});

describe("loadedModules", () => {
  const config = effectiveConfig(`
LoadModule mpm_event_module modules/mod_mpm_event.so
LoadModule rewrite_module /opt/mods/mod_rewrite.so
LoadModule rewrite_module modules/mod_rewrite_again.so
`);

  it("lists static modules first, then each LoadModule once with its resolved path and line", () => {
    expect(loadedModules(config, ["core.c", "mod_so.c", "http_core.c"])).toEqual([
      { id: "core_module", origin: "static", file: "core.c", path: null, span: null },
      { id: "so_module", origin: "static", file: "mod_so.c", path: null, span: null },
      { id: "http_module", origin: "static", file: "http_core.c", path: null, span: null },
      {
        id: "mpm_event_module", origin: "shared", file: "modules/mod_mpm_event.so",
        path: "/usr/local/apache2/modules/mod_mpm_event.so", span: expect.objectContaining(at("conf/httpd.conf", 1)),
      },
      {
        id: "rewrite_module", origin: "shared", file: "/opt/mods/mod_rewrite.so",
        path: "/opt/mods/mod_rewrite.so", span: expect.objectContaining(at("conf/httpd.conf", 2)),
      },
    ]);
  });
});
