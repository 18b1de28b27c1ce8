import { describe, expect, it } from "vitest";
import { mutexPaths } from "../../../../harness/conf/queries/mutex-paths.ts";
import { pidFile } from "../../../../harness/conf/queries/pid-file.ts";
import { runAs } from "../../../../harness/conf/queries/run-as.ts";
import { at, effectiveConfig } from "./build-effective-config.ts";

describe("runAs", () => {
  it("is the main server's last User and Group, not a vhost's", () => {
    const config = effectiveConfig(`
User nobody
User www-data
Group www-data
<VirtualHost *:80>
  User someone
</VirtualHost>
`);
    expect(runAs(config)).toEqual({
      user: { value: "www-data", span: expect.objectContaining(at("conf/httpd.conf", 2)) },
      group: { value: "www-data", span: expect.objectContaining(at("conf/httpd.conf", 3)) },
    });
    expect(runAs(effectiveConfig("Listen 80"))).toEqual({ user: null, group: null });
  });
});

describe("pidFile", () => {
  it("resolves PidFile against the final ServerRoot", () => {
    const config = effectiveConfig(`
PidFile run/httpd.pid
ServerRoot /srv/httpd
`);
    expect(pidFile(config)).toEqual({ value: "run/httpd.pid", path: "/srv/httpd/run/httpd.pid", span: expect.objectContaining(at("conf/httpd.conf", 1)) });
  });

  it("is the official build's default without the directive, and unknown for other layouts", () => {
    expect(pidFile(effectiveConfig("Listen 80"))).toEqual({ value: "logs/httpd.pid", path: "/usr/local/apache2/logs/httpd.pid", span: null });
    expect(pidFile(effectiveConfig("Listen 80", { layout: "debian", serverRoot: "/etc/apache2" }))).toBeNull();
  });
});

describe("mutexPaths", () => {
  it("reads 2.4 Mutex mechanism, directory and types", () => {
    const config = effectiveConfig(`
Mutex file:run/locks ssl-cache rewrite-map OmitPID
Mutex posixsem:/sem-name
Mutex default
`);
    expect(mutexPaths(config).map(({ span, ...rest }) => ({ ...rest, line: span.line }))).toEqual([
      { directive: "Mutex", mechanism: "file", path: "/usr/local/apache2/run/locks", types: ["ssl-cache", "rewrite-map"], line: 1 },
      { directive: "Mutex", mechanism: "posixsem", path: null, types: ["default"], line: 2 },
      { directive: "Mutex", mechanism: "default", path: null, types: ["default"], line: 3 },
    ]);
  });

  it("reads 2.2 LockFile, AcceptMutex and SSLMutex", () => {
    const config = effectiveConfig(`
LockFile logs/accept.lock
AcceptMutex fcntl
SSLMutex file:logs/ssl_mutex
SSLMutex sem
`, { version: "2.2.34" });
    expect(mutexPaths(config).map((m) => [m.directive, m.mechanism, m.path])).toEqual([
      ["LockFile", null, "/usr/local/apache2/logs/accept.lock"],
      ["AcceptMutex", "fcntl", null],
      ["SSLMutex", "file", "/usr/local/apache2/logs/ssl_mutex"],
      ["SSLMutex", "sem", null],
    ]);
  });
});
