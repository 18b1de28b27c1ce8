// What a configuration written for one release line needs on another, as data: the modules that took over a
// module's directives, and what the older line's core did that the newer line moved into modules. The plan
// uses it to let a 2.2 tree start on 2.4 (and lists every line it adds or changes); lint and migration read
// the same table, so the knowledge lives here once.
import type { Family } from "../versions/httpd-version.ts";

export interface Succession {
  /** Logical module name (as in module-map.ts) → the modules that carry its directives on the target line.
   * An empty list: the target line has nothing in its place. */
  modules: Readonly<Record<string, readonly string[]>>;
  /** Modules the source line's core provided to every config (its MPM, User/Group, Require, AuthType, the
   * AddOutputFilterByType directive), loaded on the target line when a tree loads none of them. The first
   * `mpm_*` is the MPM chosen when the tree loads no MPM. */
  core: readonly string[];
  /** Why, per module, for the report. */
  reasons: Readonly<Record<string, string>>;
}

const FROM_2_2_TO_2_4: Succession = {
  modules: {
    authz_default: ["authz_core"],
    authn_default: ["authn_core"],
    authn_alias: ["authn_core"],
    // Order/Allow/Deny/Satisfy moved out of mod_authz_host.
    authz_host: ["authz_host", "access_compat"],
    disk_cache: ["cache_disk"],
    mem_cache: [],
    // 2.2's balancer carried its shared memory and its methods.
    proxy_balancer: ["proxy_balancer", "slotmem_shm", "lbmethod_byrequests", "lbmethod_bytraffic", "lbmethod_bybusyness"],
    // 2.2's mod_ssl carried the shmcb session cache.
    ssl: ["ssl", "socache_shmcb"],
  },
  // 2.2.34's official build runs prefork; 2.2's core held Require, AuthType, User/Group, AddOutputFilterByType.
  core: ["mpm_prefork", "unixd", "authz_core", "authn_core", "filter"],
  reasons: {
    authz_default: "2.4 has no mod_authz_default; its role is mod_authz_core's (seed A-rows)",
    authn_default: "2.4 has no mod_authn_default; its role is mod_authn_core's",
    authn_alias: "AuthnProviderAlias moved to mod_authn_core (seed N3)",
    authz_host: "Order, Allow, Deny and Satisfy moved to mod_access_compat",
    disk_cache: "mod_disk_cache was renamed mod_cache_disk (seed B2)",
    mem_cache: "2.4 has no mod_mem_cache (seed B2)",
    proxy_balancer: "the balancer's methods and shared memory are modules of their own in 2.4 (seed B3)",
    ssl: "mod_ssl's shmcb session cache is mod_socache_shmcb in 2.4",
    mpm_prefork: "2.4 loads its MPM as a module; 2.2.34 had prefork compiled in",
    unixd: "User and Group are mod_unixd's in 2.4; 2.2 had them in its core",
    authz_core: "Require is mod_authz_core's in 2.4; 2.2 had it in its core",
    authn_core: "AuthType and AuthName are mod_authn_core's in 2.4; 2.2 had them in its core",
    filter: "AddOutputFilterByType is mod_filter's in 2.4; 2.2 had it in its core",
  },
};

const SUCCESSIONS: Partial<Record<`${Family}->${Family}`, Succession>> = {
  "2.2->2.4": FROM_2_2_TO_2_4,
};

/** How a tree written for `from` is carried to `to`; null when nothing changes (the same line). */
export function succession(from: Family, to: Family): Succession | null {
  return SUCCESSIONS[`${from}->${to}`] ?? null;
}

/** Modules a distribution's own httpd has compiled in, so that a tree of its layout never loads them (`apache2
 * -l` of Debian's and RHEL's builds). On an image that has them as module files, the harness loads them. */
export const LAYOUT_COMPILED_IN: Readonly<Record<string, Partial<Record<Family, readonly string[]>>>> = {
  // Debian squeeze's apache2 2.2: core, mod_log_config, mod_logio, the MPM, http_core, mod_so.
  debian: { "2.2": ["log_config", "logio"], "2.4": ["log_config", "logio", "version", "unixd", "watchdog"] },
};

export function layoutCompiledIn(layout: string, family: Family): readonly string[] {
  return LAYOUT_COMPILED_IN[layout]?.[family] ?? [];
}

/** The module ids that carry a `from` module's directives on the `to` line (`disk_cache_module` →
 * `cache_disk_module`; `authz_host_module` → `authz_host_module`, `access_compat_module`); a module the table does
 * not name keeps its id. Empty: the target line has nothing in its place (mem_cache). */
export function successorIds(id: string, from: Family, to: Family): string[] {
  const name = id.replace(/_module$/, "");
  const names = succession(from, to)?.modules[name] ?? [name];
  return names.map((successor) => `${successor}_module`);
}

/** Modules a stock config of the `from` line loads whose successors a `to` server does not all load: what an
 * operator deploying a snippet on the newer line's stock config loses. In `from`'s order, each with its successors
 * that are missing. Modules with no successor at all (mem_cache) are left out: there is nothing to load. */
export function stockModuleGap(
  fromStock: readonly string[],
  toLoaded: ReadonlySet<string>,
  from: Family,
  to: Family,
): Array<{ module: string; successors: string[] }> {
  const gap: Array<{ module: string; successors: string[] }> = [];
  for (const id of fromStock) {
    const successors = successorIds(id, from, to);
    if (successors.length === 0 || toLoaded.has(id)) continue;
    const missing = successors.filter((successor) => !toLoaded.has(successor));
    // Only the successor that carries the module's own name counts: authz_host is loaded on 2.4 when
    // access_compat is not, and that loss is the access rows' (M2), not the stock config's.
    if (missing.length === 0 || !missing.includes(successors[0]!)) continue;
    gap.push({ module: id, successors: missing });
  }
  return gap;
}
