import { describe, expect, it } from "vitest";
import { proxiedBy, proxyAliasMatches, proxyPassLines } from "../../../../harness/conf/queries/proxy-pass.ts";
import { virtualHostSections } from "../../../../harness/conf/queries/walk-config.ts";
import { effectiveConfig } from "./build-effective-config.ts";

describe("proxyPassLines and proxiedBy", () => {
  it("match a path prefix as mod_proxy's alias_match does: whole segments, runs of slashes alike", () => {
    expect(proxyAliasMatches("/status", "/status")).toBe(true);
    expect(proxyAliasMatches("/status/x", "/status")).toBe(true);
    expect(proxyAliasMatches("/status-outside", "/status")).toBe(false);
    expect(proxyAliasMatches("/app//x", "/app/")).toBe(true);
    expect(proxyAliasMatches("/app", "/app/")).toBe(false);
    expect(proxyAliasMatches("/anything", "/")).toBe(true);
  });

  it("take the main server's lines before the vhost's, the first match deciding, a `!` keeping the URL", () => {
    const config = effectiveConfig(`
ProxyPass /static !
<VirtualHost *:80>
  ProxyPass /static/app http://app.internal/
  ProxyPassMatch ^/api/(.*)$ http://api.internal/$1
  ProxyPass / http://origin.internal/
  <Location /legacy>
    ProxyPass http://legacy.internal/
  </Location>
</VirtualHost>
`);
    const vhost = virtualHostSections(config)[0]!;
    expect(proxyPassLines(config).map((l) => [l.url, l.regex, l.backend, l.vhost === null ? "main" : "vhost"])).toEqual([
      ["/static", false, "!", "main"],
      ["/static/app", false, "http://app.internal/", "vhost"],
      ["^/api/(.*)$", true, "http://api.internal/$1", "vhost"],
      ["/", false, "http://origin.internal/", "vhost"],
      ["/legacy", false, "http://legacy.internal/", "vhost"],
    ]);
    // The main server's `!` comes first: /static/app is never proxied.
    expect(proxiedBy(config, vhost, "/static/app/x")).toBeNull();
    expect(proxiedBy(config, vhost, "/api/v1?x=1")?.backend).toBe("http://api.internal/$1");
    expect(proxiedBy(config, vhost, "/index.html")?.backend).toBe("http://origin.internal/");
    // The main server has only the exclusion.
    expect(proxiedBy(config, null, "/index.html")).toBeNull();
  });
});
