// A seat: a place on a network that servers take one after another. A small holder container sits on the
// network with published ports, and each server started on the seat joins its network namespace instead of
// getting one of its own. Most of a container's cost to the engine is its network set-up (namespace, veth pair,
// published ports, and Docker's libnetwork-setkey hook, a dockerd started anew for every container with a
// namespace of its own): a server that joins a seat starts for about a third of it.
// To the server and its clients nothing differs: it listens in a namespace on the same network, reached at its
// address (clients never send to a name) and through published ports from the same gateway address. A seat
// joins the client networks of the scenarios that use it (observe/scenario-lane.ts), and a seat taken with IPv6
// gives its servers ::1 for the local client, which is the seat's holder itself: a tools container in the very
// namespace the server listens in, as a local client container joining the server's namespace would be.
import { HarnessContainer } from "../engine/container.ts";
import type { RunScope } from "../engine/run-scope.ts";

/** The container ports a seat publishes: what the scenarios' servers listen on (80, and 443 with TLS). */
export const SEAT_PORTS: readonly number[] = [80, 443];

export interface ServerSeat {
  /** The holder whose network namespace a server joins. */
  containerId: string;
  /** The holder itself: the local client of the servers on the seat, and what joins client networks. */
  holder: HarnessContainer;
  /** The container ports it publishes: SEAT_PORTS, or none for a seat whose servers no request from the host
   * reaches. */
  publishes: readonly number[];
  /** Container port → the host port it is published on. */
  published: ReadonlyMap<number, number>;
  /** The seat's address on its network: the server's. */
  address: string | null;
}

/** Whether a server publishing these ports can take a seat (other ports need a stack of their own). */
export function fitsSeat(ports: readonly number[]): boolean {
  return ports.every((port) => SEAT_PORTS.includes(port));
}

/** `publish`: the seat publishes SEAT_PORTS on the host, for requests from the host. A seat that publishes nothing
 * costs the engine less to make, to connect and to remove: no proxy processes and about ten iptables runs per port
 * each time (a fleet's probes all come from client containers). */
export async function takeSeat(
  scope: RunScope,
  spec: { image: string; network: string; label: string; ipv6: boolean; publish: boolean },
): Promise<ServerSeat> {
  const publishes = spec.publish ? SEAT_PORTS : [];
  const holder = await HarnessContainer.create(scope, {
    image: spec.image,
    // Not "server": what looks for a scenario's servers by label finds httpd containers only.
    role: "seat",
    scenario: spec.label,
    agent: true,
    publish: [...publishes],
    // No alias: clients send to a server's address, never to a name (observe-side.ts serverAddressFor), and a
    // lane keeps seats of two kinds per side.
    network: { name: spec.network, aliases: [] },
    ipv6: spec.ipv6,
  });
  await holder.start();
  const address = await holder.ipAddress(spec.network).catch(() => null);
  const published = publishes.length > 0 ? await holder.mappedPorts(publishes) : new Map<number, number>();
  return { containerId: holder.id, holder, publishes, published, address };
}

/** The seat connected to a scenario's own client networks (those it is not on yet), with its published ports as
 * they are now; the scenario takes it off them at its end. A network whose name sorts before the seat's own becomes
 * its gateway network when connected (Docker's rule for a container on several networks), and the engine then
 * publishes the ports anew, on other host ports; taking the seat off it again moves them back: so the ports are
 * read again for every scenario (one inspection; the lane's stays on shared networks may have moved them too). A
 * server with a stack of its own is connected to all its networks before it starts and publishes once, the same
 * way. */
export async function seatOnNetworks(seat: ServerSeat, networks: readonly string[]): Promise<ServerSeat> {
  // Nothing to join and no ports that could have moved: nothing to look at.
  if (networks.length === 0 && seat.publishes.length === 0) return seat;
  const now = await seat.holder.attachment(seat.publishes);
  const missing = networks.filter((network) => !now.networks.has(network));
  for (const network of missing) await seat.holder.connect(network);
  return { ...seat, published: missing.length === 0 || seat.publishes.length === 0 ? now.published : await seat.holder.mappedPorts(seat.publishes) };
}
