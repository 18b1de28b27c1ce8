import { describe, expect, it } from "vitest";
import { effectiveServerRoot, resolveServerPath, serverRootRelative } from "../../../../harness/conf/queries/server-root.ts";
import { at, effectiveConfig } from "./build-effective-config.ts";

describe("serverRootRelative", () => {
  it("keeps an absolute path and joins a relative one, folding ..", () => {
    expect(serverRootRelative("/var/log/x", "/srv/httpd")).toBe("/var/log/x");
    expect(serverRootRelative("logs/error_log", "/srv/httpd")).toBe("/srv/httpd/logs/error_log");
    expect(serverRootRelative("../shared/htdocs", "/srv/httpd")).toBe("/srv/shared/htdocs");
    expect(serverRootRelative("logs/", "/srv/httpd")).toBe("/srv/httpd/logs/");
  });
});

describe("effectiveServerRoot", () => {
  it("is the layout's root when no ServerRoot is written", () => {
    expect(effectiveServerRoot(effectiveConfig("Listen 80"))).toEqual({ path: "/usr/local/apache2", span: null });
  });

  it("is the last ServerRoot line at the end, and the one set so far while reading", () => {
    const config = effectiveConfig(`
ServerRoot "/srv/one"
DocumentRoot htdocs
ServerRoot /srv/two/
`);
    const final = effectiveServerRoot(config);
    expect(final.path).toBe("/srv/two");
    expect(final.span).toMatchObject(at("conf/httpd.conf", 3));
    // DocumentRoot is the directive at reading index 1: the ServerRoot of line 1 applies to it.
    expect(resolveServerPath(config, "htdocs", { readAt: 1 })).toBe("/srv/one/htdocs");
    expect(resolveServerPath(config, "htdocs", "final")).toBe("/srv/two/htdocs");
  });

  it("ignores a ServerRoot inside a section (httpd refuses it there)", () => {
    const config = effectiveConfig(`
<VirtualHost *:80>
ServerRoot /srv/nope
</VirtualHost>
`);
    expect(effectiveServerRoot(config).path).toBe("/usr/local/apache2");
  });
});

describe("relative roots", () => {
  it("anchors a relative ServerRoot at / rather than the harness's working directory", () => {
    const config = effectiveConfig("ServerRoot srv/httpd\n", { serverRoot: "srv/httpd" });
    expect(effectiveServerRoot(config).path).toBe("/srv/httpd");
    expect(resolveServerPath(config, "logs/x", "final")).toBe("/srv/httpd/logs/x");
    expect(serverRootRelative("logs", "relative/root")).toBe("/relative/root/logs");
  });
});
