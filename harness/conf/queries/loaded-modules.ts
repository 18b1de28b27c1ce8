// The modules httpd runs with, as `httpd -M` (-D DUMP_MODULES) lists them: those compiled in (`httpd -l`, passed
// in by source file name) first, then each LoadModule in reading order. A second LoadModule of an id already
// loaded is skipped by httpd with a warning (mod_so.c: "module %s is already loaded, skipping"), so only the
// first counts.
import type { EffectiveConfig } from "../effective-config.ts";
import { moduleIdOfFile } from "../module-identity.ts";
import type { Span } from "../syntax-tree.ts";
import { resolveServerPath } from "./server-root.ts";
import { directivesNamed } from "./walk-config.ts";

export interface LoadedModule {
  /** The module's id (`rewrite_module`). */
  id: string;
  /** static: compiled into httpd; shared: loaded by LoadModule. */
  origin: "static" | "shared";
  /** The .so as written, or the source file of a compiled-in module (`prefork.c`). */
  file: string;
  /** The .so's absolute path inside the server (against the ServerRoot of that moment); null when static. */
  path: string | null;
  /** The LoadModule line; null when static. */
  span: Span | null;
}

/** A compiled-in module's id from its source file name, as httpd names it: `core.c` core_module, `http_core.c`
 * http_module, `mod_so.c` so_module, `prefork.c` mpm_prefork_module (the evaluator's table, module-identity.ts). */
export function builtinModuleId(sourceFile: string): string {
  return moduleIdOfFile(sourceFile) ?? `${sourceFile.replace(/\.c$/, "")}_module`;
}

export function loadedModules(config: EffectiveConfig, builtinModules: readonly string[]): LoadedModule[] {
  const modules: LoadedModule[] = builtinModules.map((file) => ({ id: builtinModuleId(file), origin: "static", file, path: null, span: null }));
  const seen = new Set(modules.map((module) => module.id));
  for (const entry of directivesNamed(config, "loadmodule")) {
    const [id, file] = entry.directive.args;
    if (id === undefined || file === undefined || seen.has(id)) continue;
    seen.add(id);
    modules.push({
      id,
      origin: "shared",
      file,
      path: resolveServerPath(config, file, { readAt: entry.index }),
      span: entry.directive.span,
    });
  }
  return modules;
}
