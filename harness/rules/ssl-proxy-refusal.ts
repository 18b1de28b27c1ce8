// What 2.4 logs when it refuses an HTTPS backend's certificate under its default peer checks (D4, D5, T2). At
// LogLevel warn only mod_proxy's lines show (AH01084, AH00898 "Error during SSL Handshake with remote server",
// AH01097), and the client gets 500 Proxy Error, not the guide's 502 (fixtures case c, proxy-expired-backend-cert);
// at info mod_ssl says why: AH02004 "Peer certificate is expired" (also for not yet valid), AH02411 / AH02005 for
// a name that does not match, then AH01997 "sending 502".
import { enclosingVirtualHost, serverDirectives, walkConfig } from "../conf/queries/walk-config.ts";
import { detection, named } from "./detection.ts";
import type { Evidence } from "./evidence.ts";
import type { LintContext } from "./lint-context.ts";
import type { Detection } from "./rule.ts";

export type RefusalReason = "expired" | "name" | "unknown";

const HANDSHAKE = /Error during SSL Handshake with remote server/;

/** Why 2.4 refused the backend, or null when the evidence is no such refusal. */
export function sslProxyRefusal(evidence: Evidence): RefusalReason | null {
  if (!["status", "outcome", "body", "errorLog"].includes(evidence.field)) return null;
  const log = evidence.log.candidate;
  // The handshake is what failed: a backend that is down or refuses the connection logs AH01084 too.
  const refused = log.some((record) => ["AH01997", "AH02004", "AH02411", "AH02005"].includes(record.code ?? "") || HANDSHAKE.test(record.message));
  const answered = evidence.status.candidate === 502 || evidence.status.candidate === 500;
  if (!refused || !answered || evidence.status.baseline === evidence.status.candidate) return null;
  if (log.some((record) => record.code === "AH02004")) return "expired";
  if (log.some((record) => ["AH02411", "AH02005"].includes(record.code ?? ""))) return "name";
  return "unknown";
}

const HTTPS_BACKEND = /^(https|wss|h2):\/\//i;

/** Whether the tree proxies to an HTTPS backend anywhere (ProxyPass, a balancer member, a [P] rewrite, ...). */
function proxiesToHttps(context: LintContext): boolean {
  const { directives, sections } = walkConfig(context.target);
  return (
    directives.some((entry) => PROXY_KEYS.has(entry.directive.key) && entry.directive.args.some((arg) => HTTPS_BACKEND.test(arg))) ||
    sections.some((entry) => entry.section.key.startsWith("proxy") && entry.section.args.some((arg) => HTTPS_BACKEND.test(arg)))
  );
}

const PROXY_KEYS = new Set(["proxypass", "proxypassmatch", "balancermember", "rewriterule", "proxyremote", "proxyremotematch"]);

/** SSLProxyEngine on lines whose server leaves every one of `checks` unset (itself and, for a vhost, the main
 * server), in a tree that proxies to an HTTPS backend. A check set either way is the author's choice: Off keeps
 * 2.2's behaviour, On was 2.2's behaviour too where 2.2 had the directive, and a 2.4-only one (SSLProxyCheckPeerName)
 * was written for 2.4. */
export function peerCheckDefaults(context: LintContext, checks: readonly string[], message: string, fix: string): Detection[] {
  if (!proxiesToHttps(context)) return [];
  const config = context.target;
  const sets = (vhost: Parameters<typeof serverDirectives>[1]): boolean => checks.some((check) => serverDirectives(config, vhost, check).length > 0);
  return named(config, "SSLProxyEngine")
    .filter((entry) => (entry.directive.args[0] ?? "").toLowerCase() === "on")
    .filter((entry) => {
      const vhost = enclosingVirtualHost(entry.sections);
      return !((vhost ? sets(vhost) : false) || sets(null));
    })
    .map((entry) => detection(entry, message, fix));
}

