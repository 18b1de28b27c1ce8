// S3: on 2.4 CacheEnable caches forward-proxy content only when its URL parameter begins with the protocol
// ("http://"); 2.2's "/" matched everything, proxied content included. 2.2 in turn does not cache forward-proxy
// content with "http://" alone, so a shared config keeps both (forward-proxy-cache-enable-*).
import { enclosingVirtualHost, serverDirectives } from "../conf/queries/walk-config.ts";
import { detection, named } from "./detection.ts";
import type { Rule } from "./rule.ts";

export const S3: Rule = {
  id: "S3",
  seed: ["S3"],
  title: "CacheEnable with a path (/) no longer caches forward-proxy content on 2.4",
  severity: "behaviour",
  detect: (context) => {
    const config = context.target;
    const forwardProxy = (vhost: ReturnType<typeof enclosingVirtualHost>): boolean => {
      const own = serverDirectives(config, vhost, "proxyrequests").at(-1) ?? (vhost ? serverDirectives(config, null, "proxyrequests").at(-1) : undefined);
      return (own?.directive.args[0] ?? "").toLowerCase() === "on";
    };
    const entries = named(config, "CacheEnable");
    return entries
      .filter((entry) => (entry.directive.args[1] ?? "/").startsWith("/") && forwardProxy(enclosingVirtualHost(entry.sections)))
      .filter((entry) => !entries.some((other) => /^[a-z][a-z0-9+.-]*:\/\//i.test(other.directive.args[1] ?? "") && enclosingVirtualHost(other.sections) === enclosingVirtualHost(entry.sections)))
      .map((entry) =>
        detection(
          entry,
          `this forward proxy's cache matched proxied content with "${entry.directive.args[1] ?? "/"}" on 2.2; on 2.4 only a URL that begins with the protocol does, so proxied answers are no longer cached`,
          `CacheEnable ${entry.directive.args[0] ?? "disk"} http://`,
        ),
      );
  },
  recognise: (evidence) => {
    if (evidence.request === null || !/^[a-z]+:\/\//i.test(evidence.request.path)) return null;
    // Age: an answer from the cache (2.2) against one fetched from the origin (2.4).
    if (evidence.field !== "header:age" || evidence.baseline === null || evidence.candidate !== null) return null;
    return { summary: "2.2 answered the forward-proxy request from its cache; 2.4 does not cache it (CacheEnable needs http://)" };
  },
  fix: 'Add "CacheEnable disk http://" (2.4) next to "CacheEnable disk /" (2.2) on a forward proxy.',
  help: "Guide, changed semantics: CacheEnable's second parameter matches forward-proxy content only if it begins with the protocol.",
  sample: { config: "ProxyRequests On\nCacheRoot /tmp/cache\nCacheEnable disk /", modules: ["proxy", "proxy_http", "cache", "cache_disk"], on24: "starts" },
};
