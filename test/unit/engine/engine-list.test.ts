import { describe, expect, it } from "vitest";
import { ENGINES_OPTION, parseEngineList } from "../../../harness/engine/engine-target.ts";

describe("--engines ADDR[=N],...", () => {
  it("names each engine as DOCKER_HOST would, with its own concurrency or none", () => {
    const slots = parseEngineList("unix:///var/run/docker.sock=3, unix:///run/harness-dockerd-2.sock,ssh://ops@build-2=1");
    expect(slots).toEqual([
      { target: { url: "unix:///var/run/docker.sock", source: ENGINES_OPTION, named: true, tls: null }, concurrency: 3 },
      { target: { url: "unix:///run/harness-dockerd-2.sock", source: ENGINES_OPTION, named: true, tls: null }, concurrency: null },
      { target: { url: "ssh://ops@build-2", source: ENGINES_OPTION, named: true, tls: null }, concurrency: 1 },
    ]);
  });

  it("reads TLS for tcp:// engines from DOCKER_TLS_VERIFY and DOCKER_CERT_PATH, as DOCKER_HOST does", () => {
    const slots = parseEngineList("tcp://10.0.0.5:2376", { DOCKER_TLS_VERIFY: "1", DOCKER_CERT_PATH: "/certs" });
    expect(slots).toEqual([{ target: { url: "tcp://10.0.0.5:2376", source: ENGINES_OPTION, named: true, tls: { verify: true, certPath: "/certs" } }, concurrency: null }]);
  });

  it.each([
    ["", "it names no engine"],
    ["/var/run/docker.sock", "is not an engine address"],
    ["unix:///a.sock=0", "give 1 or more"],
    ["unix:///a.sock,unix:///a.sock=2", "named twice"],
  ])("refuses %j with a sentence saying why", (value, why) => {
    const result = parseEngineList(value);
    expect(typeof result).toBe("string");
    expect(result).toContain(why);
  });
});
