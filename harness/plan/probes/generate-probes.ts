// Probes from both effective configurations: every virtual host (Host header and SNI) × its path regions
// (probe-regions.ts) × the clients the access forms call for (probe-clients.ts) × credentials where a region asks
// for them (region-auth.ts: none, each valid identity the region calls for, a wrong password, a user no store
// holds) × the methods a Limit/LimitExcept names. One probe per cell; a cell no request can stand for here is
// listed with the reason. The world (probe.ts ProbeWorld) is what the probes need to reach their decisions: the
// identities, and an object behind every path. Deterministic: the same configs give the same ids.
import { posix } from "node:path";
import type { EffectiveConfig, EffectiveSection } from "../../conf/effective-config.ts";
import { requestPath, requestSections, requestVhost } from "../../conf/queries/request-sections.ts";
import { virtualHosts } from "../../conf/queries/virtual-hosts.ts";
import { sectionLabel, walkConfig } from "../../conf/queries/walk-config.ts";
import { smokeTargets, type SmokeTarget } from "../tree/smoke-requests.ts";
import type { AuthScheme, Cell, ConfigOrigin, CredentialState, Probe, ProbeSet, ProbeTarget, SectionPlace, WorldObject, WorldUser } from "./probe.ts";
import { probeClients } from "./probe-clients.ts";
import { probeRegions, type Region } from "./probe-regions.ts";
import { type AccessFile, regionAuth, type RegionAuth, WORLD_PROVIDERS } from "./region-auth.ts";
import { markerOf } from "./world-content.ts";

export interface ProbeOptions {
  /** Whether the engine gives IPv6 addresses to clients; false: IPv6 clients' cells are unprobed. */
  ipv6?: boolean;
  /** Script files of the trees, by their path inside the server, whose source must never be served. */
  scripts?: readonly string[];
  /** Directories (inside the server) that hold an .htaccess file. */
  accessDirs?: readonly string[];
  /** The per-directory files themselves (their auth lines count for the regions below them). */
  accessFiles?: readonly AccessFile[];
  /** Address and name forms of per-directory files (.htaccess), which the configs do not hold. */
  extraForms?: readonly string[];
  /** Extra targets (a fragment is read into the stock config, which listens on 80). */
  extraTargets?: readonly SmokeTarget[];
  /** Where a URL maps when the config sets no DocumentRoot (a fragment: the image's own). */
  defaultRoot?: string | null;
}

/** The valid user no Require line names (every store holds it). */
export const PROBE_USER = { user: "probe-user", password: "probe-pass-7Kq" } as const;
/** A user no store holds. */
export const OTHER_REALM_USER = { user: "probe-stranger", password: "probe-pass-7Kq" } as const;
export const WRONG_PASSWORD = "probe-wrong-password";
/** At most this many users a Require line names, and groups, get cells of their own in one region. */
const NAMED_PER_REGION = 4;

function vhostLabel(target: SmokeTarget): string {
  return `${target.tls ? "https" : "http"}://${target.host ?? "(default)"}:${target.port}`;
}

function vhostFor(config: EffectiveConfig, target: SmokeTarget): EffectiveSection | null {
  const hosts = virtualHosts(config).filter((h) => h.tls.on === target.tls && h.addresses.some((a) => a.port === null || a.port === target.port));
  const named = hosts.find((h) => h.serverName?.host === target.host || h.aliases.some((a) => a.value === target.host));
  return (named ?? hosts[0])?.section ?? null;
}

