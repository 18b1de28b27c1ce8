import { describe, expect, it } from "vitest";
import { SharedHolds } from "../../../harness/observe/shared-holds.ts";

/** A hand-stepped clock and timer for SharedHolds' looks at its windows. */
function clock() {
  let now = 0;
  const looks: Array<{ at: number; look: () => void }> = [];
  return {
    now: () => now,
    schedule: (look: () => void, ms: number) => {
      const entry = { at: now + ms, look };
      looks.push(entry);
      return () => {
        const at = looks.indexOf(entry);
        if (at >= 0) looks.splice(at, 1);
      };
    },
    /** Moves the clock on, running every look that falls due on the way. */
    advance(ms: number) {
      now += ms;
      for (;;) {
        const due = looks.filter((entry) => entry.at <= now).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) return;
        looks.splice(looks.indexOf(due), 1);
        due.look();
      }
    },
  };
}

/** An engine's subnets: one holder each, as Docker refuses an overlapping network; a claim waits until it is free
 * (engine/claim.ts waits so for another live run's hold). */
function subnets() {
  const holders = new Map<string, string>();
  const waiting: Array<() => void> = [];
  return {
    holders,
    claim: (subnet: string, holder: string) => async () => {
      while (holders.has(subnet)) await new Promise<void>((resolve) => waiting.push(resolve));
      holders.set(subnet, holder);
      return `${holder}'s ${subnet}`;
    },
    release: (subnet: string) => async () => {
      holders.delete(subnet);
      for (const wake of waiting.splice(0)) wake();
    },
  };
}

/** Whether a promise has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** A maker that counts what it made and a remover that records what it removed. */
function ledger() {
  const made: string[] = [];
  const removed: string[] = [];
  return {
    made,
    removed,
    make: (name: string) => async () => {
      made.push(name);
      return name;
    },
    remove: async (name: string) => {
      removed.push(name);
    },
  };
}

