// Listen [addr:]port [protocol] (server/listen.c ap_set_listener, same on 2.2.34 and 2.4.62): without a protocol,
// port 443 is https and every other port http; the protocol is lower-cased.
import type { EffectiveConfig } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { parseHostPort } from "./host-port.ts";
import { directivesNamed } from "./walk-config.ts";

export interface Listener {
  /** The address as written, or null for every address (`Listen 80`, `Listen *:80`). */
  address: string | null;
  port: number;
  protocol: string;
  /** Whether the protocol was written (else it is the port's default). */
  protocolGiven: boolean;
  span: Span;
}

export function listeners(config: EffectiveConfig): Listener[] {
  const found: Listener[] = [];
  for (const entry of directivesNamed(config, "listen")) {
    const [where, protocol] = entry.directive.args;
    if (where === undefined) continue;
    const { host, port } = parseHostPort(where);
    // httpd refuses "Port must be specified"; the evaluator's problems speak for that line.
    if (port === null || port === 0) continue;
    found.push({
      address: host === "*" ? null : host,
      port,
      protocol: protocol !== undefined ? protocol.toLowerCase() : port === 443 ? "https" : "http",
      protocolGiven: protocol !== undefined,
      span: entry.directive.span,
    });
  }
  return found;
}
