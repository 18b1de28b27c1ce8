import { describe, expect, it } from "vitest";
import { mutexPaths } from "../../../../harness/conf/queries/mutex-paths.ts";
import { effectiveConfig } from "./build-effective-config.ts";

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
