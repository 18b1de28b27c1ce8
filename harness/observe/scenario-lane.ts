// A lane: one of a run's workers, which runs scenarios one after another. It keeps one network for all of them
// instead of making and removing one per scenario: a bridge network costs the engine about as much CPU as a
// container (its bridge, its iptables chains), and a scenario's containers are all gone before the lane's next
// scenario starts, so the next one finds the network as new (names, aliases and addresses free). On it, seats
// per side (server/server-seat.ts: one with IPv6, one without) that the sides' servers join in turn, so that a
// server does not set up a network stack of its own. A scenario that ended in an error or its time limit may
// have left something starting: the lane then gives its network and seats up and makes fresh ones for its next
// scenario.
// The seats also stay on the run's shared client networks (observe/shared-client-networks.ts) from one scenario to
// the next that probes from them, as a fleet's configs all probe from the same outsider: a connect costs the
// engine a third of a server's own stack. Such a stay is a hold on the network like a scenario's: the network is
// removed only once the seats are off it. A stay on a network closed to new scenarios is left as soon as the lane
// is between scenarios (and before it joins the next network), so that the network drains and the one made after
// it gets its subnet; at the run's end, its clean-up removes the seats and networks without leaving first. Once a
// scenario asks for a new network in the place of one (which waits for the old one to drain), a stay on the old one
// is left at once, unless the lane's own scenario is on it: a lane held up waiting for work, or for a network whose
// old one another lane's seats stay on, held the network it stayed on for good, and the scenario that waited for it
// ran into its time limit.
// Backends take the lane's origin seats (backends/origin-seat.ts): on the network under the backend's name for the
// scenario's time, off it between scenarios.
import { type OriginSeat, seatOriginOn, takeOriginSeat } from "../backends/origin-seat.ts";
import type { HarnessContainer } from "../engine/container.ts";
import { log } from "../engine/log.ts";
import { createScenarioNetwork, type HarnessNetwork } from "../engine/network.ts";
import type { RunScope } from "../engine/run-scope.ts";
import type { ImageInspection } from "../server/inspect-image.ts";
import { ServerHost } from "../server/server-host.ts";
import { fitsSeat, type ServerSeat, takeSeat } from "../server/server-seat.ts";
import type { ScenarioPlan } from "../plan/scenario-plan.ts";
import type { SeatKind } from "./seat-queue.ts";
import type { NetworkStay, SharedNetworkUse } from "./shared-client-networks.ts";

interface SeatStay {
  stay: NetworkStay;
  /** The seats' holders connected to it, by container id. */
  connected: Map<string, HarnessContainer>;
}

export class ScenarioLane {
  #network: HarnessNetwork | null = null;
  #making: Promise<HarnessNetwork> | null = null;
  readonly #seats = new Map<string, Promise<ServerSeat>>();
  /** The shared networks the seats are on, by network id (a network made again after its window has a new id and
   * the same name). */
  readonly #stays = new Map<string, SeatStay>();
  /** Origin seats off the network, waiting for the next scenario's backends. */
  readonly #idleOriginSeats: HarnessContainer[] = [];
  /** Origin seats a scenario holds now: removed with the lane's seats when it ends uncleanly. */
  readonly #busyOriginSeats = new Set<HarnessContainer>();
  /** Seats being removed ahead of the lane's retirement (retireSeatsBut). */
  readonly #retiring: Array<Promise<void>> = [];
  /** The shared networks (by id) the lane's scenario is on now: their stays are left once it ends, not before. */
  readonly #inUse = new Set<string>();
  /** Stays on networks followed by new ones, being left in the background; retire() waits for them. */
  readonly #leavingFollowed = new Set<Promise<void>>();
  /** The same, by network id: a scenario that joined such a network just before it closed stays on it again only
   * once the seats are off it (stayOn). */
  readonly #leavingById = new Map<string, Promise<void>>();
  /** The server hosts on the seats (server/server-host.ts), by seat and image: each runs the servers of the lane's
   * configs on its seat one after another. */
  readonly #hosts = new Map<string, Promise<ServerHost | null>>();
  /** Seats that are server hosts (ServerHost.openSeat), by container id. */
  readonly #seatHosts = new Map<string, ServerHost>();
  /** Images that cannot host servers (no GNU find, awk, sort or cp): their servers get a container each. */
  static readonly #cannotHost = new Set<string>();

  constructor(
    private readonly scope: RunScope,
    /** Names the network and labels it (in place of a scenario id). */
    readonly name: string,
    /** The image seats are held with (the harness's tools image: anything with `sleep`). */
    private readonly seatImage: string,
  ) {}

