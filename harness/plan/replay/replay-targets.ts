// Pure: where a logged request goes: the Host header it carries and the port (and so TLS) of the server that
// answered it. The log says it in several ways, tried in order:
//   Host header: %{Host}i, else %V or %v (the name of the server that answered), else the ServerName of the
//                virtual host whose own log the file is, else none (the port's default server answers);
//   port:        %p (the server's own port: one it does not listen on makes the line unreplayable), else the
//                Host header's port when the config listens on it, else a port of the virtual host the Host
//                names, else the port of the virtual host whose log the file is, else the config's first plain
//                HTTP port.
// A port the config listens on at loopback addresses only is reached by the local client (as smoke requests do).
import type { EffectiveConfig, EffectiveSection } from "../../conf/effective-config.ts";
import { listeners } from "../../conf/queries/listeners.ts";
import { hostNames, virtualHosts } from "../../conf/queries/virtual-hosts.ts";
import type { AccessLogRecord } from "../../logs/access-log-line.ts";
import { type SmokeTarget, smokeTargets } from "../tree/smoke-requests.ts";

export interface ReplayServers {
  targets: SmokeTarget[];
  /** Every name (ServerName, ServerAlias; `*` and `?` globs kept) with the ports its virtual host answers on. */
  names: Array<{ name: string; ports: number[] }>;
  /** The virtual host whose own log the file is, when one is. */
  origin: { host: string | null; port: number | null } | null;
  /** Where a request that names no port goes. */
  defaultPort: number | null;
}

export type ReplayTarget = { ok: true; host: string | null; port: number; tls: boolean; client: SmokeTarget["client"] } | { ok: false; reason: string };

export function replayServers(configs: readonly EffectiveConfig[], extraTargets: readonly SmokeTarget[], origin: { config: EffectiveConfig; server: EffectiveSection } | null): ReplayServers {
  const targets = smokeTargets(configs, extraTargets);
  const names: ReplayServers["names"] = [];
  for (const config of configs) {
    const listening = [...new Set(listeners(config).map((l) => l.port))];
    for (const host of virtualHosts(config)) {
      const ports = [...new Set(host.addresses.flatMap((a) => (a.port === null || a.anyPort ? listening : [a.port])))];
      for (const name of hostNames(host)) names.push({ name: name.toLowerCase(), ports });
    }
  }
  let originTarget: ReplayServers["origin"] = null;
  if (origin !== null) {
    const host = virtualHosts(origin.config).find((h) => h.section === origin.server);
    const port = host?.addresses.find((a) => a.port !== null && !a.anyPort)?.port ?? null;
    originTarget = { host: host?.serverName && !host.serverName.inherited ? host.serverName.host : null, port };
  }
  const plain = targets.find((t) => !t.tls && t.client === "host") ?? targets[0];
  return { targets, names, origin: originTarget, defaultPort: plain?.port ?? null };
}

function globMatches(pattern: string, name: string): boolean {
  if (!/[*?]/.test(pattern)) return pattern === name;
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${source}$`).test(name);
}

/** `name`, `name:port`, `[v6]`, `[v6]:port`; null when it is none of them. */
export function splitHostHeader(value: string): { name: string; port: number | null } | null {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(value);
  if (match === null) return null;
  return { name: match[1]!, port: match[2] === undefined ? null : Number(match[2]) };
}

export function replayTarget(servers: ReplayServers, record: AccessLogRecord): ReplayTarget {
  const header = record.hostHeader ?? record.serverName ?? record.canonicalName ?? servers.origin?.host ?? null;
  const host = header === null ? null : splitHostHeader(header);
  if (header !== null && host === null) return { ok: false, reason: `Host ${JSON.stringify(header)} is no host name a client can send` };
  const listens = (port: number | null): port is number => port !== null && servers.targets.some((t) => t.port === port);
  let port: number | null;
  if (record.port !== null) {
    if (!listens(record.port)) return { ok: false, reason: `port ${record.port} (%p): the config listens on no such port` };
    port = record.port;
  } else {
    const named = host === null ? [] : servers.names.filter((n) => globMatches(n.name, host.name.toLowerCase())).flatMap((n) => n.ports);
    port = [host?.port ?? null, ...named, servers.origin?.port ?? null, servers.defaultPort].find(listens) ?? null;
  }
  if (port === null) return { ok: false, reason: "the config listens on no port a request could go to" };
  const atPort = servers.targets.filter((t) => t.port === port);
  const target = atPort.find((t) => t.host !== null && host !== null && t.host.toLowerCase() === host.name.toLowerCase()) ?? atPort[0]!;
  // A TLS server name is a DNS name without a port (curl --resolve, undici's servername).
  const sent = host === null ? null : target.tls ? host.name : header;
  return { ok: true, host: sent, port, tls: target.tls, client: target.client };
}
