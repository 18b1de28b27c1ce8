import { describe, expect, it } from "vitest";
import { pidFile } from "../../../../harness/conf/queries/pid-file.ts";
import { at, effectiveConfig } from "./build-effective-config.ts";

describe("pidFile", () => {
  it("resolves PidFile against the final ServerRoot", () => {
    const config = effectiveConfig(`
PidFile run/httpd.pid
ServerRoot /srv/httpd
`);
    expect(pidFile(config)).toEqual({ value: "run/httpd.pid", path: "/srv/httpd/run/httpd.pid", span: expect.objectContaining(at("conf/httpd.conf", 1)) });
  });

  it("is the official build's default without the directive (a fragment runs there too), unknown for Debian and RHEL", () => {
    expect(pidFile(effectiveConfig("Listen 80"))).toEqual({ value: "logs/httpd.pid", path: "/usr/local/apache2/logs/httpd.pid", span: null });
    expect(pidFile(effectiveConfig("Listen 80", { layout: "fragment" }))?.path).toBe("/usr/local/apache2/logs/httpd.pid");
    expect(pidFile(effectiveConfig("Listen 80", { layout: "rhel", serverRoot: "/etc/httpd" }))).toBeNull();
    expect(pidFile(effectiveConfig("Listen 80", { layout: "debian", serverRoot: "/etc/apache2" }))).toBeNull();
  });
});
