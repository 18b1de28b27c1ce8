// The servers httpd answers as: the main server and each <VirtualHost>, with their names, addresses, TLS and
// DocumentRoot, each pointing back at the lines that made them.
//
// Names: ServerName `[scheme://]host[:port]` (core.c server_hostname_port), ServerAlias words accumulate. A vhost
// without ServerName on a wildcard address takes the main server's name (vhost.c ap_fini_vhost_config).
// TLS: mod_ssl merges SSLEngine from the main server into a vhost that does not set it (cfgMerge(enabled) in
// ssl_engine_config.c, 2.2.34 and 2.4.62). On 2.4 a vhost that leaves it unset still does TLS when the Listen
// its address matches speaks https (port 443 without a protocol does) and it has an SSLCertificateFile
// (ssl_engine_init.c ssl_init_Module, listen.c ap_setup_listeners); 2.2 has no such default.
import type { EffectiveConfig, EffectiveSection } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { type DocumentRoot, documentRoot } from "./document-roots.ts";
import { type HostPort, isWildcardHost, parseHostPort } from "./host-port.ts";
import { listeners } from "./listeners.ts";
import { serverDirectives, virtualHostSections } from "./walk-config.ts";

export interface VhostAddress extends HostPort {
  /** As written in `<VirtualHost ...>`. */
  text: string;
}

export interface ServerNameValue {
  /** As written. */
  value: string;
  /** The host part, without scheme and port. */
  host: string;
  port: number | null;
  /** The directive; for an inherited name, the main server's. */
  span: Span;
  /** True when a vhost has no ServerName and uses the main server's. */
  inherited: boolean;
}

export interface TlsState {
  on: boolean;
  /** What turned it on (or off): an SSLEngine line (the vhost's or the main server's), or an https listener. */
  because: "SSLEngine" | "https listener" | null;
  span: Span | null;
}

export interface ServerHost {
  kind: "main" | "vhost";
  /** The `<VirtualHost>` section; null for the main server. */
  section: EffectiveSection | null;
  /** The section's span; null for the main server. */
  span: Span | null;
  /** The addresses of `<VirtualHost a:p ...>`; empty for the main server. */
  addresses: VhostAddress[];
  serverName: ServerNameValue | null;
  aliases: { value: string; span: Span }[];
  tls: TlsState;
  documentRoot: DocumentRoot | null;
}

/** `[scheme://]host[:port]`, as core.c reads ServerName. */
export function parseServerName(value: string): { host: string; port: number | null } {
  const rest = value.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//, "");
  const { host, port } = parseHostPort(rest);
  return { host: host ?? rest, port };
}

/** The ServerName a server sets itself (the last one, as httpd takes it), or null. */
export function ownServerName(config: EffectiveConfig, vhost: EffectiveSection | null): ServerNameValue | null {
  const last = serverDirectives(config, vhost, "servername").at(-1);
  const value = last?.directive.args[0];
  if (last === undefined || value === undefined) return null;
  return { value, ...parseServerName(value), span: last.directive.span, inherited: false };
}

function sslEngine(config: EffectiveConfig, vhost: EffectiveSection | null): { value: string; span: Span } | null {
  const last = serverDirectives(config, vhost, "sslengine").at(-1);
  const value = last?.directive.args[0];
  return last === undefined || value === undefined ? null : { value: value.toLowerCase(), span: last.directive.span };
}

function tlsState(config: EffectiveConfig, vhost: EffectiveSection | null, addresses: readonly VhostAddress[]): TlsState {
  const engine = sslEngine(config, vhost) ?? (vhost === null ? null : sslEngine(config, null));
  if (engine !== null) return { on: engine.value === "on", because: "SSLEngine", span: engine.span };
  if (config.version.family === "2.2" || vhost === null) return { on: false, because: null, span: null };
  const hasCertificate = serverDirectives(config, vhost, "sslcertificatefile").length > 0 ||
    serverDirectives(config, null, "sslcertificatefile").length > 0;
  if (!hasCertificate) return { on: false, because: null, span: null };
  const https = listeners(config).find(
    (listener) =>
      listener.protocol === "https" &&
      addresses.some(
        (address) =>
          (address.port === listener.port || address.anyPort) &&
          (isWildcardHost(address.host) || isWildcardHost(listener.address) || address.host === listener.address),
      ),
  );
  return https ? { on: true, because: "https listener", span: https.span } : { on: false, because: null, span: null };
}

/** The main server as a host: its ServerName, SSLEngine and DocumentRoot; no addresses. */
export function mainServer(config: EffectiveConfig): ServerHost {
  return {
    kind: "main",
    section: null,
    span: null,
    addresses: [],
    serverName: ownServerName(config, null),
    aliases: [],
    tls: tlsState(config, null, []),
    documentRoot: documentRoot(config, null),
  };
}

/** Every `<VirtualHost>` in reading order (the first one of an address is its default server). */
/** Per config value (never changed once evaluated): the probe planner asks for each of thousands of requests. */
const hostsCache = new WeakMap<EffectiveConfig, ServerHost[]>();

export function virtualHosts(config: EffectiveConfig): ServerHost[] {
  const known = hostsCache.get(config);
  if (known) return known;
  const hosts = readVirtualHosts(config);
  hostsCache.set(config, hosts);
  return hosts;
}

function readVirtualHosts(config: EffectiveConfig): ServerHost[] {
  const main = ownServerName(config, null);
  return virtualHostSections(config).map((section) => {
    const addresses = section.args.map((text) => ({ text, ...parseHostPort(text) }));
    const own = ownServerName(config, section);
    const inherit = own === null && main !== null && addresses.some((address) => isWildcardHost(address.host));
    return {
      kind: "vhost",
      section,
      span: section.span,
      addresses,
      serverName: own ?? (inherit ? { ...main, inherited: true } : null),
      // Exact length: flatMap's array is grown and keeps room for 17; every vhost's result keeps it.
      aliases: serverDirectives(config, section, "serveralias")
        .flatMap((entry) => entry.directive.args.map((value) => ({ value, span: entry.directive.span })))
        .slice(),
      tls: tlsState(config, section, addresses),
      documentRoot: documentRoot(config, section),
    };
  });
}

/** The main server first, then the virtual hosts. */
export function serverHosts(config: EffectiveConfig): ServerHost[] {
  return [mainServer(config), ...virtualHosts(config)];
}

/** A host's names: ServerName's host part, then the aliases. */
export function hostNames(host: ServerHost): string[] {
  return [...(host.serverName ? [host.serverName.host] : []), ...host.aliases.map((alias) => alias.value)];
}

/** "www.example.org (*:80)" for a vhost, its addresses alone without a ServerName of its own: how messages name
 * a virtual host to an operator. */
export function vhostLabel(config: EffectiveConfig, vhost: EffectiveSection): string {
  const name = ownServerName(config, vhost);
  const addresses = vhost.args.join(" ");
  return name ? `${name.value} (${addresses})` : addresses;
}
