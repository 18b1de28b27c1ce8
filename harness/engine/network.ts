import { createHash } from "node:crypto";
import { HarnessError, isHarnessError } from "../errors.ts";
import { type ClientSubnet, subnetsOverlap } from "../scenario/client-address.ts";
import { claim, type ClaimHolder, type ClaimWait } from "./claim.ts";
import { changeEndpoints, engineStuck, limitEngineCall } from "./endpoint-changes.ts";
import { LABEL_RUN_ID, resourceLabels } from "./labels.ts";
import { log } from "./log.ts";
import type { RunScope } from "./run-scope.ts";

export interface HarnessNetwork {
  id: string;
  name: string;
  subnet: string;
  /** The address the servers see for requests that come from the host through a published port. */
  gateway: string;
}

/** A user-defined bridge network for one scenario: its containers find each other by name (Docker's DNS, which
 * also answers reverse lookups for them), and nothing else is on it. */
export async function createScenarioNetwork(scope: RunScope, scenario: string): Promise<HarnessNetwork> {
  // Readable, and unique whatever the ids' length: two ids sharing a long prefix once got one name.
  const key = createHash("sha256").update(scenario).digest("hex").slice(0, 8);
  const name = `harness-${scope.runId}-${scenario.slice(0, 24)}-${key}`.replace(/[^a-zA-Z0-9_.-]/g, "-");
  try {
    // Within a time limit: a create waits for the network controller, forever on one that stopped answering
    // (engine/endpoint-changes.ts).
    const network = await limitEngineCall(scope.engine, `creating the network ${name}`, () =>
      scope.engine.docker.createNetwork({
        Name: name,
        Driver: "bridge",
        CheckDuplicate: true,
        Labels: resourceLabels(scope.runId, "client", scenario),
      }),
    );
    await scope.trackNetwork(network.id);
    const info = await limitEngineCall(scope.engine, `inspecting the network ${name}`, () => network.inspect());
    const config = info.IPAM?.Config?.[0] ?? {};
    log("network %s %s gw %s", name, config.Subnet, config.Gateway);
    return { id: network.id, name, subnet: config.Subnet ?? "", gateway: config.Gateway ?? "" };
  } catch (cause) {
    if (isHarnessError(cause)) throw cause;
    throw new HarnessError("HARNESS_CONTAINER", `Could not create the scenario network ${name}.`, { cause });
  }
}

/** Pure: the start of the names of one scenario's client networks (`<prefix>-n0`, `<prefix>-n1.probe.test`):
 * one DNS label, unique per run and scenario. */
export function clientNetworkPrefix(runId: string, scenario: string): string {
  const key = createHash("sha256").update(scenario).digest("hex").slice(0, 8);
  return `harness-${runId}-${key}`.replace(/[^a-zA-Z0-9-]/g, "-").toLowerCase();
}

export interface ClientNetworkSpec {
  /** The network's name: harness-made, or one a DNS name dictates (`example.com`). */
  name: string;
  scenario: string;
  /** A fixed subnet (for clients with addresses); null: the engine's choice. */
  subnet: ClientSubnet | null;
  /** Where in the subnet the engine picks addresses of its own choice (IPAM's IPRange); absent: anywhere. */
  engineRange?: string;
  /** For errors: the clients it is made for and what they asked ("client office at 10.77.1.5"). */
  subject: string;
  signal?: AbortSignal;
  /** Told while the subnet or name is waited for (another live run holds it). */
  onWait?: (wait: ClaimWait) => void;
}

/** A network for clients with fixed addresses or DNS names: the subnet and name are claimed (engine/claim.ts):
 * another live run holding them is waited for, anything else refusing them is HARNESS_CLIENT_ADDRESS. IPv6
 * subnets get an IPv6 network (the engine adds an IPv4 subnet of its own choice). */