  /** The lane's network, made at its first scenario (once, however many ask at the same time). */
  async network(): Promise<HarnessNetwork> {
    if (this.#network !== null) return this.#network;
    this.#making ??= createScenarioNetwork(this.scope, this.name).then(
      (network) => {
        this.#network = network;
        this.#making = null;
        return network;
      },
      (error: unknown) => {
        this.#making = null;
        throw error;
      },
    );
    return this.#making;
  }

  /** The seat of a side, taken at its first use: with IPv6 in its namespace (for a local client's ::1) or
   * without, as a server with a stack of its own has IPv6 only when a local client asks. A lane keeps a seat of
   * each kind a side has used: a fleet's configs ask for one or the other in turn, and a seat made again costs what
   * a stack of its own does. A scenario that sends nothing from the host takes a seat that publishes its ports when
   * the lane has one of its kind already, and otherwise one that publishes none (server/server-seat.ts). */
  async seat(side: string, ipv6: boolean, fromHost: boolean, hostFor?: ImageInspection): Promise<ServerSeat> {
    const network = await this.network();
    const key = this.#seatKey(side, ipv6, fromHost);
    let taken = this.#seats.get(key);
    if (taken !== undefined) {
      // A seat that is its host goes with it when the host could not be put back (server-host.ts wipe).
      const seat = await taken.catch(() => null);
      const host = seat === null ? undefined : this.#seatHosts.get(seat.containerId);
      await host?.settled();
      if (seat !== null && host?.gone === true) {
        this.#seats.delete(key);
        this.#seatHosts.delete(seat.containerId);
        this.#hosts.delete(`${seat.containerId} ${host.image}`);
        for (const kept of this.#stays.values()) kept.connected.delete(seat.containerId);
        taken = undefined;
      }
    }
    if (taken === undefined) {
      const publish = key.endsWith(" published");
      // Without IPv6 the holder sends nothing (it is a local client's only), so with servers reused the seat is the
      // side's server host itself: one container where a holder and a host joining it were two.
      taken =
        hostFor !== undefined && !ipv6 && !ScenarioLane.#cannotHost.has(hostFor.image)
          ? this.#hostSeat(hostFor, network.name, ipv6, publish)
          : takeSeat(this.scope, { image: this.seatImage, network: network.name, label: this.name, ipv6, publish });
      this.#seats.set(key, taken);
      // A seat that could not be taken is not kept: the next scenario tries again.
      taken.catch(() => this.#seats.delete(key));
    }
    return taken;
  }

  /** A seat that is a server host (ServerHost.openSeat), or a holder's where the image cannot host. */
  async #hostSeat(inspection: ImageInspection, network: string, ipv6: boolean, publish: boolean): Promise<ServerSeat> {
    const opened = await ServerHost.openSeat(this.scope, { image: inspection.image, profile: inspection.profile, network, label: this.name, publish });
    if (opened === null) {
      ScenarioLane.#cannotHost.add(inspection.image);
      return takeSeat(this.scope, { image: this.seatImage, network, label: this.name, ipv6, publish });
    }
    this.#seatHosts.set(opened.seat.containerId, opened.host);
    this.#hosts.set(`${opened.seat.containerId} ${inspection.image}`, Promise.resolve(opened.host));
    return opened.seat;
  }

  /** Which of the lane's seats a side takes (seat): its kind, published when the side sends from the host or the
   * lane has a published one of the kind already. */
  #seatKey(side: string, ipv6: boolean, fromHost: boolean): string {
    const kind = `${side} ${ipv6 ? "ipv6" : "ipv4"}`;
    const publishing = `${kind} published`;
    return fromHost || this.#seats.has(publishing) ? publishing : kind;
  }

