// The virtual hosts as `httpd -S` groups them (server/vhost.c dump_vhost_config), per version: one entry per
// address, name-based or not, its default server and its vhosts in reading order. Checked against the real
// binaries (test/containers/conf/config-matches-httpd.test.ts) and read from vhost.c of 2.2.34 and 2.4.62:
// - 2.4 treats `_default_` as `*` and matches names on every address with several vhosts; it prints a name-based
//   vhost's ServerAlias names, plain ones (`alias`) first, then those with * or ? (`wild alias`).
// - 2.2 keeps `_default_:port` apart from `*:port`, matches names only on an address a NameVirtualHost line
//   declares (even with one vhost there), prints each other vhost on its own line, and prints no aliases.
import type { EffectiveConfig } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { isWildcardHost, parseHostPort } from "./host-port.ts";
import { type ServerHost, virtualHosts } from "./virtual-hosts.ts";
import { directivesNamed } from "./walk-config.ts";

export interface DumpVhost {
  host: ServerHost;
  /** ServerName's host, or the main server's on a wildcard address; null: httpd looks its address up. */
  name: string | null;
  /** Where its `<VirtualHost>` opens. */
  span: Span;
  /** The port of this address of the vhost; null for `*`. */
  port: number | null;
  aliases: string[];
  wildAliases: string[];
}

export interface DumpAddress {
  /** As -S prints it: `*:80`, `_default_:443` (2.2), `192.0.2.7:80`, port `*` for any. */
  address: string;
  nameBased: boolean;
  /** The first vhost of the address: what a request matching no name gets. */
  defaultServer: DumpVhost;
  vhosts: DumpVhost[];
}

/** Addresses in the order their first vhost is read (httpd prints its hash order, then the wildcards). */
export function vhostDump(config: EffectiveConfig): DumpAddress[] {
  const family = config.version.family;
  const key = (host: string | null, port: number | null): string => {
    const shown = isWildcardHost(host) ? (family === "2.2" && host?.toLowerCase() === "_default_" ? "_default_" : "*") : host!;
    return `${shown}:${port ?? "*"}`;
  };
  const declared = new Set(
    directivesNamed(config, "namevirtualhost").flatMap((entry) =>
      entry.directive.args.map((text) => {
        const { host, port } = parseHostPort(text);
        return key(host, port);
      }),
    ),
  );
  const groups = new Map<string, DumpVhost[]>();
  for (const host of virtualHosts(config)) {
    const names = host.aliases.map((alias) => alias.value);
    for (const address of host.addresses) {
      const entry: DumpVhost = {
        host,
        name: host.serverName?.host ?? null,
        span: host.span!,
        port: address.port,
        aliases: names.filter((name) => !/[*?]/.test(name)),
        wildAliases: names.filter((name) => /[*?]/.test(name)),
      };
      const k = key(address.host, address.port);
      const list = groups.get(k);
      if (list) list.push(entry);
      else groups.set(k, [entry]);
    }
  }
  const addresses: DumpAddress[] = [];
  for (const [address, vhosts] of groups) {
    const nameBased = family === "2.4" ? vhosts.length > 1 : declared.has(address);
    const shown = family === "2.4" && nameBased ? vhosts : vhosts.map((vhost) => ({ ...vhost, aliases: [], wildAliases: [] }));
    if (nameBased || family === "2.4") {
      addresses.push({ address, nameBased, defaultServer: shown[0]!, vhosts: shown });
      continue;
    }
    // 2.2 without NameVirtualHost: each vhost is an address of its own (the first has precedence).
    for (const vhost of shown) addresses.push({ address, nameBased: false, defaultServer: vhost, vhosts: [vhost] });
  }
  return addresses;
}
