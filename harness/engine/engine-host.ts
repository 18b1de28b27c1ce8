/** Pure: where the harness reaches the ports it publishes. Ports are published on 127.0.0.1 only, so a local
 * engine (a unix socket) is reached there, even when this process itself runs in a container: testcontainers
 * would pick the bridge gateway then, which our 127.0.0.1-only ports do not answer on. A remote engine
 * (DOCKER_HOST=tcp://...) is reached at its host name; an explicit TESTCONTAINERS_HOST_OVERRIDE wins. */
export function engineHost(env: Readonly<Record<string, string | undefined>>): string {
  if (env.TESTCONTAINERS_HOST_OVERRIDE) return env.TESTCONTAINERS_HOST_OVERRIDE;
  const dockerHost = env.DOCKER_HOST;
  if (dockerHost && /^(tcp|https?):\/\//.test(dockerHost)) return new URL(dockerHost.replace(/^tcp:/, "http:")).hostname;
  return "127.0.0.1";
}
