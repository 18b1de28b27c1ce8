// The 2.4 access state in effect at a file-system path, from the plain <Directory> sections that hold it (the
// tree's, after those a target's stock config puts around a fragment), merged as 2.4 merges them: shortest path
// first; the nearest section with Require lines replaces the authz config (AuthMerging Off); the nearest with
// Order/Allow/Deny/Satisfy replaces mod_access_compat's config, Satisfy with it; the nearest AuthType holds. The state is
// what model-24's decide24 takes, so lint's claims about a path come from the model prove checks.
import type { EffectiveNode, EffectiveSection } from "../conf/effective-config.ts";
import type { HostConfig22 } from "./model-22.ts";
import type { AccessRequest } from "./access-request.ts";
import { decide24, parseAuthz, type Authz, type State24 } from "./model-24.ts";
import { ACCESS_SECTION_KEYS, sectionAccess } from "./section-access.ts";

/** What one section sets, each part null when the section does not set it. */
export interface DirectoryAccess24 {
  /** The <Directory> path, without a trailing slash ("/" for the root). */
  path: string;
  authz: Authz | null;
  compat: HostConfig22 | null;
  satisfy: "all" | "any" | null;
  authType: boolean;
}

const REQUIRE_CONTAINERS = new Set(["requireall", "requireany", "requirenone"]);

/** The Require lines (and <RequireAll|Any|None> containers) a section holds itself, as text for parseAuthz. */
function requireText(nodes: readonly EffectiveNode[]): string[] {
  const lines: string[] = [];
  for (const node of nodes) {
    if (node.kind === "section") {
      if (ACCESS_SECTION_KEYS.has(node.key)) continue;
      if (REQUIRE_CONTAINERS.has(node.key)) {
        lines.push(`<${node.name}>`, ...requireText(node.children), `</${node.name}>`);
      } else lines.push(...requireText(node.children));
      continue;
    }
    if (node.key === "require") lines.push(`Require ${node.args.join(" ")}`);
  }
  return lines;
}

export function normalisedPath(path: string): string {
  return path.replace(/^"|"$/g, "").replace(/\/+$/, "") || "/";
}

/** What a <Directory> section of the 2.4 view sets. */
export function directoryAccess24(section: EffectiveSection): DirectoryAccess24 {
  const { own } = sectionAccess(section);
  return {
    path: normalisedPath(section.args[0] ?? "/"),
    authz: parseAuthz(requireText(section.children)),
    compat: own.host ?? null,
    satisfy: own.satisfy ?? null,
    authType: own.authType === true,
  };
}

function holds(directory: string, path: string): boolean {
  return directory === "/" || path === directory || path.startsWith(`${directory}/`);
}

/** The merged state at `path` from `sections` (in any order; equal paths in the order given). */
export function stateAt24(sections: readonly DirectoryAccess24[], path: string): State24 {
  const target = normalisedPath(path);
  const depth = (p: string): number => (p === "/" ? 0 : p.split("/").length - 1);
  const applying = sections.map((section, index) => ({ section, index })).filter(({ section }) => holds(section.path, target));
  applying.sort((a, b) => depth(a.section.path) - depth(b.section.path) || a.index - b.index);
  const state: State24 = { authz: null, compat: null, satisfy: "all", authType: false };
  for (const { section } of applying) {
    if (section.authz !== null) state.authz = section.authz;
    // Satisfy is mod_access_compat's in 2.4, which does not merge: Order, Allow, Deny and Satisfy are replaced
    // together by the nearest section with any of them.
    if (section.compat !== null || section.satisfy !== null) {
      state.compat = section.compat;
      state.satisfy = section.satisfy ?? "all";
    }
    if (section.authType) state.authType = true;
  }
  return state;
}

/** The addresses a state's host rules name (one per Allow/Require ip entry), for asking the model per client. */
export function namedAddresses(state: State24): string[] {
  const found = new Set<string>();
  const add = (spec: string): void => {
    const base = spec.split("/")[0]!;
    if (/^\d+(\.\d+){0,3}$/.test(base)) {
      const parts = base.split(".");
      while (parts.length < 4) parts.push("0");
      if (spec.includes("/") || parts.length > base.split(".").length) parts[3] = "1";
      found.add(parts.join("."));
    } else if (/^[0-9a-f:]+$/i.test(base) && base.includes(":")) found.add(base);
  };
  for (const entry of state.compat?.allow ?? []) add(entry);
  const visit = (node: Authz | null): void => {
    if (node === null) return;
    if (node.kind === "provider") {
      if (node.provider === "ip" && !node.negate) node.args.forEach(add);
    } else node.children.forEach(visit);
  };
  visit(state.authz);
  return [...found];
}

/** Who the 2.4 model lets through (status 200) at a state: any client without credentials, the clients of the
 * addresses the rules name, and a user the config admits (the first user and every group its Require lines
 * name, or any valid user). */
export interface Admission24 {
  anyone: boolean;
  /** Named addresses admitted without credentials (when not anyone). */
  clients: string[];
  /** Whether an authenticated user the config admits gets through (from some client). */
  users: boolean;
}

const OUTSIDE = "192.0.2.10";

export function admission24(state: State24): Admission24 {
  const request = (address: string, credentials: AccessRequest["credentials"]): AccessRequest => ({ client: { address, hostname: null, env: new Set() }, credentials, method: "GET" });
  const named = { users: [] as string[], groups: [] as string[] };
  const visit = (node: Authz | null): void => {
    if (node === null || node.kind !== "provider" || node.negate) return;
    if (node.provider === "user") named.users.push(...node.args);
    if (node.provider === "group") named.groups.push(...node.args);
  };
  const walk = (node: Authz | null): void => {
    if (node === null) return;
    if (node.kind === "provider") visit(node);
    else node.children.forEach(walk);
  };
  walk(state.authz);
  const admitted: AccessRequest["credentials"] = { state: "valid", user: named.users[0] ?? "probe-user", groups: named.groups };
  const addresses = [...new Set([OUTSIDE, "127.0.0.1", ...namedAddresses(state)])];
  const anyone = decide24(state, request(OUTSIDE, { state: "none" })) === 200;
  return {
    anyone,
    clients: anyone ? [] : addresses.filter((address) => decide24(state, request(address, { state: "none" })) === 200),
    users: addresses.some((address) => decide24(state, request(address, admitted)) === 200),
  };
}
