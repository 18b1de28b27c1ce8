import { describe, expect, it } from "vitest";
import { type EngineTurn, mayTake } from "../../../harness/observe/engine-share.ts";

interface SimEngine extends EngineTurn {
  /** When it can start taking scenarios (its image copy ends), in ticks; Infinity: never (the copy hangs). */
  readyAt: number;
  /** Ticks a scenario takes there. */
  per: number;
  /** It is lost at this tick, before taking anything (its copy failed). */
  lostAt?: number;
  busyUntil: number;
}

/** A run over engines of one slot each, tick by tick: which engine ran each scenario. */
function simulate(scenarios: number, engines: Array<Pick<SimEngine, "readyAt" | "per" | "lostAt">>): { ranOn: number[]; ticks: number } {
  const sim: SimEngine[] = engines.map((e) => ({ ...e, taken: 0, lost: false, busyUntil: 0 }));
  let queued = scenarios;
  const ranOn: number[] = [];
  let tick = 0;
  for (; queued > 0 || sim.some((e) => e.busyUntil > tick); tick++) {
    if (tick > 10_000) throw new Error("the run never ended");
    for (const [at, engine] of sim.entries()) {
      if (engine.lostAt !== undefined && tick >= engine.lostAt) engine.lost = true;
      if (engine.lost || tick < engine.readyAt || engine.busyUntil > tick) continue;
      if (!mayTake(engine, sim.filter((e) => e !== engine), queued)) continue;
      queued--;
      engine.taken++;
      engine.busyUntil = tick + engine.per;
      ranOn.push(at);
    }
  }
  return { ranOn, ticks: tick };
}

describe("mayTake: every engine of a run takes part", () => {
  it("leaves one scenario for an engine that has taken none, however long its start takes", () => {
    // The first engine could run all ten before the second is ready; it leaves it the last one.
    for (const readyAt of [0, 5, 30, 500]) {
      const { ranOn } = simulate(10, [{ readyAt: 0, per: 2 }, { readyAt, per: 2 }]);
      expect(ranOn.filter((e) => e === 1).length, `second engine ready at ${readyAt}`).toBeGreaterThan(0);
      expect(ranOn).toHaveLength(10);
    }
  });

  it("keeps back no more than one scenario per waiting engine: a fast engine still does most", () => {
    const { ranOn } = simulate(20, [{ readyAt: 0, per: 1 }, { readyAt: 100, per: 1 }, { readyAt: 100, per: 1 }]);
    expect(ranOn.filter((e) => e === 0)).toHaveLength(18);
    expect(ranOn.filter((e) => e !== 0)).toHaveLength(2);
  });

  it("gives an engine that is lost before it took anything no share: its scenario goes to the others", () => {
    const { ranOn } = simulate(6, [{ readyAt: 0, per: 1 }, { readyAt: 1_000, per: 1, lostAt: 20 }]);
    expect(ranOn).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("runs every scenario when there are fewer than engines (an engine with nothing taken may always take)", () => {
    expect(simulate(1, [{ readyAt: 0, per: 3 }, { readyAt: 0, per: 3 }]).ranOn).toEqual([0]);
    expect(simulate(2, [{ readyAt: 4, per: 3 }, { readyAt: 0, per: 3 }, { readyAt: 9, per: 3 }]).ranOn.sort()).toEqual([0, 1]);
  });

  it("is the plain shared queue once every engine has taken one", () => {
    expect(mayTake({ taken: 3, lost: false }, [{ taken: 1, lost: false }], 1)).toBe(true);
    expect(mayTake({ taken: 3, lost: false }, [{ taken: 0, lost: false }], 1)).toBe(false);
    expect(mayTake({ taken: 3, lost: false }, [{ taken: 0, lost: false }], 2)).toBe(true);
    expect(mayTake({ taken: 0, lost: false }, [{ taken: 0, lost: false }], 1)).toBe(true);
    expect(mayTake({ taken: 0, lost: true }, [], 5)).toBe(false);
    expect(mayTake({ taken: 2, lost: false }, [], 0)).toBe(false);
  });
});
