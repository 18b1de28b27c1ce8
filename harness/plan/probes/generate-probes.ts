// Probes from both effective configurations: every virtual host (Host header and SNI) × its path regions
// (probe-regions.ts) × the clients the access forms call for (probe-clients.ts) × credentials where a realm
// exists × the methods a Limit/LimitExcept names. One probe per cell; a cell no request can stand for here is
// listed with the reason. Deterministic: the same configs give the same ids.
import type { EffectiveConfig, EffectiveSection } from "../../conf/effective-config.ts";
import { authUserFiles } from "../../conf/queries/auth-user-files.ts";
import { virtualHosts } from "../../conf/queries/virtual-hosts.ts";
import { walkConfig } from "../../conf/queries/walk-config.ts";
import { smokeTargets, type SmokeTarget } from "../tree/smoke-requests.ts";
import type { Cell, CredentialState, Probe, ProbeSet, ProbeUser } from "./probe.ts";
import { probeClients } from "./probe-clients.ts";
import { probeRegions, type Region } from "./probe-regions.ts";

export interface ProbeOptions {
  /** Whether the engine gives IPv6 addresses to clients; false: IPv6 clients' cells are unprobed. */
  ipv6?: boolean;
  /** Script files of the trees, by their path inside the server, whose source must never be served. */
  scripts?: readonly string[];
  /** Directories (inside the server) that hold an .htaccess file. */
  accessDirs?: readonly string[];
  /** Address and name forms of per-directory files (.htaccess), which the configs do not hold. */
  extraForms?: readonly string[];
  /** Extra targets (a fragment is read into the stock config, which listens on 80). */
  extraTargets?: readonly SmokeTarget[];
}

export const PROBE_USER = { user: "probe-user", password: "probe-pass-7Kq" } as const;
export const OTHER_REALM_USER = { user: "probe-stranger", password: "probe-pass-7Kq" } as const;
export const WRONG_PASSWORD = "probe-wrong-password";

function vhostLabel(target: SmokeTarget): string {
  return `${target.tls ? "https" : "http"}://${target.host ?? "(default)"}:${target.port}`;
}

function vhostFor(config: EffectiveConfig, target: SmokeTarget): EffectiveSection | null {
  const hosts = virtualHosts(config).filter((h) => h.tls.on === target.tls && h.addresses.some((a) => a.port === null || a.port === target.port));
  const named = hosts.find((h) => h.serverName?.host === target.host || h.aliases.some((a) => a.value === target.host));
  return (named ?? hosts[0])?.section ?? null;
}

interface Realms {
  basic: boolean;
  digest: boolean;
  userFiles: string[];
  groupFiles: string[];
  users: string[];
  groups: string[];
}

function realms(configs: readonly EffectiveConfig[]): Realms {
  const result: Realms = { basic: false, digest: false, userFiles: [], groupFiles: [], users: [], groups: [] };
  for (const config of configs) {
    for (const entry of walkConfig(config).directives) {
      const d = entry.directive;
      if (d.key === "authtype") {
        if (d.args[0]?.toLowerCase() === "digest") result.digest = true;
        else if (d.args[0]?.toLowerCase() === "basic") result.basic = true;
      }
      if (d.key === "require" && d.args[0]?.toLowerCase() === "user") result.users.push(...d.args.slice(1));
      if (d.key === "require" && d.args[0]?.toLowerCase() === "group") result.groups.push(...d.args.slice(1));
    }
    for (const file of authUserFiles(config)) {
      if (file.dbm) continue;
      (file.kind === "users" ? result.userFiles : result.groupFiles).push(file.path);
    }
  }
  result.userFiles = [...new Set(result.userFiles)].sort();
  result.groupFiles = [...new Set(result.groupFiles)].sort();
  return result;
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

export function generateProbes(baseline: readonly EffectiveConfig[], candidate: readonly EffectiveConfig[], options: ProbeOptions = {}): ProbeSet {
  const all = [...baseline, ...candidate];
  const clients = probeClients(all, options.extraForms ?? []);
  const found = realms(all);
  const credentials: CredentialState[] = found.basic || found.digest ? ["none", "valid", "wrong-password", "other-realm"] : ["none"];
  const methods = limitMethods(all);
  const validUser = found.users[0] ?? PROBE_USER.user;
  const users: ProbeUser[] = [];
  for (const file of found.userFiles) {
    users.push({ file, kind: "basic", realm: null, user: validUser, password: PROBE_USER.password });
  }
  for (const file of found.groupFiles) {
    for (const group of [...new Set(found.groups)]) users.push({ file, kind: "group", realm: null, user: validUser, password: group });
  }
  const probes: Probe[] = [];
  const cells: Cell[] = [];
  for (const target of smokeTargets(all, options.extraTargets ?? [])) {
    const vhost = vhostLabel(target);
    const regions: Region[] = [];
    for (const config of all) {
      for (const region of probeRegions(config, vhostFor(config, target), options.scripts ?? [], options.accessDirs ?? [])) {
        if (!regions.some((r) => r.path === region.path)) regions.push(region);
      }
    }
    for (const region of regions) {
      for (const client of clients) {
        for (const credential of credentials) {
          for (const method of methods) {
            const id = `${vhost}|${region.path}|${client.range}|${credential}|${method}`;
            let unprobed: string | null = null;
            if (target.client !== "host" && client.kind !== target.client) unprobed = `the host listens on ${target.client === "localhost" ? "127.0.0.1" : "::1"} only`;
            else if (client.address?.includes(":") && client.kind !== "localhost6" && options.ipv6 === false) unprobed = "the engine gives no IPv6 addresses";
            else if (credential !== "none" && found.digest && !found.basic) unprobed = "Digest authentication: the harness's clients send Basic credentials only";
            else if (credential !== "none" && found.userFiles.length === 0) unprobed = "no AuthUserFile to add the probe user to (DBM, LDAP or another provider)";
            if (unprobed !== null) {
              cells.push({ id, vhost, region: region.region, client: client.id, credentials: credential, method, probe: null, unprobed });
              continue;
            }
            const probeId = `p${String(probes.length + 1).padStart(4, "0")}`;
            probes.push({ id: probeId, cell: id, target: { host: target.host, port: target.port, tls: target.tls }, method, path: region.path, client: client.id, credentials: credential, realm: null, purpose: region.purpose, region: region.region });
            cells.push({ id, vhost, region: region.region, client: client.id, credentials: credential, method, probe: probeId, unprobed: null });
          }
        }
      }
    }
  }
  return { probes, cells, clients, users };
}
