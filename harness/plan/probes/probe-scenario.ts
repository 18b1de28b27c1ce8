// A probe set as a tree scenario's clients and requests, with its world on the scenario's server: each side's plan
// stages it (plan/tree/world-staging.ts), so that "valid credentials" and "the file is there" mean the same thing
// to both servers. The trees themselves are never changed.
import type { SourcePosition } from "../../errors.ts";
import type { RequestProbe } from "../../scenario/probe-world.ts";
import type { ClientSpec, RequestAuth, RequestSpec, Scenario } from "../../scenario/scenario.ts";
import { generatedRequest } from "../tree/generated-request.ts";
import { OTHER_REALM_USER, PROBE_USER, WRONG_PASSWORD } from "./generate-probes.ts";
import type { Probe, ProbeSet } from "./probe.ts";

const BUILT_IN = new Set(["host", "localhost", "localhost6"]);
const PROBE_TIMEOUT_MS = 10_000;

/** The credentials a probe sends (null: none). */
export function authOf(probe: Pick<Probe, "credentials" | "user" | "scheme">): RequestAuth | null {
  const scheme = probe.scheme ?? "basic";
  switch (probe.credentials) {
    case "none":
      return null;
    case "valid":
      return { user: probe.user ?? PROBE_USER.user, password: PROBE_USER.password, scheme };
    case "wrong-password":
      return { user: probe.user ?? PROBE_USER.user, password: WRONG_PASSWORD, scheme };
    case "other-realm":
      return { ...OTHER_REALM_USER, scheme };
  }
}

export function probeRequests(set: ProbeSet, at: SourcePosition): { clients: ClientSpec[]; requests: RequestSpec[] } {
  const used = new Set(set.probes.map((p) => p.client));
  const clients: ClientSpec[] = set.clients
    .filter((c) => used.has(c.id) && !BUILT_IN.has(c.id))
    .map((c) => ({ at, name: c.id, address: c.address, domain: c.domain }));
  // One client's probes in a row: the observer sends a run of one client's requests in one exec.
  const order = new Map(set.clients.map((c, i) => [c.id, i]));
  const probes = [...set.probes].sort((a, b) => (order.get(a.client) ?? 0) - (order.get(b.client) ?? 0));
  const ranges = new Map(set.clients.map((c) => [c.id, c.range]));
  const vhostOf = (probe: Probe) => `${probe.target.tls ? "https" : "http"}://${probe.target.host ?? "(default)"}:${probe.target.port}`;
  const requests = probes.map((probe) => ({
    ...generatedRequest({
      at,
      name: probe.id,
      client: probe.client,
      method: probe.method,
      path: probe.path,
      host: probe.target.host,
      port: probe.target.port,
      body: probe.method === "POST" ? "probe=1" : null,
      auth: authOf(probe),
      tls: probe.target.tls,
      repeat: false,
      timeoutMs: PROBE_TIMEOUT_MS,
    }),
    probe: { cell: probe.cell, vhost: vhostOf(probe), region: probe.region, clientRange: ranges.get(probe.client) ?? probe.client, credentials: probe.credentials, user: probe.user, object: probe.object, sections: probe.sections },
  }));
  return { clients, requests };
}

/** A tree scenario sending the probes of `set` instead of its smoke requests, with the set's world staged on
 * both sides. */
export function withProbes(scenario: Scenario, set: ProbeSet): Scenario {
  const { clients, requests } = probeRequests(set, scenario.at);
  return { ...scenario, clients, requests, server: { ...scenario.server, world: set.world } };
}

/** A scenario file's own requests with the world of its trees (`world: probes`): each request whose path (and
 * Host) names an object of the world is judged by what came back from it. */
export function withProbeWorld(scenario: Scenario, set: ProbeSet): Scenario {
  const requests = scenario.requests.map((request) => {
    const url = request.path.split("?")[0]!;
    const object = set.world.objects.find((o) => o.url === url && o.target.host === request.host) ?? set.world.objects.find((o) => o.url === url);
    if (object === undefined || request.probe !== undefined) return request;
    const vhost = `${object.target.tls ? "https" : "http"}://${object.target.host ?? "(default)"}:${object.target.port}`;
    const credentials = request.auth === null ? "none" : "valid";
    // The sections the object's URL meets, as a probe for it worked them out.
    const sections = set.probes.find((p) => p.path.split("?")[0] === url && p.target.host === object.target.host && p.target.port === object.target.port)?.sections;
    const probe: RequestProbe = {
      cell: `${vhost}|${url}|${request.client}|${credentials}|${request.method}`,
      vhost,
      region: url,
      clientRange: request.client,
      credentials,
      user: request.auth?.user ?? null,
      object: { kind: object.kind, marker: object.marker, origin: object.origin },
      ...(sections ? { sections } : {}),
    };
    return { ...request, probe };
  });
  return { ...scenario, requests, server: { ...scenario.server, world: set.world } };
}
