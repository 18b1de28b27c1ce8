import { describe, expect, it } from "vitest";
import { mutexLine, R9 } from "../../../harness/rules/r9-mutex-directives.ts";

describe("R9: the lock directives' Mutex replacement", () => {
  it("moves a lock file's directory to Mutex file: for the mutex the directive configured", () => {
    expect(mutexLine("LockFile", "${APACHE_LOCK_DIR}/accept.lock")).toBe("Mutex file:${APACHE_LOCK_DIR} mpm-accept");
    expect(mutexLine("RewriteLock", "/var/lock/rewrite.lock")).toBe("Mutex file:/var/lock rewrite-map");
    expect(mutexLine("lockfile", "accept.lock")).toBe("Mutex file:. mpm-accept");
  });

  it("keeps a mechanism, and the directory of a mechanism's lock file", () => {
    expect(mutexLine("AcceptMutex", "fcntl")).toBe("Mutex fcntl mpm-accept");
    expect(mutexLine("SSLMutex", "file:${APACHE_RUN_DIR}/ssl_mutex")).toBe("Mutex file:${APACHE_RUN_DIR} ssl-cache");
    expect(mutexLine("SSLMutex", "sem")).toBe("Mutex sem ssl-cache");
  });

  it("has no Mutex for SSLMutex none, and nothing for other directives", () => {
    expect(mutexLine("SSLMutex", "none")).toBeNull();
    expect(mutexLine("Listen", "80")).toBeNull();
  });

  it("claims 2.4's refusal of a lock directive in the config test", () => {
    const record = { raw: "", level: null, module: null, code: null, event: null, client: null, message: "Invalid command 'LockFile', perhaps misspelled or defined by a module not included in the server configuration", normalized: "" };
    const evidence = { field: "configTest", baseline: null, candidate: null, request: null, status: { baseline: null, candidate: null }, log: { baseline: [], candidate: [record] }, families: { baseline: "2.2", candidate: "2.4" }, findings: [] } as const;
    expect(R9.recognise!(evidence)?.summary).toMatch(/LockFile/);
    expect(R9.recognise!({ ...evidence, log: { baseline: [], candidate: [] } })).toBeNull();
  });
});
