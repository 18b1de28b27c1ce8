import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadTree } from "../../../../harness/conf/load-tree.ts";
import { adaptModules, type ImageModules } from "../../../../harness/plan/tree/adapt-modules.ts";
import { evaluateForSide } from "../../../../harness/plan/tree/plan-tree-side.ts";
import type { TreeRef } from "../../../../harness/scenario/scenario.ts";
import { layoutCompiledIn } from "../../../../harness/server/module-succession.ts";
import { officialDefaults } from "../../../../harness/server/official-defaults.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/plan/tree/", import.meta.url));
const INSPECTION = { "2.2": officialDefaults("httpd:2.2.34", httpdVersion("2.2.34")), "2.4": officialDefaults("httpd:2.4", httpdVersion("2.4.68")) };
const MODULES = "/usr/local/apache2/modules";

function image(family: "2.2" | "2.4"): ImageModules {
  const inspection = INSPECTION[family];
  return { family, files: inspection.modules, builtin: inspection.builtinModules, modulesDir: inspection.profile.modulesDir };
}

function ref(path: string, writtenFor: "2.2" | "2.4"): TreeRef {
  return { at: { file: path, line: 1, column: 1 }, path, layout: null, defines: [], writtenFor };
}

async function debianTree(family: "2.2" | "2.4") {
  const tree = await loadTree(`${FIXTURES}debian-22`);
  const config = evaluateForSide({ inspection: INSPECTION[family], ref: ref("debian-22", "2.2"), tree });
  return adaptModules(config, image(family), "2.2", layoutCompiledIn(tree.layout, "2.2"));
}

/** The edited line of a tree file, or undefined when the line is kept. */
function editOf(result: ReturnType<typeof adaptModules>, file: string): string | undefined {
  return result.edits.find((edit) => edit.file === file)?.text;
}

describe("adaptModules: a Debian 2.2 tree on a 2.4 image", async () => {
  const result = await debianTree("2.4");

  it("points a kept module at the image's module directory", () => {
    expect(editOf(result, "mods-enabled/alias.load")).toBe(`LoadModule alias_module ${MODULES}/mod_alias.so`);
    expect(editOf(result, "mods-enabled/cache.load")).toBe(`LoadModule cache_module ${MODULES}/mod_cache.so`);
  });

  it("loads mod_authz_core in mod_authz_default's line", () => {
    expect(editOf(result, "mods-enabled/authz_default.load")).toBe(`LoadModule authz_core_module ${MODULES}/mod_authz_core.so`);
    expect(result.adaptations.find((a) => a.file === "mods-enabled/authz_default.load")).toMatchObject({
      kind: "module-renamed",
      line: 1,
      was: "LoadModule authz_default_module /usr/lib/apache2/modules/mod_authz_default.so",
    });
  });

  it("comments mod_mem_cache out, since 2.4 has nothing in its place", () => {
    expect(editOf(result, "mods-enabled/mem_cache.load")).toBe(
      "# LoadModule mem_cache_module /usr/lib/apache2/modules/mod_mem_cache.so  (httpd-upgrade-harness: no such module in 2.4)",
    );
    expect(result.adaptations.find((a) => a.file === "mods-enabled/mem_cache.load")?.kind).toBe("module-absent");
  });

  it("loads mod_authn_core once for authn_alias and authn_default, and comments the second line out", () => {
    expect(editOf(result, "mods-enabled/authn_alias.load")).toBe(`LoadModule authn_core_module ${MODULES}/mod_authn_core.so`);
    expect(editOf(result, "mods-enabled/authn_default.load")).toBe(
      "# LoadModule authn_default_module /usr/lib/apache2/modules/mod_authn_default.so  (httpd-upgrade-harness: authn_core is loaded already)",
    );
    const loadsAuthnCore = [...result.edits.map((e) => e.text), ...result.startDirectives].filter((line) => /^LoadModule authn_core_module /.test(line));
    expect(loadsAuthnCore).toHaveLength(1);
  });

  it("loads with -C Debian's compiled-in log_config and logio, then what 2.2's core did that the tree does not load", () => {
    expect(result.startDirectives).toEqual([
      `LoadModule log_config_module ${MODULES}/mod_log_config.so`,
      `LoadModule logio_module ${MODULES}/mod_logio.so`,
      `LoadModule mpm_prefork_module ${MODULES}/mod_mpm_prefork.so`,
      `LoadModule unixd_module ${MODULES}/mod_unixd.so`,
      `LoadModule filter_module ${MODULES}/mod_filter.so`,
    ]);
    expect(result.adaptations.filter((a) => a.kind === "module-added").map((a) => [a.file, a.line, a.was])).toEqual(Array(5).fill([null, null, null]));
  });

  it("changes each line in place: one edit of one line per LoadModule line", () => {
    expect(result.edits).toHaveLength(6);
    for (const edit of result.edits) expect([edit.line, edit.endLine]).toEqual([1, 1]);
  });
});

