import type Dockerode from "dockerode";
import { getContainerRuntimeClient, type ContainerRuntimeClient } from "testcontainers";
import { HarnessError } from "../errors.ts";
import { engineHost } from "./engine-host.ts";
import { log } from "./log.ts";

/** The container engine the harness talks to: testcontainers finds it (DOCKER_HOST, ~/.testcontainers.properties,
 * the local socket), and its dockerode client does the work. */
export interface Engine {
  docker: Dockerode;
  runtime: ContainerRuntimeClient;
  /** Where published ports are reached; 127.0.0.1 for a local engine. */
  host: string;
}

let connecting: Promise<Engine> | undefined;

export function connectEngine(): Promise<Engine> {
  // Ryuk cannot be pulled offline; we clean up by label ourselves (engine/run-scope.ts, engine/sweep.ts).
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= "true";
  connecting ??= (async () => {
    try {
      // Decided before testcontainers resolves (and caches) its own host: see engine-host.ts.
      const host = engineHost(process.env);
      process.env.TESTCONTAINERS_HOST_OVERRIDE ??= host;
      const runtime = await getContainerRuntimeClient();
      const docker = runtime.container.dockerode;
      await docker.ping();
      log("engine %s (server %s)", host, runtime.info.containerRuntime.serverVersion);
      return { docker, runtime, host };
    } catch (cause) {
      connecting = undefined;
      throw new HarnessError("HARNESS_ENGINE_UNAVAILABLE", "No Docker engine answers.", {
        cause,
        hint:
          "Run `bash scripts/ensure-engine.sh` (as root on Debian it installs docker.io and starts dockerd), " +
          "or start your engine and set DOCKER_HOST.",
      });
    }
  })();
  return connecting;
}