export async function createClientNetwork(scope: RunScope, spec: ClientNetworkSpec): Promise<HarnessNetwork> {
  const { docker } = scope.engine;
  const ipv6 = spec.subnet?.family === 6;
  const create = async () => {
    const network = await limitEngineCall(scope.engine, `creating the network ${spec.name}`, () =>
      docker.createNetwork({
        Name: spec.name,
        Driver: "bridge",
        CheckDuplicate: true,
        EnableIPv6: ipv6,
        ...(spec.subnet === null ? {} : { IPAM: { Driver: "default", Config: [{ Subnet: spec.subnet.subnet, Gateway: spec.subnet.gateway, ...(spec.engineRange ? { IPRange: spec.engineRange } : {}) }] } }),
        Labels: resourceLabels(scope.runId, "client", spec.scenario),
      }),
    );
    await scope.trackNetwork(network.id);
    return network;
  };
  const network = await claim(scope.engine, create, (error) => networkHolder(scope, spec, error), {
    subject: `${spec.subject} (network ${spec.name}${spec.subnet === null ? "" : `, subnet ${spec.subnet.subnet}`})`,
    ...(spec.signal ? { signal: spec.signal } : {}),
    ...(spec.onWait ? { onWait: spec.onWait } : {}),
    // Runs waiting for one subnet take it in turns, in the order they began to wait.
    ...(spec.subnet === null ? {} : { queue: { runId: scope.runId, key: spec.subnet.subnet, scenario: spec.scenario } }),
  });
  const info = await limitEngineCall(scope.engine, `inspecting the network ${spec.name}`, () => network.inspect());
  const configs: Array<{ Subnet?: string; Gateway?: string }> = info.IPAM?.Config ?? [];
  const own = configs.find((config) => config.Subnet === spec.subnet?.subnet) ?? configs[0] ?? {};
  log("client network %s %s gw %s", spec.name, own.Subnet, own.Gateway);
  return { id: network.id, name: spec.name, subnet: own.Subnet ?? "", gateway: own.Gateway ?? "" };
}

/** After a refusal: the network holding the name or an overlapping subnet, or why nothing does. */
async function networkHolder(scope: RunScope, spec: ClientNetworkSpec, error: unknown): Promise<ClaimHolder> {
  const message = (error as Error).message ?? String(error);
  const networks = await scope.engine.docker.listNetworks();
  const holder = networks.find(
    (network) =>
      network.Name === spec.name ||
      (spec.subnet !== null && (network.IPAM?.Config ?? []).some((config) => config.Subnet !== undefined && subnetsOverlap(config.Subnet, spec.subnet!.subnet))),
  );
  if (holder === undefined) {
    // No network explains it: gone since (retry), or the engine's own refusal (no IPv6, a bad subnet). Docker
    // 28 words a clash "conflicts with network ...: networks have overlapping IPv4", older ones "overlaps".
    if (/already exists|overlaps|have overlapping/i.test(message)) return { kind: "none" };
    return { kind: "foreign", reason: `the engine refused it: ${message.replace(/^\(HTTP code \d+\) [a-z ]+- /, "").trim()}` };
  }
  const what = `network ${holder.Name}`;
  if (holder.Labels?.[LABEL_RUN_ID]) return { kind: "harness", labels: holder.Labels, created: Date.parse(holder.Created), what };
  const clash = holder.Name === spec.name ? "has that name" : `has an overlapping subnet (${(holder.IPAM?.Config ?? []).map((c) => c.Subnet).join(", ")})`;
  return { kind: "foreign", reason: `the engine's network ${holder.Name}, not the harness's, ${clash}` };
}

/** Removes a network whatever is still on it: the containers left (a scenario abandoned at its time limit may
 * still be starting a server there) are disconnected first, so that the network does not outlive its users and
 * keep its subnet from the engine. */
export async function removeNetworkWithEndpoints(scope: RunScope, id: string): Promise<void> {
  const network = scope.engine.docker.getNetwork(id);
  const { engine } = scope;
  const at = `the network ${id.slice(0, 12)}`;
  const info = (await limitEngineCall(engine, `inspecting ${at}`, () => network.inspect()).catch(() => null)) as { Containers?: Record<string, unknown> } | null;
  await Promise.all(
    Object.keys(info?.Containers ?? {}).map((container) =>
      changeEndpoints(engine, `disconnecting ${container.slice(0, 12)} from ${at}`, () => network.disconnect({ Container: container, Force: true })).catch(() => undefined),
    ),
  );
  if (engineStuck(engine) === null) await scope.removeNetwork(id);
}
