// The MPM httpd runs: on 2.4 the mpm_* module LoadModule loads (server/mpm/*/ are shared modules there); on 2.2
// the one compiled in (prefork.c in the official build). 2.4 refuses to start with two (AH00534 "More than one
// MPM loaded"); the first one read is reported, and every other one listed with it.
import type { EffectiveConfig } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { type LoadedModule, loadedModules } from "./loaded-modules.ts";

export interface EffectiveMpm {
  /** prefork, worker or event. */
  name: string;
  module: LoadedModule;
  /** The LoadModule line (2.4), or null when compiled in. */
  span: Span | null;
  /** Further MPMs loaded after the first (httpd 2.4 refuses to start with them). */
  others: LoadedModule[];
}

export function effectiveMpm(config: EffectiveConfig, builtinModules: readonly string[]): EffectiveMpm | null {
  const mpms = loadedModules(config, builtinModules).filter((module) => /^mpm_\w+_module$/.test(module.id));
  const [first, ...others] = mpms;
  if (first === undefined) return null;
  return { name: first.id.replace(/^mpm_(\w+)_module$/, "$1"), module: first, span: first.span, others };
}
