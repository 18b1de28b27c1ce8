import { isRemoteEngine } from "./engine-target.ts";

/** Pure: where the harness reaches the ports it publishes. A local engine (a unix socket) publishes on 127.0.0.1
 * only and is reached there, even when this process itself runs in a container (the bridge gateway would not
 * answer on those ports). A remote engine (tcp://, https://, ssh://) is reached at its host name. An explicit
 * TESTCONTAINERS_HOST_OVERRIDE wins. `engineUrl` is the resolved engine (engine-target.ts); DOCKER_HOST otherwise. */
export function engineHost(env: Readonly<Record<string, string | undefined>>, engineUrl: string | undefined = env.DOCKER_HOST): string {
  if (env.TESTCONTAINERS_HOST_OVERRIDE) return env.TESTCONTAINERS_HOST_OVERRIDE;
  if (engineUrl && isRemoteEngine(engineUrl)) return new URL(engineUrl.replace(/^tcp:/, "http:")).hostname;
  return "127.0.0.1";
}
