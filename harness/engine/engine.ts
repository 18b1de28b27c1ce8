import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import Dockerode from "dockerode";
import { HarnessError } from "../errors.ts";
import { engineHost } from "./engine-host.ts";
import { describeEngineTarget, type EngineTarget, isRemoteEngine, resolveEngineTarget } from "./engine-target.ts";
import { log } from "./log.ts";

/** The container engine the harness talks to: the one the environment names (engine-target.ts), and no other. */
export interface Engine {
  docker: Dockerode;
  /** Where published ports are reached; 127.0.0.1 for a local engine, the engine's host for a remote one. */
  host: string;
  /** The address ports are published on: 127.0.0.1 for a local engine (nothing else reaches the servers under
   * test), every address of a remote engine's host (this machine reaches them over the network). */
  publishIp: string;
  target: EngineTarget;
}

/** The engine the environment names, read from this process's environment and files. */
export function namedEngineTarget(env: NodeJS.ProcessEnv = process.env): EngineTarget {
  return resolveEngineTarget({
    env,
    home: env.HOME || homedir(),
    readText: (path) => {
      try {
        return readFileSync(path, "utf8");
      } catch {
        return null;
      }
    },
    exists: existsSync,
  });
}

function unavailable(target: EngineTarget, reason: string, cause?: unknown): HarnessError {
  return new HarnessError("HARNESS_ENGINE_UNAVAILABLE", `The Docker engine ${describeEngineTarget(target)} does not answer: ${reason}`, {
    cause,
    hint: target.named
      ? `Start that engine, or change what names it (${target.source.replace(/ \(.*$/, "")}); the harness never falls back to another engine.`
      : "Run `bash scripts/ensure-engine.sh` (as root on Debian it installs docker.io and starts dockerd), " +
        "or start your engine and name it with DOCKER_HOST or `docker context use`.",
  });
}

/** dockerode's options for a target; throws HARNESS_ENGINE_UNAVAILABLE for one it cannot reach at all. */
export function dockerodeOptions(target: EngineTarget, env: NodeJS.ProcessEnv = process.env): Dockerode.DockerOptions {
  const { url } = target;
  if (url.startsWith("unix://")) return { socketPath: url.slice("unix://".length) || "/var/run/docker.sock" };
  if (url.startsWith("npipe://")) return { socketPath: url.slice("npipe://".length) || "//./pipe/docker_engine" };
  let parsed: URL;
  try {
    parsed = new URL(url.replace(/^tcp:/, "http:"));
  } catch (cause) {
    throw unavailable(target, "it is not an address the harness can use (unix://, tcp://, https://, ssh://)", cause);
  }
  if (parsed.protocol === "ssh:") {
    return {
      protocol: "ssh",
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : 22,
      username: decodeURIComponent(parsed.username) || undefined,
      sshOptions: env.SSH_AUTH_SOCK ? { agent: env.SSH_AUTH_SOCK } : {},
    } as Dockerode.DockerOptions;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw unavailable(target, `the scheme ${parsed.protocol} is not one the harness can use (unix://, tcp://, https://, ssh://)`);
  }
  const tls = target.tls;
  const options: Dockerode.DockerOptions = {
    protocol: tls || parsed.protocol === "https:" ? "https" : "http",
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : tls ? 2376 : 2375,
  };
  if (tls) {
    const read = (file: string): Buffer => {
      try {
        return readFileSync(join(tls.certPath, file));
      } catch (cause) {
        throw unavailable(target, `its TLS file ${join(tls.certPath, file)} cannot be read`, cause);
      }
    };
    options.ca = read("ca.pem");
    options.cert = read("cert.pem");
    options.key = read("key.pem");
  }
  return options;
}

const PING_TIMEOUT_MS = 15_000;

/** Connects to the named engine and checks that it answers; HARNESS_ENGINE_UNAVAILABLE naming it otherwise. */
export async function openEngine(target: EngineTarget, env: NodeJS.ProcessEnv = process.env): Promise<Engine> {
  if (target.url.startsWith("docker-context://")) throw unavailable(target, "its docker context has no readable endpoint");
  const docker = new Dockerode(dockerodeOptions(target, env));
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      docker.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS / 1000} s`)), PING_TIMEOUT_MS);
      }),
    ]);
  } catch (cause) {
    throw unavailable(target, (cause as Error).message, cause);
  } finally {
    clearTimeout(timer);
  }
  const remote = isRemoteEngine(target.url);
  const host = engineHost(env, target.url);
  log("engine %s: ports on %s", describeEngineTarget(target), host);
  return { docker, host, publishIp: remote ? "0.0.0.0" : "127.0.0.1", target };
}

let connecting: Promise<Engine> | undefined;

/** The engine of this process, opened once. */
export function connectEngine(): Promise<Engine> {
  connecting ??= openEngine(namedEngineTarget()).catch((error: unknown) => {
    connecting = undefined;
    throw error;
  });
  return connecting;
}
