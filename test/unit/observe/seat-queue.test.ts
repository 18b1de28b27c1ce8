import { describe, expect, it } from "vitest";
import { type SeatKind, SeatQueue, seatGroup } from "../../../harness/observe/seat-queue.ts";

const kind = (side: string, ipv6: boolean, fromHost = false): SeatKind => ({ side, ipv6, fromHost });
const pair = (ipv6: boolean, fromHost = false): SeatKind[] => [kind("baseline", ipv6, fromHost), kind("candidate", ipv6, fromHost)];

function drain(queue: SeatQueue): number[] {
  const taken: number[] = [];
  for (let index = queue.shift(); index !== undefined; index = queue.shift()) taken.push(index);
  return taken;
}

describe("SeatQueue", () => {
  it("takes scenarios group by group of the seats they take, groups in the order of their first scenario", () => {
    const kinds = [pair(true), pair(false), pair(true), null, pair(false), pair(true), null];
    const queue = new SeatQueue(kinds.length, (index) => kinds[index]!);
    expect(queue.length).toBe(7);
    expect(drain(queue)).toEqual([0, 2, 5, 1, 4, 3, 6]);
    expect(queue.length).toBe(0);
  });

  it("keeps scenarios that differ only in sending from the host in one group (a published seat serves both)", () => {
    const kinds = [pair(true), pair(false), pair(true, true), pair(true)];
    expect(drain(new SeatQueue(kinds.length, (index) => kinds[index]!))).toEqual([0, 2, 3, 1]);
    expect(seatGroup(pair(true, true))).toBe(seatGroup(pair(true)));
    expect(seatGroup(pair(true))).not.toBe(seatGroup(pair(false)));
    expect(seatGroup(null)).not.toBe(seatGroup([]));
  });

  it("says which seat kinds a queued scenario still takes, as scenarios are taken, put back and dropped", () => {
    const kinds = [pair(true), pair(false), null];
    const queue = new SeatQueue(kinds.length, (index) => kinds[index]!);
    const ahead = (): string[] => queue.kindsAhead().map((k) => `${k.side}:${k.ipv6}`).sort();
    expect(ahead()).toEqual(["baseline:false", "baseline:true", "candidate:false", "candidate:true"]);
    expect(queue.shift()).toBe(0);
    expect(ahead()).toEqual(["baseline:false", "candidate:false"]);
    // An engine lost it: it goes back to the front, and its kinds are ahead again.
    queue.unshift(0);
    expect(ahead()).toEqual(["baseline:false", "baseline:true", "candidate:false", "candidate:true"]);
    expect([queue.shift(), queue.shift()]).toEqual([0, 1]);
    expect(ahead()).toEqual([]);
    expect(queue.length).toBe(1);
    queue.clear();
    expect(queue.length).toBe(0);
    expect(queue.shift()).toBeUndefined();
    expect(ahead()).toEqual([]);
  });

  it("counts a kind that several queued scenarios take until the last of them is taken", () => {
    const kinds = [pair(true), pair(true), pair(false)];
    const queue = new SeatQueue(kinds.length, (index) => kinds[index]!);
    queue.shift();
    expect(queue.kindsAhead().some((k) => k.ipv6)).toBe(true);
    queue.shift();
    expect(queue.kindsAhead().some((k) => k.ipv6)).toBe(false);
  });

  it("shares lanes among the groups by their queued scenarios, and each lane keeps to its group", () => {
    // 6 scenarios without IPv6, 3 with, 4 lanes: 3 lanes keep to the first group, 1 to the second.
    const kinds = [...Array.from({ length: 6 }, () => pair(false)), ...Array.from({ length: 3 }, () => pair(true))];
    const queue = new SeatQueue(kinds.length, (index) => kinds[index]!);
    const lanes = [{}, {}, {}, {}];
    const first = lanes.map((lane) => queue.shiftFor(lane)!);
    expect(first.map((index) => kinds[index]![0]!.ipv6)).toEqual([false, true, false, false]);
    // Each lane's next scenarios are of its own group while it has any.
    const groupOf = (index: number): boolean => kinds[index]![0]!.ipv6;
    for (const [at, lane] of lanes.entries()) expect(groupOf(queue.shiftFor(lane)!)).toBe(groupOf(first[at]!));
    expect(queue.length).toBe(1);
    expect(groupOf(queue.shiftFor(lanes[2]!)!)).toBe(true);
    expect(queue.length).toBe(0);
    expect(queue.shiftFor(lanes[0]!)).toBeUndefined();
  });

  it("lets a lane whose group is done change groups only where that pays when it may decline: over twice as many queued as lanes there", () => {
    const kinds = [pair(false), pair(true), pair(true), pair(true), pair(true), pair(false)];
    const queue = new SeatQueue(kinds.length, (index) => kinds[index]!);
    const [a, b] = [{}, {}];
    expect(queue.shiftFor(a)).toBe(1);
    expect(queue.shiftFor(b)).toBe(0);
    expect(queue.shiftFor(b, true)).toBe(5);
    // b's group is done; three queued with one lane on them: b changes.
    expect(queue.shiftFor(b, true)).toBe(2);
    expect(queue.length).toBe(2);
    const kinds2 = [pair(false), pair(true), pair(true), pair(true)];
    const queue2 = new SeatQueue(kinds2.length, (index) => kinds2[index]!);
    const [d, e] = [{}, {}];
    expect(queue2.shiftFor(d)).toBe(1);
    expect(queue2.shiftFor(e)).toBe(0);
    expect(queue2.shiftFor(e, true)).toBeUndefined();
    expect(queue2.shiftFor(e)).toBe(2);
  });

  it("shares 8 lanes 7 and 1 over 80 and 20 scenarios, and changes a lane over only while it pays", () => {
    const kinds = [...Array.from({ length: 80 }, () => pair(true)), ...Array.from({ length: 20 }, () => pair(false))];
    const queue = new SeatQueue(kinds.length, (index) => kinds[index]!);
    const lanes = Array.from({ length: 8 }, () => ({}));
    const groupOf = new Map<object, boolean>();
    let changes = 0;
    // Every lane takes a scenario in turn, one config's time each; a lane that declines ends.
    const live = new Set(lanes);
    while (queue.length > 0 && live.size > 0) {
      for (const lane of [...live]) {
        const index = queue.shiftFor(lane, true);
        if (index === undefined) {
          live.delete(lane);
          continue;
        }
        const ipv6 = kinds[index]![0]!.ipv6;
        if (groupOf.has(lane) && groupOf.get(lane) !== ipv6) changes++;
        groupOf.set(lane, ipv6);
      }
    }
    expect(queue.length).toBe(0);
    expect([...groupOf.values()].filter(Boolean).length + changes).toBeLessThanOrEqual(10);
    expect(changes).toBeLessThanOrEqual(3);
  });
});
