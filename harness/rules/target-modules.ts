// The 2.4 installation a tree is linted for (`lint --target-modules`): what its httpd has compiled in, and what
// it loads around a fragment (the stock config a fragment is included into). A full tree loads everything else
// itself, so a directive whose module it never loads is an "Invalid command" there.
import { readFile } from "node:fs/promises";
import { HarnessError } from "../errors.ts";
import type { LayoutId } from "../conf/effective-config.ts";
import { moduleFileOfId } from "../conf/module-identity.ts";
import { successorIds } from "../server/module-succession.ts";
import { officialModuleFiles } from "../server/official-defaults.ts";

export interface TargetModules {
  /** official, debian, rhel, or the file's path. */
  name: string;
  /** `httpd -l`, by source file ("core.c", "mod_unixd.c"). */
  compiledIn: readonly string[];
  /** Modules the target's own config loads around a fragment, by id; a full tree is read without them. */
  stock: readonly string[];
}

// The official image's 2.4 stock httpd.conf, as `httpd -M` listed it (fixtures/real-httpd/stock-conf).
const OFFICIAL_STOCK_24 = [
  "mpm_event_module", "authn_file_module", "authn_core_module", "authz_host_module", "authz_groupfile_module", "authz_user_module",
  "authz_core_module", "access_compat_module", "auth_basic_module", "reqtimeout_module", "filter_module", "mime_module",
  "log_config_module", "env_module", "headers_module", "setenvif_module", "version_module", "unixd_module", "status_module",
  "autoindex_module", "dir_module", "alias_module",
];

// The official 2.2.34 image's stock httpd.conf loads every module it has (fixtures/real-httpd/stock-conf): its
// module files (server/official-defaults.ts), by id.
export const OFFICIAL_STOCK_22: readonly string[] = officialModuleFiles("2.2").map((file) => `${file.replace(/^mod_/, "").replace(/\.so$/, "")}_module`);

/** `--target-modules successors`: an official 2.4 whose config also loads the 2.4 successor of every module the
 * official 2.2 image's stock config loads (a distribution that keeps 2.2's module set). */
const SUCCESSORS_STOCK_24 = [...new Set([...OFFICIAL_STOCK_24, ...OFFICIAL_STOCK_22.flatMap((id) => successorIds(id, "2.2", "2.4"))])];

export const TARGET_PROFILES: Readonly<Record<"official" | "debian" | "rhel" | "successors", TargetModules>> = {
  official: { name: "official", compiledIn: ["core.c", "mod_so.c", "http_core.c"], stock: OFFICIAL_STOCK_24 },
  // Debian's apache2 2.4 (`apache2 -l`) and the modules its default install enables.
  debian: {
    name: "debian",
    compiledIn: ["core.c", "mod_so.c", "mod_watchdog.c", "http_core.c", "mod_log_config.c", "mod_logio.c", "mod_version.c", "mod_unixd.c"],
    stock: [
      "mpm_event_module", "access_compat_module", "alias_module", "auth_basic_module", "authn_core_module", "authn_file_module",
      "authz_core_module", "authz_host_module", "authz_user_module", "autoindex_module", "deflate_module", "dir_module", "env_module",
      "filter_module", "mime_module", "negotiation_module", "reqtimeout_module", "setenvif_module", "status_module",
    ],
  },
  // RHEL's httpd 2.4 has only the core compiled in; conf.modules.d loads the rest.
  rhel: { name: "rhel", compiledIn: ["core.c", "mod_so.c", "http_core.c"], stock: OFFICIAL_STOCK_24 },
  successors: { name: "successors", compiledIn: ["core.c", "mod_so.c", "http_core.c"], stock: SUCCESSORS_STOCK_24 },
};

/** The 2.4 installation a tree of a layout is linted for when --target-modules is not given: its own. */
export function defaultTargetModules(layout: LayoutId): "official" | "debian" | "rhel" {
  return layout === "debian" || layout === "rhel" ? layout : "official";
}

/** `--target-modules FILE`: the output of `httpd -M` (or one module id per line) of the target installation:
 * every module in it counts as loaded by the target, static ones as compiled in. */
export function parseTargetModules(text: string, name: string): TargetModules {
  const compiledIn: string[] = [];
  const stock: string[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#") || /^Loaded Modules:|^AH\d{5}:|^Syntax OK/.test(trimmed)) return;
    const match = /^([A-Za-z0-9_]+_module)(?:\s+\((static|shared)\))?$/.exec(trimmed);
    if (!match) {
      throw new HarnessError("HARNESS_USAGE", `${name}:${index + 1}: "${trimmed}" is no module line.`, {
        hint: "Give the output of `httpd -M` (lines such as \"rewrite_module (shared)\") or one module id per line.",
      });
    }
    if (match[2] === "static") compiledIn.push(moduleFileOfId(match[1]!) ?? match[1]!);
    else stock.push(match[1]!);
  });
  if (!compiledIn.includes("core.c")) compiledIn.unshift("core.c", "mod_so.c", "http_core.c");
  return { name, compiledIn, stock };
}

export async function targetModules(option: string): Promise<TargetModules> {
  if (Object.hasOwn(TARGET_PROFILES, option)) return TARGET_PROFILES[option as keyof typeof TARGET_PROFILES];
  let text: string;
  try {
    text = await readFile(option, "utf8");
  } catch (error) {
    throw new HarnessError("HARNESS_USAGE", `--target-modules ${option}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}.`, {
      hint: "Use official, debian, rhel, successors, or a file with the target's `httpd -M` output.",
    });
  }
  return parseTargetModules(text, option);
}