  /** The host on a seat for a server of this image: the seat's idle one, or one made now; null when the image
   * cannot host servers or the seat's host is busy (the server then gets a container of its own, as without). A host
   * that was wiped unclean is gone, and a new one takes its place. */
  async host(seat: ServerSeat, inspection: ImageInspection): Promise<ServerHost | null> {
    if (ScenarioLane.#cannotHost.has(inspection.image)) return null;
    const key = `${seat.containerId} ${inspection.image}`;
    const kept = this.#hosts.get(key);
    const idle = kept === undefined ? null : await kept.catch(() => null);
    // The last config's wipe may still run (server-host.ts release): taken once it is done.
    if (idle !== null && !idle.gone) {
      if (await idle.take()) return idle;
      if (!idle.gone) return null;
    }
    // Taken for a side by a scenario the lane ran meanwhile (not on one lane), or gone: a new one.
    if (this.#hosts.get(key) !== kept) return null;
    const opened = ServerHost.open(this.scope, { image: inspection.image, profile: inspection.profile, seatId: seat.containerId, label: this.name }).then((host) => {
      if (host === null) ScenarioLane.#cannotHost.add(inspection.image);
      return host;
    });
    this.#hosts.set(key, opened);
    opened.catch(() => this.#hosts.delete(key));
    const made = await opened;
    return made !== null && (await made.take()) ? made : null;
  }

  /** Removes the hosts on a seat (all hosts without one): before the seat, whose namespace they share. */
  async #removeHosts(seatId?: string): Promise<void> {
    const going = [...this.#hosts].filter(([key]) => seatId === undefined || key.startsWith(`${seatId} `));
    for (const [key] of going) this.#hosts.delete(key);
    if (seatId === undefined) this.#seatHosts.clear();
    else this.#seatHosts.delete(seatId);
    await Promise.all(going.map(([, host]) => host.then((made) => made?.remove(), () => undefined)));
  }

  /** Removes, in the background, the seats of kinds that neither the lane's next scenario nor any scenario still
   * queued takes (`kinds`: theirs, as seatsFor gives them). The engine releases a seat's network endpoints one at a
   * time, about 0.1 s each, and a fleet's lanes held four seats on four networks each: released all at the end,
   * after the last scenario, that was seconds of a nearly idle machine. Released as soon as nothing will take them
   * (the run takes its scenarios group by group, observe/seat-queue.ts), they go while the lane runs on. retire()
   * waits for them. */
  retireSeatsBut(kinds: readonly SeatKind[]): void {
    const kept = new Set(kinds.map((kind) => this.#seatKey(kind.side, kind.ipv6, kind.fromHost)));
    for (const [key, taken] of [...this.#seats]) {
      if (kept.has(key)) continue;
      this.#seats.delete(key);
      this.#retiring.push(
        taken.then(
          async (seat) => {
            // Off the stays' books first: a lane leaving a network later must not disconnect a holder that is gone.
            for (const kept of this.#stays.values()) kept.connected.delete(seat.containerId);
            await this.#removeHosts(seat.containerId);
            await seat.holder.remove();
          },
          () => undefined,
        ),
      );
    }
  }

  /** The seats a scenario's sides take on this lane (null: a side needs ports the seats do not publish, so every
   * server gets a stack of its own): one per side, with IPv6 for a local client, published for requests from the
   * host. */
  static seatsFor(plan: ScenarioPlan): SeatKind[] | null {
    if (!plan.sides.every((side) => fitsSeat(side.ports))) return null;
    return plan.sides.map((side) => ({ side: side.side.id, ipv6: side.localClient, fromHost: side.requests.some((request) => request.client === "host") }));
  }

  /** A seat on the lane's network for a backend named `alias`: an idle one connected under that name, or a new one. */
  async originSeat(alias: string): Promise<OriginSeat> {
    const network = await this.network();
    const idle = this.#idleOriginSeats.pop();
    const taken = idle
      ? seatOriginOn(idle, network.name, alias).catch(async (error: unknown) => {
          await idle.remove();
          throw error;
        })
      : takeOriginSeat(this.scope, { image: this.seatImage, network: network.name, label: this.name, alias });
    const seat = await taken;
    this.#busyOriginSeats.add(seat.holder);
    return seat;
  }

  /** Takes an origin seat off the network once its backend is gone, for the next scenario; one that is still on
   * the network afterwards (its name would answer another scenario's server) is removed instead. */
  async releaseOriginSeat(seat: OriginSeat): Promise<void> {
    this.#busyOriginSeats.delete(seat.holder);
    const network = this.#network;
    if (network !== null) {
      await seat.holder.disconnect(network.name);
      const left = await seat.holder.attachment([]).catch(() => null);
      if (left !== null && !left.networks.has(network.name)) {
        this.#idleOriginSeats.push(seat.holder);
        return;
      }
    }
    await seat.holder.remove();
  }

  /** Puts the seats on the scenario's shared client networks (those they are not on yet). They stay on the ones
   * this scenario does not use as well (a fleet's configs probe from a few subnets in turn): a server on such a
   * network answers only what is sent to its address there, which no client of another scenario does (clients
   * send to their own scenario's servers), and the lane's network stays the seat's gateway (its name sorts first:
   * `harness-RUN-lane-…` before `harness-RUN-s…`). */
  async stayOn(seats: readonly ServerSeat[], uses: readonly SharedNetworkUse[]): Promise<void> {
    for (const use of uses) {
      const id = use.network.id;
      // A network closes when its window passes, also while a scenario of this lane is joining it (before it is
      // marked in use): its stay is then being left in the background, and a connect now would race the disconnect.
      await this.#leavingById.get(id);
      let kept = this.#stays.get(id);
      if (kept === undefined) {
        // Recorded before the connects: a failed one is left with the rest.
        kept = { stay: use.stay(), connected: new Map() };
        this.#stays.set(id, kept);
        kept.stay.whenFollowed(() => this.#leaveFollowed(id));
      }
      for (const seat of seats) {
        if (kept.connected.has(seat.containerId)) continue;
        kept.connected.set(seat.containerId, seat.holder);
        await seat.holder.connect(use.network.id);
      }
    }
  }

  /** Marks a shared network the lane's scenario joined: the seats stay on it until the scenario ends. */
  using(networkId: string): void {
    this.#inUse.add(networkId);
  }

  /** The lane's scenario is over: the shared networks it was on are left once followed, as any other; one that
   * closed while the scenario was on it (its window's timer, shared-holds.ts) is left now, in the background, as
   * its follower's call came while it was in use. */
  scenarioEnded(): void {
    const were = [...this.#inUse];
    this.#inUse.clear();
    for (const id of were) {
      const kept = this.#stays.get(id);
      if (kept !== undefined && !kept.stay.open()) this.#leaveFollowed(id);
    }
  }

  /** Leaves, in the background, the stay on a network that a new one follows, unless the lane's scenario is on it
   * (then leaveClosedStays does, at its end). The seats go off it whatever fails: the network is removed with any
   * endpoint left, and it must drain for the one after it to get its subnet. */
  #leaveFollowed(id: string): void {
    const kept = this.#stays.get(id);
    if (kept === undefined || this.#inUse.has(id)) return;
    this.#stays.delete(id);
    const leaving = (async () => {
      await Promise.allSettled([...kept.connected.values()].map((holder) => holder.disconnect(id)));
      await kept.stay.leave();
    })()
      .catch((error: unknown) => log("lane %s: leaving the shared network %s: %s", this.name, id.slice(0, 12), error))
      .finally(() => {
        this.#leavingFollowed.delete(leaving);
        if (this.#leavingById.get(id) === leaving) this.#leavingById.delete(id);
      });
    this.#leavingFollowed.add(leaving);
    this.#leavingById.set(id, leaving);
  }

  /** Leaves the stays on networks closed to new scenarios: between scenarios, and before joining networks. */
  leaveClosedStays(): Promise<void> {
    return this.#leave((_id, kept) => !kept.stay.open());
  }

  async #leave(which: (id: string, kept: SeatStay) => boolean): Promise<void> {
    const leaving = [...this.#stays].filter(([id, kept]) => which(id, kept));
    for (const [id] of leaving) this.#stays.delete(id);
    await Promise.all(
      leaving.map(async ([id, kept]) => {
        // Off the network first, then the hold: the last user removes the network, and nothing of this lane may be
        // on it then. The hold is given back also when a disconnect failed (the network's removal takes what is
        // left off it): one kept would keep the network for good.
        const off = await Promise.allSettled([...kept.connected.values()].map((holder) => holder.disconnect(id)));
        await kept.stay.leave();
        const failed = off.find((result): result is PromiseRejectedResult => result.status === "rejected");
        if (failed) throw failed.reason;
      }),
    );
  }

  /** Leaves the seats (and with them their stays). */
  async #leaveSeats(): Promise<void> {
    const seats = [...this.#seats.values()];
    this.#seats.clear();
    const origins = [...this.#idleOriginSeats.splice(0), ...this.#busyOriginSeats];
    this.#busyOriginSeats.clear();
    await this.#removeHosts();
    await Promise.all([
      ...seats.map((taken) => taken.then((seat) => seat.holder.remove(), () => undefined)),
      ...origins.map((holder) => holder.remove()),
      ...this.#retiring.splice(0),
      ...this.#leavingFollowed,
    ]);
    // The holders are gone, and with them their connections.
    const stays = [...this.#stays.values()];
    this.#stays.clear();
    await Promise.all(stays.map((kept) => kept.stay.leave()));
  }

  /** Gives the network and seats up: removed now (or by the run's clean-up when something is still on them). */
  async retire(): Promise<void> {
    // A network still being made (for seats made ahead) is given up too.
    await this.#making?.catch(() => undefined);
    await this.#leaveSeats();
    const network = this.#network;
    this.#network = null;
    if (network) await this.scope.removeNetwork(network.id);
  }
}
