import { describe, expect, it } from "vitest";
import { engineHost } from "../../../harness/engine/engine-host.ts";

describe("engineHost", () => {
  it("reaches a local engine's published ports on 127.0.0.1, whether or not this process runs in a container", () => {
    expect(engineHost({})).toBe("127.0.0.1");
    expect(engineHost({ DOCKER_HOST: "unix:///var/run/docker.sock" })).toBe("127.0.0.1");
  });

  it("reaches a remote engine at the host DOCKER_HOST names", () => {
    expect(engineHost({ DOCKER_HOST: "tcp://docker.internal:2376" })).toBe("docker.internal");
    expect(engineHost({ DOCKER_HOST: "https://10.0.0.5:2376" })).toBe("10.0.0.5");
  });

  it("lets TESTCONTAINERS_HOST_OVERRIDE win", () => {
    expect(engineHost({ TESTCONTAINERS_HOST_OVERRIDE: "192.0.2.7", DOCKER_HOST: "tcp://docker.internal:2376" })).toBe("192.0.2.7");
  });
});