describe("adaptModules: the same Debian 2.2 tree on a 2.2 image", async () => {
  const result = await debianTree("2.2");

  it("only points each line at the image's module directory, keeping every module", () => {
    expect(result.adaptations.every((a) => a.kind === "module-path" || a.kind === "module-added")).toBe(true);
    expect(editOf(result, "mods-enabled/authz_default.load")).toBe(`LoadModule authz_default_module ${MODULES}/mod_authz_default.so`);
    expect(editOf(result, "mods-enabled/mem_cache.load")).toBe(`LoadModule mem_cache_module ${MODULES}/mod_mem_cache.so`);
  });

  it("loads only Debian's compiled-in log_config and logio with -C (prefork is built into the official 2.2)", () => {
    expect(result.startDirectives).toEqual([`LoadModule log_config_module ${MODULES}/mod_log_config.so`, `LoadModule logio_module ${MODULES}/mod_logio.so`]);
  });
});

describe("adaptModules: what 2.2's core held", () => {
  const tree = memoryTree({ "conf/httpd.conf": "Listen 80\nLoadModule mime_module modules/mod_mime.so\n" });

  it("is loaded with -C for a 2.2 tree loading none of it: mpm_prefork, unixd, authz_core, authn_core, filter", () => {
    const config = evaluateForSide({ inspection: INSPECTION["2.4"], ref: ref("m", "2.2"), tree });
    const result = adaptModules(config, image("2.4"), "2.2");
    expect(result.startDirectives).toEqual(["mpm_prefork", "unixd", "authz_core", "authn_core", "filter"].map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`));
    expect(result.edits).toEqual([]);
  });

  it("adds no MPM when the tree loads one of its own", () => {
    const worker = memoryTree({ "conf/httpd.conf": "LoadModule mpm_worker_module modules/mod_mpm_worker.so\n" });
    const config = evaluateForSide({ inspection: INSPECTION["2.4"], ref: ref("m", "2.2"), tree: worker });
    expect(adaptModules(config, image("2.4"), "2.2").startDirectives.some((d) => d.includes("mpm_"))).toBe(false);
  });
});

describe("adaptModules: a tree written for 2.4", async () => {
  const tree = await loadTree(`${FIXTURES}official-24`);

  it("gets no successor and no -C line on a 2.4 image: its lines already point at the image's modules", () => {
    const config = evaluateForSide({ inspection: INSPECTION["2.4"], ref: ref("official-24", "2.4"), tree });
    const result = adaptModules(config, image("2.4"), "2.4");
    expect(result).toEqual({ edits: [], startDirectives: [], adaptations: [] });
  });
});

describe("adaptModules: a module file the image does not have", () => {
  it("is commented out, keeping the line, with the file named", () => {
    const tree = memoryTree({ "conf/httpd.conf": "Listen 80\n  LoadModule php5_module modules/libphp5.so\n" });
    const config = evaluateForSide({ inspection: INSPECTION["2.2"], ref: ref("m", "2.2"), tree });
    const result = adaptModules(config, image("2.2"), "2.2");
    expect(result.edits).toEqual([
      { file: "conf/httpd.conf", line: 2, endLine: 2, text: "  # LoadModule php5_module modules/libphp5.so  (httpd-upgrade-harness: libphp5.so is not in this image)" },
    ]);
  });
});
