// Fixed-address clients that the scenarios of one run share on one engine. An engine holds one network per
// subnet, so every scenario probing from 198.51.100.77 (the probes' outsider) used to wait for the one before it
// to remove its network: a fleet ran one config at a time whatever its concurrency. A network of addresses only
// (no DNS names, which are the scenario's own) depends on nothing but its subnet, and a client on it on nothing
// but its address: so the run makes each once, the scenarios that ask for them join, and the last to leave
// removes them. Servers of several scenarios sit on one such network side by side; each client sends only to its
// own scenario's servers, by address, and the engine gives servers addresses from the subnet's upper half
// (engineAssignedRange), clear of the low ones clients ask for.
import { createHash } from "node:crypto";
import { type StartedClientContainer, startClientContainer } from "../clients/client-container.ts";
import type { ClientNetworkPlan } from "../clients/client-networks.ts";
import { createClientNetwork, type HarnessNetwork } from "../engine/network.ts";
import type { RunScope } from "../engine/run-scope.ts";
import { engineAssignedRange } from "../scenario/client-address.ts";

export interface SharedNetworkUse {
  network: HarnessNetwork;
  /** The network's clients this scenario asked for, under the scenario's own names. */
  clients: StartedClientContainer[];
  /** Gives them back; the last scenario to leave removes them. */
  leave: () => Promise<void>;
}

interface Held<T> {
  value: Promise<T>;
  users: number;
}

const LABEL = "shared-clients";

export class SharedClientNetworks {
  readonly #held = new Map<string, Held<unknown>>();
  /** Removals under way: the next use of the key waits for them (the engine still holds the subnet or address). */
  readonly #leaving = new Map<string, Promise<void>>();
  /** Makes each container name new: a client that failed to start keeps its name until the run's clean-up. */
  #made = 0;

  constructor(
    private readonly scope: RunScope,
    private readonly toolsImage: string,
  ) {}

  /** Joins the network of a shareable plan (ClientNetworkPlan.shareable) and its clients, making what is not
   * there yet. */
  async join(placed: ClientNetworkPlan, wanted: ReadonlySet<string>): Promise<SharedNetworkUse> {
    const subnet = placed.subnet!;
    // A network's gateway is part of it: a client asking for .1 gets a network whose gateway is .254.
    const networkKey = `network ${subnet.subnet} gw ${subnet.gateway}`;
    const network = await this.#take(networkKey, () =>
      createClientNetwork(this.scope, {
        name: `harness-${this.scope.runId}-s${digest(networkKey)}`.toLowerCase(),
        scenario: LABEL,
        subnet,
        engineRange: engineAssignedRange(subnet),
        // Claim errors name the clients of the scenario that made it (the one that meets them).
        subject: placed.subject,
      }),
    );
    const taken: string[] = [];
    const leave = async (): Promise<void> => {
      await Promise.all(taken.map((key) => this.#give<StartedClientContainer>(key, (client) => client.container.remove())));
      await this.#give<HarnessNetwork>(networkKey, (made) => this.scope.removeNetwork(made.id));
    };
    try {
      const clients = await Promise.all(
        placed.clients
          .filter((client) => wanted.has(client.name))
          .map(async (client) => {
            const key = `client ${client.address} on ${networkKey}`;
            const started = await this.#take(key, () =>
              startClientContainer(this.scope, {
                scenario: LABEL,
                network: network.name,
                image: this.toolsImage,
                name: client.name,
                address: client.address,
                sharedName: `${this.scope.runId}-c${digest(key)}-${++this.#made}`,
              }),
            );
            taken.push(key);
            return { ...started, name: client.name };
          }),
      );
      return { network, clients, leave };
    } catch (error) {
      await leave();
      throw error;
    }
  }

  async #take<T>(key: string, make: () => Promise<T>): Promise<T> {
    for (;;) {
      const leaving = this.#leaving.get(key);
      if (leaving !== undefined) {
        await leaving;
        continue;
      }
      let held = this.#held.get(key) as Held<T> | undefined;
      if (held === undefined) {
        const made: Held<T> = { value: make(), users: 0 };
        held = made;
        this.#held.set(key, made);
        // What could not be made is not kept: the next scenario tries again.
        made.value.catch(() => {
          if (this.#held.get(key) === made) this.#held.delete(key);
        });
      }
      held.users++;
      try {
        return await held.value;
      } catch (error) {
        held.users--;
        throw error;
      }
    }
  }

  async #give<T>(key: string, remove: (value: T) => Promise<void>): Promise<void> {
    const held = this.#held.get(key) as Held<T> | undefined;
    if (held === undefined) return;
    held.users--;
    if (held.users > 0) return;
    this.#held.delete(key);
    const removal = held.value.then(remove, () => undefined).finally(() => {
      if (this.#leaving.get(key) === removal) this.#leaving.delete(key);
    });
    this.#leaving.set(key, removal);
    await removal;
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}
