// Pure: the requests a tree gets when nobody wrote any: GET / on every virtual host of every version's
// effective config, by Host header and, over TLS, by SNI, on the port the host listens on; and GET / on every
// port no virtual host claims (the main server). The probe generator of the migration issue goes further.
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import { listeners } from "../../conf/queries/listeners.ts";
import { virtualHosts } from "../../conf/queries/virtual-hosts.ts";
import type { RequestSpec } from "../../scenario/scenario.ts";
import { generatedRequest } from "./generated-request.ts";

export interface SmokeTarget {
  /** The Host header and SNI name; null: the client's default (the main server, or the default vhost). */
  host: string | null;
  port: number;
  tls: boolean;
  /** Who sends it: the host through the published port, or a local client when httpd listens on a loopback
   * address only (which the published port cannot reach). */
  client: "host" | "localhost" | "localhost6";
}

const SMOKE_TIMEOUT_MS = 10_000;

export function smokeTargets(configs: readonly EffectiveConfig[], extra: readonly SmokeTarget[] = []): SmokeTarget[] {
  const targets = new Map<string, SmokeTarget>();
  const add = (target: SmokeTarget): void => {
    const key = `${target.tls ? "https" : "http"}://${target.host ?? ""}:${target.port}@${target.client}`;
    if (!targets.has(key)) targets.set(key, target);
  };
  for (const config of configs) {
    const listens = listeners(config);
    // A port httpd listens on at loopback addresses only is reached from inside the server's namespace.
    const clientFor = (port: number): SmokeTarget["client"] => {
      const addresses = listens.filter((l) => l.port === port).map((l) => l.address);
      if (addresses.length === 0 || addresses.some((a) => a !== "127.0.0.1" && a !== "[::1]")) return "host";
      return addresses.includes("127.0.0.1") ? "localhost" : "localhost6";
    };
    const claimed = new Set<number>();
    for (const vhost of virtualHosts(config)) {
      const ports = vhost.addresses.flatMap((address) => (address.port === null ? listens.map((l) => l.port) : [address.port]));
      for (const port of new Set(ports)) {
        claimed.add(port);
        add({ host: vhost.serverName && !vhost.serverName.inherited ? vhost.serverName.host : null, port, tls: vhost.tls.on, client: clientFor(port) });
      }
    }
    for (const listen of listens) if (!claimed.has(listen.port)) add({ host: null, port: listen.port, tls: listen.protocol === "https", client: clientFor(listen.port) });
  }
  for (const target of extra) if (![...targets.values()].some((t) => t.port === target.port)) add(target);
  return [...targets.values()].sort((a, b) => a.port - b.port || (a.host ?? "").localeCompare(b.host ?? ""));
}

export function smokeRequests(configs: readonly EffectiveConfig[], at: RequestSpec["at"], extra: readonly SmokeTarget[] = []): RequestSpec[] {
  return smokeTargets(configs, extra).map((target) => generatedRequest({
    at,
    name: `GET ${target.tls ? "https" : "http"}://${target.host ?? "(default)"}:${target.port}/${target.client === "host" ? "" : ` from ${target.client}`}`,
    client: target.client,
    method: "GET",
    path: "/",
    host: target.host,
    port: target.port,
    tls: target.tls,
    repeat: true,
    timeoutMs: SMOKE_TIMEOUT_MS,
  }));
}
