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
});
