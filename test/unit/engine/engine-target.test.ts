import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { engineHost } from "../../../harness/engine/engine-host.ts";
import { DEFAULT_ENGINE_URL, type EngineEnvironment, parseProperties, resolveEngineTarget } from "../../../harness/engine/engine-target.ts";

const HOME = "/home/u";
const sha = (name: string): string => createHash("sha256").update(name).digest("hex");

function environment(env: Record<string, string>, files: Record<string, string> = {}): EngineEnvironment {
  return { env, home: HOME, readText: (path) => files[path] ?? null, exists: (path) => path in files };
}

const contextFiles = (dir: string, name: string, host: string, tls = false): Record<string, string> => ({
  [`${dir}/contexts/meta/${sha(name)}/meta.json`]: JSON.stringify({ Name: name, Endpoints: { docker: { Host: host, SkipTLSVerify: false } } }),
  ...(tls ? { [`${dir}/contexts/tls/${sha(name)}/docker/ca.pem`]: "ca" } : {}),
});

describe("resolveEngineTarget", () => {
  const everything = {
    ...contextFiles(`${HOME}/.docker`, "remote", "tcp://ctx.example:2376", true),
    ...contextFiles(`${HOME}/.docker`, "other", "unix:///run/other.sock"),
    [`${HOME}/.docker/config.json`]: JSON.stringify({ currentContext: "remote" }),
    [`${HOME}/.testcontainers.properties`]: "# comment\ndocker.host=tcp://props.example:2375\n",
  };

  it("takes DOCKER_HOST first, with the TLS variables", () => {
    expect(resolveEngineTarget(environment({ DOCKER_HOST: "tcp://h:2376", DOCKER_TLS_VERIFY: "1", DOCKER_CERT_PATH: "/certs", DOCKER_CONTEXT: "other" }, everything))).toEqual({
      url: "tcp://h:2376",
      source: "DOCKER_HOST",
      named: true,
      tls: { verify: true, certPath: "/certs" },
    });
    expect(resolveEngineTarget(environment({ DOCKER_HOST: "unix:///no/such.sock" })).tls).toBeNull();
    expect(resolveEngineTarget(environment({ DOCKER_HOST: "tcp://h:2376", DOCKER_TLS_VERIFY: "1" })).tls).toEqual({ verify: true, certPath: `${HOME}/.docker` });
  });

  it("then DOCKER_CONTEXT, then the properties file, then the current context", () => {
    expect(resolveEngineTarget(environment({ DOCKER_CONTEXT: "other" }, everything))).toMatchObject({ url: "unix:///run/other.sock", named: true, source: expect.stringMatching(/DOCKER_CONTEXT/) });
    expect(resolveEngineTarget(environment({}, everything))).toMatchObject({ url: "tcp://props.example:2375", source: expect.stringMatching(/testcontainers\.properties/) });
    const { [`${HOME}/.testcontainers.properties`]: _, ...noProperties } = everything;
    expect(resolveEngineTarget(environment({}, noProperties))).toEqual({
      url: "tcp://ctx.example:2376",
      source: `docker context remote (currentContext in ${HOME}/.docker/config.json)`,
      named: true,
      tls: { verify: true, certPath: `${HOME}/.docker/contexts/tls/${sha("remote")}/docker` },
    });
  });

  it("reads contexts under DOCKER_CONFIG when it is set", () => {
    const files = { ...contextFiles("/cfg", "dead", "unix:///dead.sock"), "/cfg/config.json": JSON.stringify({ currentContext: "dead" }) };
    expect(resolveEngineTarget(environment({ DOCKER_CONFIG: "/cfg" }, files))).toMatchObject({ url: "unix:///dead.sock", named: true });
  });

  it("still names a context whose endpoint cannot be read, so that the run fails on it instead of using another engine", () => {
    const files = { [`${HOME}/.docker/config.json`]: JSON.stringify({ currentContext: "gone" }) };
    expect(resolveEngineTarget(environment({}, files))).toMatchObject({ url: "docker-context://gone", named: true });
  });

  it("falls to the default socket only when nothing names an engine; the default context names nothing", () => {
    expect(resolveEngineTarget(environment({}))).toEqual({ url: DEFAULT_ENGINE_URL, source: expect.any(String), named: false, tls: null });
    expect(resolveEngineTarget(environment({ DOCKER_HOST: "", DOCKER_CONTEXT: "default" }, { [`${HOME}/.docker/config.json`]: '{"currentContext":"default"}' })).named).toBe(false);
  });

  it("parses properties files", () => {
    expect(parseProperties("a=1\n# x\n! y\n  docker.host = tcp://h:1 \nb:2\n")).toEqual({ a: "1", "docker.host": "tcp://h:1", b: "2" });
  });
});

describe("engineHost of a resolved engine", () => {
  it("reaches a remote engine's ports on its host, whatever named it", () => {
    expect(engineHost({}, "tcp://ctx.example:2376")).toBe("ctx.example");
    expect(engineHost({}, "ssh://me@build.example")).toBe("build.example");
    expect(engineHost({}, "unix:///var/run/docker.sock")).toBe("127.0.0.1");
  });
});