describe("SharedHolds", () => {
  it("makes a key's value once for users holding it at once, and the last to give it back removes it", async () => {
    const holds = new SharedHolds();
    const book = ledger();
    const [a, b] = await Promise.all([holds.take("net", null, book.make("one")), holds.take("net", null, book.make("two"))]);
    expect(book.made).toEqual(["one"]);
    expect(a).toBe(b);
    await holds.give(a, book.remove);
    expect(book.removed).toEqual([]);
    await holds.give(b, book.remove);
    expect(book.removed).toEqual(["one"]);
    // Made again for the next user.
    const c = await holds.take("net", null, book.make("three"));
    expect(await c.value).toBe("three");
  });

  it("keeps a value given back with keep for the next user, until removeIdle removes the idle ones it picks", async () => {
    const holds = new SharedHolds();
    const book = ledger();
    const first = await holds.take("client a", null, book.make("a"));
    const other = await holds.take("client b", null, book.make("b"));
    holds.keep(first);
    // The next user gets the same value: nothing made, nothing removed.
    const again = await holds.take("client a", null, book.make("a2"));
    expect(again).toBe(first);
    holds.keep(again);
    expect(book.made).toEqual(["a", "b"]);
    expect(book.removed).toEqual([]);
    // b is in use: removeIdle leaves it, whatever it picks.
    await holds.removeIdle(() => true, book.remove);
    expect(book.removed).toEqual(["a"]);
    holds.keep(other);
    await holds.removeIdle((key) => key === "client a", book.remove);
    expect(book.removed).toEqual(["a"]);
    await holds.removeIdle((key) => key.startsWith("client"), book.remove);
    expect(book.removed).toEqual(["a", "b"]);
    // Removed values are made anew.
    expect(await (await holds.take("client a", null, book.make("a3"))).value).toBe("a3");
  });

  it("makes a key again only once its removal is over", async () => {
    const holds = new SharedHolds();
    const order: string[] = [];
    let finish = (): void => {};
    const first = await holds.take("net", null, async () => "old");
    const giving = holds.give(first, () => {
      order.push("removing old");
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const next = holds.take("net", null, async () => {
      order.push("making new");
      return "new";
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(["removing old"]);
    finish();
    order.push("removed old");
    await giving;
    expect(await (await next).value).toBe("new");
    expect(order).toEqual(["removing old", "removed old", "making new"]);
  });

  it("closes a value to new users after its window: they get a new one, the old goes when its users leave", async () => {
    let now = 0;
    const holds = new SharedHolds(() => now);
    const book = ledger();
    const early = await holds.take("net", 60_000, book.make("first"));
    now = 30_000;
    expect(await (await holds.take("net", 60_000, book.make("unused"))).value).toBe("first");
    now = 61_000;
    const late = await holds.take("net", 60_000, book.make("second"));
    expect(await late.value).toBe("second");
    expect(late.generation).toBeGreaterThan(early.generation);
    await holds.give(early, book.remove);
    await holds.give(early, book.remove);
    expect(book.removed).toEqual(["first"]);
    await holds.give(late, book.remove);
    expect(book.removed).toEqual(["first", "second"]);
  });

  it("counts a stay as one more user, and tells a stayer once the value is closed to new users", async () => {
    let now = 0;
    const holds = new SharedHolds(() => now);
    const book = ledger();
    const scenario = await holds.take("net", 60_000, book.make("first"));
    const stay = holds.again(scenario);
    await holds.give(scenario, book.remove);
    // The scenario left; the stay keeps the value.
    expect(book.removed).toEqual([]);
    expect(holds.isOpen(stay, 60_000)).toBe(true);
    now = 61_000;
    // Past its window it is closed, before anyone takes the key again, and after.
    expect(holds.isOpen(stay, 60_000)).toBe(false);
    const next = await holds.take("net", 60_000, book.make("second"));
    expect(holds.isOpen(stay, 60_000)).toBe(false);
    expect(holds.isOpen(next, 60_000)).toBe(true);
    await holds.give(stay, book.remove);
    expect(book.removed).toEqual(["first"]);
  });

  it("tells a stayer when a new value follows its own, which waits for it: not before, and at once if asked late", async () => {
    let now = 0;
    const holds = new SharedHolds(() => now);
    const book = ledger();
    const first = await holds.take("net", 60_000, book.make("first"));
    const stay = holds.again(first);
    const told: string[] = [];
    holds.whenFollowed(stay, () => told.push("stayer"));
    await holds.give(first, book.remove);
    // Within its window another user joins it; past it, closed, but no one has asked for a new one yet.
    now = 30_000;
    await holds.give(await holds.take("net", 60_000, book.make("unused")), book.remove);
    now = 61_000;
    expect(told).toEqual([]);
    // A new value is asked for: it waits for the old one, so the stayer is told before it is made.
    const making = holds.take("net", 60_000, async () => {
      told.push("making second");
      return "second";
    });
    expect(told).toEqual(["stayer", "making second"]);
    const second = await making;
    // Asked after the fact: told at once.
    holds.whenFollowed(stay, () => told.push("late"));
    expect(told.at(-1)).toBe("late");
    await holds.give(stay, book.remove);
    expect(book.removed).toEqual(["first"]);
    // A value removed by its last user is followed by nothing the stayers wait for: no one is told.
    const stayOnSecond = holds.again(second);
    holds.whenFollowed(stayOnSecond, () => told.push("second's stayer"));
    await holds.give(second, book.remove);
    await holds.give(stayOnSecond, book.remove);
    now = 200_000;
    await holds.take("net", 60_000, book.make("third"));
    expect(told).not.toContain("second's stayer");
  });

  it("keeps a value past its window open while no one may be waiting for its key, and closes it once someone may", async () => {
    let now = 0;
    let othersWaiting = false;
    const holds = new SharedHolds(() => now, () => othersWaiting);
    const book = ledger();
    const first = await holds.take("net", 60_000, book.make("first"));
    now = 120_000;
    expect(holds.isOpen(first, 60_000)).toBe(true);
    expect(await holds.take("net", 60_000, book.make("unused"))).toBe(first);
    othersWaiting = true;
    expect(holds.isOpen(first, 60_000)).toBe(false);
    expect(await (await holds.take("net", 60_000, book.make("second"))).value).toBe("second");
  });

  it("keeps nothing it could not make: the next user tries again", async () => {
    const holds = new SharedHolds();
    const failing = holds.take("net", null, async () => {
      throw new Error("engine said no");
    });
    await expect(failing).rejects.toThrow("engine said no");
    expect(await (await holds.take("net", null, async () => "made")).value).toBe("made");
  });

  it("closes a value past its window on its own, so that a stay on it lets go while its run waits for another key", async () => {
    // Two runs on one engine, each with its own holds (another run is alive: mayClose). Run B's lane stays on its
    // network of subnet Q after its scenario left; B's next scenario waits for subnet P, which a scenario of run A
    // holds while it waits for Q. A fresh-clone CI run stalled so for 300 s (issue 33): B's Q was closed only when a
    // scenario of B asked for Q again, and all of them waited for P first.
    const time = clock();
    const engine = subnets();
    const runA = new SharedHolds(time.now, () => true, time.schedule);
    const runB = new SharedHolds(time.now, () => true, time.schedule);

    const bOnQ = await runB.take("Q", 60_000, engine.claim("Q", "B"));
    const stay = runB.again(bOnQ);
    const stayLeft = new Promise<void>((resolve) => runB.whenFollowed(stay, () => void runB.give(stay, engine.release("Q")).then(resolve)));
    await runB.give(bOnQ, engine.release("Q"));
    expect(engine.holders.get("Q")).toBe("B");

    const aOnP = await runA.take("P", 60_000, engine.claim("P", "A"));
    const bWantsP = runB.take("P", 60_000, engine.claim("P", "B"));
    const aWantsQ = runA.take("Q", 60_000, engine.claim("Q", "A"));
    time.advance(30_000);
    expect(await settled(aWantsQ)).toBe(false);
    expect(await settled(bWantsP)).toBe(false);

    // B's Q passes its window: closed with no one of B asking for it, the stay lets go, and A gets Q.
    time.advance(31_000);
    expect(await settled(aWantsQ)).toBe(true);
    await stayLeft;
    expect(engine.holders.get("Q")).toBe("A");
    // A's scenario ends: P goes, and B's scenario gets it.
    await runA.give(aOnP, engine.release("P"));
    await runA.give(await aWantsQ, engine.release("Q"));
    expect(await settled(bWantsP)).toBe(true);
    expect(engine.holders.get("P")).toBe("B");
  });

  it("keeps looking at a value past its window until someone else may want its key, and stops once it is gone", async () => {
    const time = clock();
    let othersAlive = false;
    const holds = new SharedHolds(time.now, () => othersAlive, time.schedule);
    const book = ledger();
    const first = await holds.take("net", 60_000, book.make("first"));
    const told: string[] = [];
    holds.whenFollowed(first, () => told.push("followed"));
    time.advance(120_000);
    expect(told).toEqual([]);
    othersAlive = true;
    time.advance(5_000);
    expect(told).toEqual(["followed"]);
    expect(holds.isOpen(first, 60_000)).toBe(false);
    // Removed by its last user: nothing is looked at any more.
    await holds.give(first, book.remove);
    const second = await holds.take("net", 60_000, book.make("second"));
    await holds.give(second, book.remove);
    time.advance(600_000);
    expect(book.removed).toEqual(["first", "second"]);
  });

  it("looks at no window once stopped (the run is over; its clean-up removes what is left)", async () => {
    const time = clock();
    const holds = new SharedHolds(time.now, () => true, time.schedule);
    const book = ledger();
    const held = await holds.take("net", 60_000, book.make("first"));
    const told: string[] = [];
    holds.whenFollowed(held, () => told.push("followed"));
    holds.stop();
    time.advance(120_000);
    expect(told).toEqual([]);
  });
});
