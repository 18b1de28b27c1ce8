// Fixed-address clients that the scenarios of one run share on one engine. An engine holds one network per
// subnet, so every scenario probing from 198.51.100.77 (the probes' outsider) used to wait for the one before it
// to remove its network: a fleet ran one config at a time whatever its concurrency. A network of addresses only
// (no DNS names, which are the scenario's own) depends on nothing but its subnet, and a client on it on nothing
// but its address: so the run makes each once, the scenarios that ask for them join, and the last to leave
// removes them. Servers of several scenarios sit on one such network side by side; each client sends only to its
// own scenario's servers, by address, and the engine gives servers addresses from the subnet's upper half
// (engineAssignedRange), clear of the low ones clients ask for. A client no scenario uses for the moment stays on
// its network until the network goes: a fleet's configs ask for the same few clients in turn, and a client made
// again costs the engine as much as a server with a network stack of its own.
import { createHash } from "node:crypto";
import { type StartedClientContainer, startClientContainer } from "../clients/client-container.ts";
import type { ClientNetworkPlan } from "../clients/client-networks.ts";
import { type ClaimWait, describeClaimWait, describeClaimWaited } from "../engine/claim.ts";
import { createClientNetwork, type HarnessNetwork, removeNetworkWithEndpoints } from "../engine/network.ts";
import { OtherRuns } from "../engine/other-runs.ts";
import type { RunScope } from "../engine/run-scope.ts";
import { engineAssignedRange } from "../scenario/client-address.ts";
import { type Held, SharedHolds } from "./shared-holds.ts";

export interface SharedNetworkUse {
  network: HarnessNetwork;
  /** The network's clients this scenario asked for, under the scenario's own names. */
  clients: StartedClientContainer[];
  /** Gives them back; the last scenario to leave removes them. */
  leave: () => Promise<void>;
  /** One more hold on the network alone, for a lane's seats that stay on it past the scenario (scenario-lane.ts). */
  stay: () => NetworkStay;
}

/** A hold on a shared network that outlives the scenario that took it. */
export interface NetworkStay {
  network: HarnessNetwork;
  /** Whether scenarios still join the network: a stay on one that is closed is left at once, so that it drains
   * (its subnet is waited for by the network made after it). */
  open: () => boolean;
  /** Calls `listener` once a scenario of the run asks for a new network in its place (which waits for this one to
   * drain), or at once when that happened already. */
  whenFollowed: (listener: () => void) => void;
  /** Gives the hold back (once); the last user removes the network. */
  leave: () => Promise<void>;
}

/** How long a shared network takes new scenarios (unless the run says otherwise) while another harness run is alive
 * on the engine: then it is let drain and made again, so that the other run, which may be waiting for the subnet
 * (engine/claim.ts), gets its turn instead of waiting for this whole run. */
const SHARE_WINDOW_MS = 60_000;

const LABEL = "shared-clients";

export class SharedClientNetworks {
  readonly #holds: SharedHolds;
  private readonly windowMs: number;
  /** Makes each container name new: a client that failed to start keeps its name until the run's clean-up. */
  #made = 0;
  /** The subnets waited for now (another run holds them), by network key: what a scenario waits for says so. */
  readonly #waits = new Map<string, ClaimWait>();
  /** The waits for other runs that ended, by network key: [from, to] in epoch ms (waitedBetween). */
  readonly #waited = new Map<string, Array<[number, number]>>();
  readonly #note: (message: string) => void;

  constructor(
    private readonly scope: RunScope,
    private readonly toolsImage: string,
    options: { windowMs?: number; turnsAlone?: boolean; note?: (message: string) => void } = {},
  ) {
    this.windowMs = options.windowMs ?? SHARE_WINDOW_MS;
    this.#note = options.note ?? (() => {});
    // A run alone on the engine keeps its networks past their window: a turn makes every scenario that needs the
    // network wait for the old one to drain (a fleet of 100 configs: 1.39 configs/s without turns, 1.10 with).
    const others = options.turnsAlone ? null : new OtherRuns(scope.engine, scope.runId);
    this.#holds = new SharedHolds(Date.now, () => others?.alive ?? true);
  }

