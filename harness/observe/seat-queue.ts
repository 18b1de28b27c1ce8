// Pure: the order in which a run's lanes take its scenarios, grouped by the seats they take. A lane keeps a seat of
// every kind its scenarios took (observe/scenario-lane.ts), and each seat costs the engine a container with a network
// stack of its own to make and, at the run's end, one at a time to remove: a fleet whose configs alternate between
// the kinds (a local client's IPv6 or not) had every lane holding four seats, and the run ended with some thirty
// removals in a row, seconds of a nearly idle machine. Taken group by group, a lane changes kinds about once, and
// the seats of a kind that no scenario still queued takes go while the lane runs on (kindsAhead), not at the end.
// With servers reused (server/server-host.ts), a seat also carries a host per image, and a lane that changes groups
// makes two seats and two hosts anew: every lane of a fleet took both groups in turn (32 seats and 32 hosts per 100
// configs on 8 lanes). So a lane keeps to one group (shiftFor): lanes are shared among the groups by their queued
// scenarios, and a lane whose group is done takes another's only while that one has well more queued than lanes.
// What a scenario observes does not depend on the order; the reports keep the scenarios' own order.

/** A seat a scenario's side takes (ScenarioLane.seatsFor). */
export interface SeatKind {
  side: string;
  ipv6: boolean;
  fromHost: boolean;
}

/** The group a scenario runs in: its sides' seats by side and IPv6, or none. Whether a side sends from the host is
 * left out: a seat that publishes serves a side that does not, so such scenarios share their seats. */
export function seatGroup(kinds: readonly SeatKind[] | null): string {
  return kinds === null ? "own stacks" : kinds.map((kind) => `${kind.side}:${kind.ipv6 ? "ipv6" : "ipv4"}`).join(" ");
}

/** A lane changes to another group (making its seats and hosts anew) only while that group has more than this many
 * queued scenarios for each lane on it: fewer, and its lanes end them about as soon. A fleet of 100 configs/ samples
 * is 80 configs with a local client's IPv6 and 20 without; its 8 lanes took them 7 and 1, and the lanes of the larger
 * group, done first, changed over one by one while the other had more queued than lanes (5 changes, 10 hosts), with
 * this bound 3. */
const CHANGE_PAYS_PER_LANE = 2;

export class SeatQueue {
  /** Scenario indexes not yet taken, in the order they are taken. */
  readonly #order: number[];
  readonly #kinds: ReadonlyArray<readonly SeatKind[] | null>;
  /** How many queued scenarios take each kind, by its key. */
  readonly #ahead = new Map<string, { kind: SeatKind; count: number }>();
  /** Each scenario's group (seatGroup), and how many queued scenarios each group has. */
  readonly #groups: string[];
  readonly #queued = new Map<string, number>();
  /** The group each lane keeps to (shiftFor). */
  readonly #laneGroups = new Map<object, string>();

  /** Scenarios 0 to count - 1, `kindsOf(index)` the seats one takes (null: none). Groups run in the order of their
   * first scenario, each group's scenarios in their own order. */
  constructor(count: number, kindsOf: (index: number) => readonly SeatKind[] | null) {
    this.#kinds = Array.from({ length: count }, (_, index) => kindsOf(index));
    this.#groups = this.#kinds.map((kinds) => seatGroup(kinds));
    const groups = new Map<string, number[]>();
    this.#kinds.forEach((_, index) => {
      const group = this.#groups[index]!;
      let members = groups.get(group);
      if (members === undefined) groups.set(group, (members = []));
      members.push(index);
    });
    this.#order = [...groups.values()].flat();
    for (const index of this.#order) this.#count(index, 1);
  }

  get length(): number {
    return this.#order.length;
  }

  /** The next scenario, or undefined when none is queued. */
  shift(): number | undefined {
    const index = this.#order.shift();
    if (index !== undefined) this.#count(index, -1);
    return index;
  }

  /** The next scenario for `lane`: one of the group it keeps to while that has any; else (a lane's first, or its
   * group done) one of the group with the most queued scenarios per lane on it, counting this one, which the lane
   * then keeps to. A lane that `mayDecline` (nothing it leaves can come back to the queue) takes none when changing
   * would not pay: when that group has no more than CHANGE_PAYS_PER_LANE queued scenarios for each lane on it, those
   * lanes end them about as soon, without seats and hosts made anew. Undefined: none for this lane. */
  shiftFor(lane: object, mayDecline = false): number | undefined {
    const held = this.#laneGroups.get(lane);
    let group = held !== undefined && (this.#queued.get(held) ?? 0) > 0 ? held : undefined;
    if (group === undefined) {
      const lanesOn = (g: string): number => [...this.#laneGroups].filter(([other, kept]) => other !== lane && kept === g).length;
      let best: { group: string; score: number; lanes: number; queued: number } | undefined;
      for (const [g, queued] of this.#queued) {
        if (queued === 0) continue;
        const lanes = lanesOn(g);
        const score = queued / (lanes + 1);
        if (best === undefined || score > best.score) best = { group: g, score, lanes, queued };
      }
      if (best === undefined) return undefined;
      if (mayDecline && held !== undefined && best.queued <= CHANGE_PAYS_PER_LANE * best.lanes) return undefined;
      group = best.group;
      this.#laneGroups.set(lane, group);
    }
    const at = this.#order.findIndex((index) => this.#groups[index] === group);
    const [index] = this.#order.splice(at, 1);
    this.#count(index!, -1);
    return index;
  }

  /** How many queued scenarios each group has, for the log. */
  groupCounts(): string {
    return [...this.#queued].filter(([, n]) => n > 0).map(([group, n]) => `${n} ${group}`).join(", ");
  }

  /** Puts a scenario back at the front (an engine lost it). */
  unshift(index: number): void {
    this.#order.unshift(index);
    this.#count(index, 1);
  }

  /** Drops every queued scenario. */
  clear(): void {
    for (const index of this.#order.splice(0)) this.#count(index, -1);
  }

  /** Every seat kind some queued scenario takes. */
  kindsAhead(): SeatKind[] {
    return [...this.#ahead.values()].map((entry) => entry.kind);
  }

  #count(index: number, by: 1 | -1): void {
    const group = this.#groups[index]!;
    this.#queued.set(group, (this.#queued.get(group) ?? 0) + by);
    for (const kind of this.#kinds[index] ?? []) {
      const key = `${kind.side} ${kind.ipv6} ${kind.fromHost}`;
      const entry = this.#ahead.get(key);
      if (entry === undefined) this.#ahead.set(key, { kind, count: by });
      else if ((entry.count += by) === 0) this.#ahead.delete(key);
    }
  }
}
