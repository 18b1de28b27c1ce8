// Logical module names, as a scenario writes them, to the LoadModule line each httpd line needs. Only the
// exceptions are listed; any other name `x` is `LoadModule x_module modules/mod_x.so` on both lines, and is
// checked against the modules the image really has, so a module a version lacks is reported, not guessed.
import type { Family } from "./family-traits.ts";

/** builtin: compiled into that line's httpd (nothing to load); absent: that line has no such module. */
export type ModuleBinding = { file: string; id: string } | "builtin" | "absent";

const EXCEPTIONS: Record<string, Partial<Record<Family, ModuleBinding>>> = {
  // 2.2's Order/Allow/Deny/Satisfy live in mod_authz_host; 2.4 moved them to mod_access_compat.
  access_compat: { "2.2": { file: "mod_authz_host.so", id: "authz_host_module" } },
  // 2.2 keeps the authorization and authentication core, User and the MPM in the server itself.
  authz_core: { "2.2": "builtin" },
  authn_core: { "2.2": "builtin" },
  unixd: { "2.2": "builtin" },
  mpm_event: { "2.2": "builtin" },
  mpm_prefork: { "2.2": "builtin" },
  mpm_worker: { "2.2": "builtin" },
  socache_shmcb: { "2.2": "builtin" },
  slotmem_shm: { "2.2": "builtin" },
  // Seed B2: the disk cache module was renamed.
  cache_disk: { "2.2": { file: "mod_disk_cache.so", id: "disk_cache_module" } },
  disk_cache: { "2.4": "absent" },
  // Seed B3: 2.2's balancer carries its methods; 2.4 has one module per method.
  lbmethod_byrequests: { "2.2": "builtin" },
  lbmethod_bytraffic: { "2.2": "builtin" },
  lbmethod_bybusyness: { "2.2": "builtin" },
  // Seed N3: AuthnProviderAlias moved from mod_authn_alias to mod_authn_core.
  authn_alias: { "2.4": { file: "mod_authn_core.so", id: "authn_core_module" } },
  mem_cache: { "2.4": "absent" },
};

export function moduleBinding(name: string, family: Family): ModuleBinding {
  return EXCEPTIONS[name]?.[family] ?? { file: `mod_${name}.so`, id: `${name}_module` };
}

/** Pure: the logical names of `httpd -l`'s "Compiled in modules" (mod_unixd.c -> unixd, prefork.c ->
 * mpm_prefork). */
export function parseCompiledInModules(output: string): Set<string> {
  const names = new Set<string>();
  for (const line of output.split("\n")) {
    const file = /^\s+(\S+)\.c$/.exec(line)?.[1];
    if (!file) continue;
    if (file.startsWith("mod_")) names.add(file.slice(4));
    else if (["prefork", "worker", "event"].includes(file)) names.add(`mpm_${file}`);
  }
  return names;
}

export interface ResolvedModules {
  /** LoadModule lines, deduplicated, in the order asked. */
  loadLines: string[];
  /** Logical names this image does not have (absent on the line, or no such .so in its modules dir). */
  missing: string[];
}

/** @param available the .so file names in the image's modules directory
 *  @param builtin logical names compiled into this image's httpd (`httpd -l`): nothing to load */
export function resolveModules(
  names: string[],
  family: Family,
  available: ReadonlySet<string>,
  modulesDir: string,
  builtin: ReadonlySet<string> = new Set(),
): ResolvedModules {
  const loadLines: string[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (builtin.has(name)) continue;
    const binding = moduleBinding(name, family);
    if (binding === "builtin") continue;
    if (binding === "absent" || !available.has(binding.file)) {
      missing.push(name);
      continue;
    }
    if (seen.has(binding.id)) continue;
    seen.add(binding.id);
    loadLines.push(`LoadModule ${binding.id} ${modulesDir}/${binding.file}`);
  }
  return { loadLines, missing };
}
