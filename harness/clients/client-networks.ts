// Pure: the networks a scenario's clients with fixed addresses or DNS names need. Docker's DNS answers
// `<container>.<network>` both ways on a user-defined network, so a client's name is chosen through the names of
// its container and network, and its address through the network's subnet:
//   - an address: a network whose subnet holds it (IPv4 /24, IPv6 /64); clients in one subnet share it;
//   - a domain ".probe.test": a harness network named `harness-<run>-<scenario>-n<i>.probe.test`;
//   - a full name "www.example.com": a container named `www` on a network named `example.com` (both global on
//     the engine, claimed by engine/claim.ts); names under one domain share that network.
// A client asking for none of these stays on the scenario network.
import { HarnessError } from "../errors.ts";
import { type ClientSubnet, clientSubnet, engineAssignedRange, subnetsOverlap } from "../scenario/client-address.ts";
import type { ClientSpec } from "../scenario/scenario.ts";

export interface PlacedClient {
  name: string;
  address: string | null;
  /** The container's name when a full DNS name dictates it (`www`); null: the harness's own. */
  containerName: string | null;
}

export interface ClientNetworkPlan {
  name: string;
  subnet: ClientSubnet | null;
  /** Named after a DNS name (global on the engine) rather than after the run. */
  global: boolean;
  clients: PlacedClient[];
  /** What it is for, in errors: "client office at 10.77.1.5, client www as www.example.com". */
  subject: string;
  /** Addresses only, no names, none where the engine places servers on a shared network (the subnet's upper
   * half): nothing of it depends on the scenario, so the scenarios of a run that ask for the same subnet can share
   * it (observe/shared-client-networks.ts) instead of waiting for each other. */
  shareable: boolean;
}

function refuse(message: string): never {
  throw new HarnessError("HARNESS_CLIENT_ADDRESS", message);
}

function describe(client: Pick<ClientSpec, "name" | "address" | "domain">): string {
  const parts = [client.address === null ? null : `at ${client.address}`, client.domain === null ? null : `as ${client.domain}`].filter(Boolean);
  return `client ${client.name} ${parts.join(" ")}`;
}

/** The networks for `clients` (those with neither address nor domain are left out); HARNESS_CLIENT_ADDRESS for
 * what no network can give (an address no host of its subnet has, names that need one subnet to be two
 * networks). `prefix` names the harness's own networks: `harness-<run id>-<scenario key>`. */
export function planClientNetworks(clients: ReadonlyArray<Pick<ClientSpec, "name" | "address" | "domain">>, prefix: string): ClientNetworkPlan[] {
  const placed = clients.filter((client) => client.address !== null || client.domain !== null);
  // Union of clients that must share a network: one subnet, or names under one parent domain.
  const parent = new Map<string, string>();
  const find = (key: string): string => {
    const up = parent.get(key) ?? key;
    if (up === key) return key;
    const root = find(up);
    parent.set(key, root);
    return root;
  };
  const join = (a: string, b: string) => parent.set(find(a), find(b));
  const subnets = new Map<string, ClientSubnet>();
  for (const client of placed) {
    const own = `client:${client.name}`;
    if (client.address !== null) {
      const subnet = clientSubnet(client.address);
      if ("problem" in subnet) refuse(`Cannot give ${describe(client)}: ${client.address} ${subnet.problem}.`);
      subnets.set(client.name, subnet);
      join(own, `subnet:${subnet.subnet}`);
    }
    if (client.domain !== null && !client.domain.startsWith(".")) join(own, `parent:${parentDomain(client.domain)}`);
  }
  const groups = new Map<string, Array<Pick<ClientSpec, "name" | "address" | "domain">>>();
  for (const client of placed) {
    const root = find(`client:${client.name}`);
    groups.set(root, [...(groups.get(root) ?? []), client]);
  }
  return [...groups.values()].map((members, index) => {
    const subject = members.map(describe).join(", ");
    const own = [...new Set(members.flatMap((client) => (subnets.has(client.name) ? [subnets.get(client.name)!.subnet] : [])))];
    if (own.length > 1) refuse(`Cannot give ${subject}: their names share a domain, which is one network, but their addresses are in ${own.join(" and ")}.`);
    const subnet = members.map((client) => subnets.get(client.name)).find((s) => s !== undefined) ?? null;
    const parents = [...new Set(members.flatMap((client) => (client.domain !== null && !client.domain.startsWith(".") ? [parentDomain(client.domain)] : [])))];
    if (parents.length > 1) refuse(`Cannot give ${subject}: one subnet is one network, which cannot be named both ${parents.join(" and ")}.`);
    const suffixes = [...new Set(members.flatMap((client) => (client.domain?.startsWith(".") ? [client.domain] : [])))].sort((a, b) => b.length - a.length);
    let name: string;
    if (parents[0] !== undefined) {
      name = parents[0];
      const unmet = suffixes.find((suffix) => !`.${name}`.endsWith(suffix));
      if (unmet !== undefined) refuse(`Cannot give ${subject}: one subnet is one network, named ${name}, whose names do not end in ${unmet}.`);
    } else {
      const longest = suffixes[0] ?? "";
      const unmet = suffixes.find((suffix) => !longest.endsWith(suffix));
      if (unmet !== undefined) refuse(`Cannot give ${subject}: one subnet is one network, whose names cannot end in both ${longest} and ${unmet}.`);
      name = `${prefix}-n${index}${longest}`;
    }
    return {
      name,
      subnet,
      global: parents.length > 0,
      // A client in the part where the engine places servers on a shared network could find its address taken.
      shareable:
        subnet !== null &&
        members.every((client) => client.domain === null && (client.address === null || !subnetsOverlap(engineAssignedRange(subnet), client.address))),
      clients: members.map((client) => ({
        name: client.name,
        address: client.address,
        containerName: client.domain !== null && !client.domain.startsWith(".") ? client.domain.slice(0, client.domain.indexOf(".")) : null,
      })),
      subject,
    };
  });
}

function parentDomain(name: string): string {
  return name.slice(name.indexOf(".") + 1);
}
