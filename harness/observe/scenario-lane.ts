// A lane: one of a run's workers, which runs scenarios one after another. It keeps one network for all of them
// instead of making and removing one per scenario: a bridge network costs the engine about as much CPU as a
// container (its bridge, its iptables chains), and a scenario's containers are all gone before the lane's next
// scenario starts, so the next one finds the network as new (names, aliases and addresses free). On it, a seat
// per side (server/server-seat.ts) that the sides' servers join in turn, so that a server does not set up a
// network stack of its own. A scenario that ended in an error or its time limit may have left something
// starting: the lane then gives its network and seats up and makes fresh ones for its next scenario.
import type { HarnessContainer } from "../engine/container.ts";
import { createScenarioNetwork, type HarnessNetwork } from "../engine/network.ts";
import type { RunScope } from "../engine/run-scope.ts";
import { type ServerSeat, takeSeat } from "../server/server-seat.ts";

export class ScenarioLane {
  #network: HarnessNetwork | null = null;
  readonly #seats = new Map<string, Promise<{ seat: ServerSeat; holder: HarnessContainer }>>();

  constructor(
    private readonly scope: RunScope,
    /** Names the network and labels it (in place of a scenario id). */
    readonly name: string,
    /** The image seats are held with (the harness's tools image: anything with `sleep`). */
    private readonly seatImage: string,
  ) {}

  /** The lane's network, made at its first scenario. */
  async network(): Promise<HarnessNetwork> {
    this.#network ??= await createScenarioNetwork(this.scope, this.name);
    return this.#network;
  }

  /** The seat of a side (its alias `server-SIDE` on the lane's network), taken at its first use. */
  async seat(side: string): Promise<ServerSeat> {
    const network = await this.network();
    let taken = this.#seats.get(side);
    if (taken === undefined) {
      taken = takeSeat(this.scope, { image: this.seatImage, network: network.name, alias: `server-${side}`, label: this.name });
      this.#seats.set(side, taken);
      // A seat that could not be taken is not kept: the next scenario tries again.
      taken.catch(() => this.#seats.delete(side));
    }
    return (await taken).seat;
  }

  /** Leaves the seats: for a server that needs a stack of its own, which takes the alias `server-SIDE` itself. */
  async leaveSeats(): Promise<void> {
    const seats = [...this.#seats.values()];
    this.#seats.clear();
    await Promise.all(seats.map((taken) => taken.then(({ holder }) => holder.remove(), () => undefined)));
  }

  /** Gives the network and seats up: removed now (or by the run's clean-up when something is still on them). */
  async retire(): Promise<void> {
    await this.leaveSeats();
    const network = this.#network;
    this.#network = null;
    if (network) await this.scope.removeNetwork(network.id);
  }
}
