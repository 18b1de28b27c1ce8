// ProxyPass and ProxyPassMatch: which URL a reverse proxy takes before the file system is looked at. mod_proxy's
// proxy_trans (2.2.34 and 2.4.62) walks the server's list, the main server's lines first and then the vhost's
// (merge_proxy_config: apr_array_append(base, overrides)), and the first line that matches decides: `!` leaves the
// URL to the file system, any other target proxies it. A path matches as mod_proxy's alias_match does: a prefix
// that ends at a `/` of the alias or of the URL (`/status` takes `/status/x`, not `/status-x`), runs of slashes
// alike. Inside <Location> the Location's path is the URL (one argument). Rewrites to [P] are not read.
import type { EffectiveConfig, EffectiveSection } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { directivesNamed, enclosingVirtualHost } from "./walk-config.ts";

export interface ProxyPassLine {
  /** The URL path or, for ProxyPassMatch (and a <LocationMatch>'s line), the regular expression. */
  url: string;
  regex: boolean;
  /** The backend URL, or "!" for an exclusion. */
  backend: string;
  vhost: EffectiveSection | null;
  span: Span;
  raw: string;
}

export function proxyPassLines(config: EffectiveConfig): ProxyPassLine[] {
  return directivesNamed(config, "proxypass", "proxypassmatch").flatMap((entry) => {
    const args = entry.directive.args;
    const location = entry.sections.findLast((section) => section.key === "location" || section.key === "locationmatch");
    // In a <Location> the first argument is the backend; outside, the URL then the backend.
    const [url, backend] = location !== undefined ? [location.args.at(-1) ?? null, args[0]] : [args[0] ?? null, args[1]];
    if (url === null || backend === undefined) return [];
    const regex = entry.directive.key === "proxypassmatch" || location?.key === "locationmatch" || (location !== undefined && location.args[0] === "~");
    return [{ url, regex, backend, vhost: enclosingVirtualHost(entry.sections), span: entry.directive.span, raw: entry.directive.node.raw.trim() }];
  });
}

/** mod_proxy's alias_match: whether `alias` takes `uri` as a path prefix. */
export function proxyAliasMatches(uri: string, alias: string): boolean {
  let a = 0;
  let u = 0;
  while (a < alias.length && u < uri.length) {
    if (alias[a] === "/") {
      if (uri[u] !== "/") return false;
      while (alias[a] === "/") a++;
      while (uri[u] === "/") u++;
    } else if (uri[u++] !== alias[a++]) return false;
  }
  if (u >= uri.length && a < alias.length) return false;
  return alias[a - 1] === "/" || u >= uri.length || uri[u] === "/";
}

function regexMatches(pattern: string, uri: string): boolean {
  try {
    return new RegExp(pattern).test(uri);
  } catch {
    return false;
  }
}

/** The ProxyPass line that sends a URL of a vhost to a backend; null when none does or a `!` line keeps it. */
export function proxiedBy(config: EffectiveConfig, vhost: EffectiveSection | null, url: string): ProxyPassLine | null {
  const path = url.split("?")[0]!;
  const lines = proxyPassLines(config);
  const ordered = [...lines.filter((l) => l.vhost === null), ...(vhost === null ? [] : lines.filter((l) => l.vhost === vhost))];
  const first = ordered.find((line) => (line.regex ? regexMatches(line.url, path) : proxyAliasMatches(path, line.url)));
  return first === undefined || first.backend === "!" ? null : first;
}