  /** Joins the network of a shareable plan (ClientNetworkPlan.shareable) and its clients, making what is not
   * there yet. */
  async join(placed: ClientNetworkPlan, wanted: ReadonlySet<string>): Promise<SharedNetworkUse> {
    const subnet = placed.subnet!;
    const networkKey = keyOf(placed);
    const network = await this.#holds.take(networkKey, this.windowMs, () => this.#make(placed, networkKey));
    const made = await network.value;
    const clientKeys = ` on ${networkKey} #${network.generation}`;
    const removeNetwork = async (gone: HarnessNetwork): Promise<void> => {
      // No scenario is on the network any more, so none uses its clients.
      await this.#holds.removeIdle<StartedClientContainer>((key) => key.endsWith(clientKeys), (client) => client.container.remove());
      await removeNetworkWithEndpoints(this.scope, gone.id);
    };
    const stay = (): NetworkStay => {
      const held = this.#holds.again(network);
      let left: Promise<void> | null = null;
      return {
        network: made,
        open: () => this.#holds.isOpen(held, this.windowMs),
        whenFollowed: (listener) => this.#holds.whenFollowed(held, listener),
        leave: () => (left ??= this.#holds.give(held, removeNetwork)),
      };
    };
    const taken: Array<Held<StartedClientContainer>> = [];
    const leave = async (): Promise<void> => {
      for (const held of taken) this.#holds.keep(held);
      // Nothing of a live scenario is on it once the last has left.
      await this.#holds.give(network, removeNetwork);
    };
    // Every client's take is let end before a failure is thrown: one still starting would otherwise be held after
    // the leave below, for good.
    const starts = await Promise.allSettled(
      placed.clients
        .filter((client) => wanted.has(client.name))
        .map(async (client) => {
          const key = `client ${client.address}${clientKeys}`;
          const held = await this.#holds.take(key, null, () =>
            startClientContainer(this.scope, {
              scenario: LABEL,
              network: made.name,
              image: this.toolsImage,
              name: client.name,
              address: client.address,
              sharedName: `${this.scope.runId}-c${digest(key)}-${++this.#made}`,
            }),
          );
          taken.push(held);
          return { ...(await held.value), name: client.name };
        }),
    );
    const failed = starts.find((start): start is PromiseRejectedResult => start.status === "rejected");
    if (failed) {
      await leave();
      throw failed.reason;
    }
    return { network: made, clients: starts.map((start) => (start as PromiseFulfilledResult<StartedClientContainer>).value), leave, stay };
  }

  /** The run is over: no network closes any more (its clean-up removes them). */
  close(): void {
    this.#holds.stop();
  }

  /** What joining the network of `placed` waits for now, when another run holds its subnet: "waiting for …, held by
   * network … of run …, since 18:02:11 UTC (42 s)"; null when it waits for nothing of another run. */
  waiting(placed: ClientNetworkPlan, now = Date.now()): string | null {
    const wait = placed.subnet ? this.#waits.get(keyOf(placed)) : undefined;
    return wait === undefined ? null : describeClaimWait(wait, now);
  }

  /** How long, between `from` and `to`, the run waited for another run to let it have the subnet of `placed`:
   * what a scenario joining it then does not count against its time limit (observe-scenario.ts). */
  waitedBetween(placed: ClientNetworkPlan, from: number, to: number): number {
    if (!placed.subnet) return 0;
    const key = keyOf(placed);
    const ongoing = this.#waits.get(key);
    return overlapMs([...(this.#waited.get(key) ?? []), ...(ongoing ? [[ongoing.since, to] as [number, number]] : [])], from, to);
  }

  /** Makes the network of a subnet; while another run holds the subnet, the wait is recorded (waiting) and the run
   * notes when it began and when it ended. */
  async #make(placed: ClientNetworkPlan, networkKey: string): Promise<HarnessNetwork> {
    const subnet = placed.subnet!;
    try {
      return await createClientNetwork(this.scope, {
        name: `harness-${this.scope.runId}-s${digest(networkKey)}`.toLowerCase(),
        scenario: LABEL,
        subnet,
        engineRange: engineAssignedRange(subnet),
        // Claim errors name the clients of the scenario that made it (the one that meets them).
        subject: placed.subject,
        onWait: (wait) => {
          const first = !this.#waits.has(networkKey);
          this.#waits.set(networkKey, { ...wait, subject: `subnet ${subnet.subnet}` });
          if (first) this.#note(describeClaimWait(this.#waits.get(networkKey)!, Date.now()));
        },
      });
    } finally {
      const wait = this.#waits.get(networkKey);
      this.#waits.delete(networkKey);
      if (wait !== undefined) {
        const now = Date.now();
        this.#note(describeClaimWaited(wait, now));
        // Kept while a scenario that joined during the wait may still ask (its time limit at most).
        const kept = (this.#waited.get(networkKey) ?? []).filter(([, to]) => now - to < KEEP_WAITS_MS);
        this.#waited.set(networkKey, [...kept, [wait.since, now]]);
      }
    }
  }
}

/** How long an ended wait is remembered for waitedBetween: past any scenario's time limit. */
const KEEP_WAITS_MS = 60 * 60_000;

/** Pure: how much of [from, to] the intervals cover (they do not overlap one another: one wait per key at a time). */
export function overlapMs(intervals: ReadonlyArray<readonly [number, number]>, from: number, to: number): number {
  return intervals.reduce((sum, [start, end]) => sum + Math.max(0, Math.min(end, to) - Math.max(start, from)), 0);
}

function keyOf(placed: ClientNetworkPlan): string {
  // A network's gateway is part of it: a client asking for .1 gets a network whose gateway is .254.
  return `network ${placed.subnet!.subnet} gw ${placed.subnet!.gateway}`;
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}
