// A lane: one of a run's workers, which runs scenarios one after another. It keeps one network for all of them
// instead of making and removing one per scenario: a bridge network costs the engine about as much CPU as a
// container (its bridge, its iptables chains), and a scenario's containers are all gone before the lane's next
// scenario starts, so the next one finds the network as new (names, aliases and addresses free). A scenario
// that ended in an error or its time limit may have left something starting on it: the lane then gives the
// network up and makes a fresh one for its next scenario.
import { createScenarioNetwork, type HarnessNetwork } from "../engine/network.ts";
import type { RunScope } from "../engine/run-scope.ts";

export class ScenarioLane {
  #network: HarnessNetwork | null = null;

  constructor(
    private readonly scope: RunScope,
    /** Names the network and labels it (in place of a scenario id). */
    readonly name: string,
  ) {}

  /** The lane's network, made at its first scenario. */
  async network(): Promise<HarnessNetwork> {
    this.#network ??= await createScenarioNetwork(this.scope, this.name);
    return this.#network;
  }

  /** Gives the network up: removed now (or by the run's clean-up when something is still on it). */
  async retire(): Promise<void> {
    const network = this.#network;
    this.#network = null;
    if (network) await this.scope.removeNetwork(network.id);
  }
}