/** The user a group's membership is probed with: in that group, in every store. */
export function groupMember(group: string): string {
  return `probe-in-${group.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

function limitMethods(configs: readonly EffectiveConfig[]): string[] {
  const methods = new Set<string>(["GET"]);
  for (const config of configs) {
    for (const { section } of walkConfig(config).sections) {
      if (section.key !== "limit" && section.key !== "limitexcept") continue;
      for (const m of section.args) methods.add(m.toUpperCase());
    }
  }
  if (methods.size > 1 && !methods.has("POST")) methods.add("POST");
  else if (methods.size > 1) methods.add("DELETE");
  return [...methods];
}

/** The credentials a region is probed with, from what both sides ask there; `unprobed` when identities the
 * region needs cannot be made (an LDAP realm) or sent (an AuthType other than Basic and Digest). */
interface RegionCredentials {
  states: Array<{ state: CredentialState; user: string | null; unprobed: string | null }>;
  scheme: AuthScheme | null;
  realm: string | null;
}

function credentialsFor(auths: readonly RegionAuth[], users: Map<string, WorldUser>): RegionCredentials {
  const asking = auths.filter((a) => a.scheme !== null || a.otherType !== null);
  if (asking.length === 0) return { states: [{ state: "none", user: null, unprobed: null }], scheme: null, realm: null };
  const scheme = asking.find((a) => a.scheme !== null)?.scheme ?? null;
  const realm = asking.find((a) => a.realm !== null)?.realm ?? null;
  let unprobed: string | null = null;
  const other = asking.find((a) => a.scheme === null && a.otherType !== null);
  const foreignProviders = asking.find((a) => a.scheme !== null && !a.providers.some((p) => WORLD_PROVIDERS.has(p)));
  const foreignRequire = asking.flatMap((a) => a.foreignRequires)[0];
  if (scheme === null && other) unprobed = `AuthType ${other.otherType}: the harness sends Basic and Digest credentials only`;
  else if (foreignProviders) unprobed = `Auth${foreignProviders.scheme === "digest" ? "Digest" : "Basic"}Provider ${foreignProviders.providers.join(" ")}: the harness can add a user to file and DBM stores only`;
  else if (foreignRequire) unprobed = `Require ${foreignRequire}: the harness cannot make an identity that provider knows`;
  const add = (name: string, groups: string[], reason: string): string => {
    const known = users.get(name);
    if (known) {
      for (const g of groups) if (!known.groups.includes(g)) known.groups.push(g);
    } else users.set(name, { name, password: PROBE_USER.password, groups: [...groups], reason });
    return name;
  };
  const at = (origin: ConfigOrigin) => `${origin.file}:${origin.line}`;
  const named = [...new Map(asking.flatMap((a) => a.users).map((u) => [u.name, u])).values()];
  const groups = [...new Map(asking.flatMap((a) => a.groups).map((g) => [g.name, g])).values()];
  const valid: Array<{ user: string; unprobed: string | null }> = [];
  named.forEach((u, index) => valid.push({ user: add(u.name, [], `Require user ${u.name} (${at(u.origin)})`), unprobed: index < NAMED_PER_REGION ? null : `more than ${NAMED_PER_REGION} users named here: the first ${NAMED_PER_REGION} are probed` }));
  groups.forEach((g, index) => valid.push({ user: add(groupMember(g.name), [g.name], `a member of group ${g.name} (${at(g.origin)})`), unprobed: index < NAMED_PER_REGION ? null : `more than ${NAMED_PER_REGION} groups named here: the first ${NAMED_PER_REGION} are probed` }));
  valid.push({ user: add(PROBE_USER.user, [], "a valid user no Require line names"), unprobed: null });
  const first = valid[0]!.user;
  return {
    scheme,
    realm,
    states: [
      { state: "none", user: null, unprobed: null },
      ...valid.map((v) => ({ state: "valid" as const, user: v.user, unprobed: unprobed ?? v.unprobed })),
      { state: "wrong-password", user: first, unprobed },
      { state: "other-realm", user: OTHER_REALM_USER.user, unprobed },
    ],
  };
}

/** The per-directory sections a path meets in each config, each once, in the order of the configs and then httpd's
 * merge order, with the per-directory files (.htaccess) read on the way: where a line one version skips (an
 * <IfModule> a module of 2.2's stock config opens) can change the answer, which the judge ties to the probe. */
function metSections(configs: readonly EffectiveConfig[], target: ProbeTarget, path: string, defaultRoot: string | null, accessFiles: readonly AccessFile[]): SectionPlace[] {
  const found: SectionPlace[] = [];
  const add = (place: SectionPlace): void => {
    if (!found.some((p) => p.file === place.file && p.line === place.line && p.label === place.label)) found.push(place);
  };
  for (const config of configs) {
    const sections = requestSections(config, target, path, defaultRoot);
    for (const section of sections) add({ file: section.span.file, line: section.span.line, endLine: section.node.closeSpan?.line ?? section.span.endLine, label: sectionLabel(section) });
    const file = accessFiles.length === 0 ? null : requestPath(config, requestVhost(config, target), path, defaultRoot);
    if (file === null) continue;
    for (const access of accessFiles) {
      const dir = access.dir.replace(/\/+$/, "");
      if (file !== dir && !file.startsWith(`${dir}/`)) continue;
      if (!overridesRead(sections, dir, defaultRoot !== null)) continue;
      add({ file: access.file, line: 1, endLine: access.text.split("\n").length, label: posix.basename(access.file), accessFile: true });
    }
  }
  return found;
}

/** Whether httpd reads a per-directory file in `dir`: the last AllowOverride (or 2.4's AllowOverrideList) of the
 * <Directory> sections that cover it is not None. With none in the tree: a fragment sits in a stock httpd.conf,
 * whose <Directory /> says None; a whole 2.2 tree has 2.2's default, All. */
function overridesRead(sections: readonly EffectiveSection[], dir: string, fragment: boolean): boolean {
  let setting: string | null = null;
  let list: string | null = null;
  for (const section of sections) {
    if (section.key !== "directory") continue;
    const path = (section.args.at(-1) ?? "").replace(/\/+$/, "");
    if (!/[*?[]/.test(path) && dir !== path && !dir.startsWith(`${path}/`) && path !== "") continue;
    for (const child of section.children) {
      if (child.kind !== "directive") continue;
      if (child.key === "allowoverride") setting = (child.args[0] ?? "").toLowerCase();
      else if (child.key === "allowoverridelist") list = (child.args[0] ?? "").toLowerCase();
    }
  }
  if (list !== null && list !== "none") return true;
  return setting === null ? !fragment : setting !== "none";
}

function credentialKey(state: CredentialState, user: string | null): string {
  return state === "valid" ? `valid:${user}` : state;
}

export function generateProbes(baseline: readonly EffectiveConfig[], candidate: readonly EffectiveConfig[], options: ProbeOptions = {}): ProbeSet {
  const all = [...baseline, ...candidate];
  const clients = probeClients(all, options.extraForms ?? []);
  const methods = limitMethods(all);
  const users = new Map<string, WorldUser>();
  const digestRealms = new Set<string>();
  const objects = new Map<string, WorldObject>();
  const probes: Probe[] = [];
  const cells: Cell[] = [];
  for (const target of smokeTargets(all, options.extraTargets ?? [])) {
    const vhost = vhostLabel(target);
    const probeTarget: ProbeTarget = { host: target.host, port: target.port, tls: target.tls };
    const regions: Region[] = [];
    for (const config of all) {
      for (const region of probeRegions(config, vhostFor(config, target), options.scripts ?? [], options.accessDirs ?? [], options.defaultRoot ?? null)) {
        if (!regions.some((r) => r.path === region.path)) regions.push(region);
      }
    }
    for (const region of regions) {
      const auths = all.map((config) => regionAuth(config, probeTarget, region.path, options.accessFiles ?? [], options.defaultRoot ?? null));
      for (const auth of auths) if (auth.scheme === "digest" && auth.realm !== null) digestRealms.add(auth.realm);
      const credentials = credentialsFor(auths, users);
      const sections = metSections(all, probeTarget, region.path, options.defaultRoot ?? null, options.accessFiles ?? []);
      const marker = markerOf(region.path);
      const objectKey = `${vhost}|${region.path.split("?")[0]}`;
      if (!objects.has(objectKey)) objects.set(objectKey, { target: probeTarget, url: region.path.split("?")[0]!, kind: region.object, marker, origin: region.origin });
      for (const client of clients) {
        for (const credential of credentials.states) {
          for (const method of methods) {
            const id = `${vhost}|${region.path}|${client.range}|${credentialKey(credential.state, credential.user)}|${method}`;
            let unprobed: string | null = null;
            if (target.client !== "host" && client.kind !== target.client) unprobed = `the host listens on ${target.client === "localhost" ? "127.0.0.1" : "::1"} only`;
            else if (client.address?.includes(":") && client.kind !== "localhost6" && options.ipv6 === false) unprobed = "the engine gives no IPv6 addresses";
            else unprobed = credential.unprobed;
            const cell: Cell = { id, vhost, region: region.region, client: client.id, credentials: credential.state, user: credential.user, method, probe: null, unprobed };
            if (unprobed !== null) {
              cells.push(cell);
              continue;
            }
            const probeId = `p${String(probes.length + 1).padStart(4, "0")}`;
            const sent = credential.state !== "none";
            probes.push({
              id: probeId,
              cell: id,
              target: probeTarget,
              method,
              path: region.path,
              client: client.id,
              credentials: credential.state,
              user: credential.user,
              scheme: sent ? (credentials.scheme ?? "basic") : null,
              realm: sent ? credentials.realm : null,
              purpose: region.purpose,
              region: region.region,
              object: { kind: region.object, marker, origin: region.origin },
              sections,
            });
            cells.push({ ...cell, probe: probeId });
          }
        }
      }
    }
  }
  return {
    probes,
    cells,
    clients,
    world: { users: [...users.values()].sort((a, b) => a.name.localeCompare(b.name)), digestRealms: [...digestRealms].sort(), objects: [...objects.values()] },
  };
}
