// A seat: a place on a network that servers take one after another. A small holder container sits on the
// network with the server's alias and published ports, and each server started on the seat joins its network
// namespace instead of getting one of its own. Most of a container's cost to the engine is its network set-up
// (namespace, veth pair, published ports): a server that joins a seat starts for about a third of it.
// To the server and its clients nothing differs: it listens in a namespace on the same network, under the same
// alias, reached through published ports from the same gateway address.
import { HarnessContainer } from "../engine/container.ts";
import type { RunScope } from "../engine/run-scope.ts";

/** The container ports a seat publishes: what the scenarios' servers listen on (80, and 443 with TLS). */
export const SEAT_PORTS: readonly number[] = [80, 443];

export interface ServerSeat {
  /** The holder whose network namespace a server joins. */
  containerId: string;
  /** Container port → the host port it is published on. */
  published: ReadonlyMap<number, number>;
  /** The seat's address on its network: the server's. */
  address: string | null;
}

/** Whether a server publishing these ports can take a seat (other ports need a stack of their own). */
export function fitsSeat(ports: readonly number[]): boolean {
  return ports.every((port) => SEAT_PORTS.includes(port));
}

export async function takeSeat(
  scope: RunScope,
  spec: { image: string; network: string; alias: string; label: string },
): Promise<{ seat: ServerSeat; holder: HarnessContainer }> {
  const holder = await HarnessContainer.create(scope, {
    image: spec.image,
    // Not "server": what looks for a scenario's servers by label finds httpd containers only.
    role: "seat",
    scenario: spec.label,
    command: ["sleep", "infinity"],
    publish: [...SEAT_PORTS],
    network: { name: spec.network, aliases: [spec.alias] },
  });
  await holder.start();
  const published = new Map<number, number>();
  for (const port of SEAT_PORTS) published.set(port, await holder.mappedPort(port));
  const address = await holder.ipAddress(spec.network).catch(() => null);
  return { seat: { containerId: holder.id, published, address }, holder };
}
