// An origin seat: a place on a lane's network that the backends of the lane's scenarios take one after another,
// as servers take server seats (server/server-seat.ts). A backend that joins a seat starts without a network
// stack of its own: on a network with a DNS name that stack costs the engine a dockerd started anew for its
// name resolver, eleven iptables runs and the namespace's set-up, more than twice what the origin costs itself.
// The name a scenario's server reaches the backend by is the seat's alias on the network, given when the seat is
// connected for that scenario; between scenarios the seat is off the network, so that no other scenario's server
// finds a backend of that name (it would be refused where it should have failed to resolve).
import { HarnessContainer } from "../engine/container.ts";
import type { RunScope } from "../engine/run-scope.ts";

export interface OriginSeat {
  /** The holder whose network namespace the backend joins. */
  holder: HarnessContainer;
  /** The seat's address on the network while it is on it: the backend's. */
  address: string;
}

/** A new holder on the network under `alias` (a small container of an image with `sleep`). */
export async function takeOriginSeat(scope: RunScope, spec: { image: string; network: string; label: string; alias: string }): Promise<OriginSeat> {
  const holder = await HarnessContainer.create(scope, {
    image: spec.image,
    role: "seat",
    scenario: spec.label,
    command: ["sleep", "infinity"],
    network: { name: spec.network, aliases: [spec.alias] },
  });
  await holder.start();
  return { holder, address: await holder.ipAddress(spec.network) };
}

/** An idle holder put on the network again, under the alias of the backend that takes it now. */
export async function seatOriginOn(holder: HarnessContainer, network: string, alias: string): Promise<OriginSeat> {
  await holder.connect(network, [alias]);
  return { holder, address: await holder.ipAddress(network) };
}
