import { describe, expect, it } from "vitest";
import { changeEndpoints, engineStuck, limitEngineCall } from "../../../harness/engine/endpoint-changes.ts";
import type { Engine } from "../../../harness/engine/engine.ts";
import { isHarnessError } from "../../../harness/errors.ts";

/** An engine object the gate keys on; nothing in it is called. */
function fakeEngine(): Engine {
  return { docker: {} as Engine["docker"], host: "127.0.0.1", publishIp: "127.0.0.1", target: { url: "unix:///var/run/docker.sock", named: false, source: "default", tls: null } } as unknown as Engine;
}

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A call that takes 20 ms, and how many of it ran at once at most. */
function overlapProbe(): { call: () => Promise<void>; most: () => number } {
  let running = 0;
  let most = 0;
  return {
    call: async () => {
      most = Math.max(most, ++running);
      await later(20);
      running--;
    },
    most: () => most,
  };
}

describe("changeEndpoints", () => {
  it("runs one engine's changes one at a time, in the order asked, whatever the first ones' outcome", async () => {
    const engine = fakeEngine();
    const log: string[] = [];
    let running = 0;
    const change = (name: string, ms: number, fail = false) => async (): Promise<string> => {
      running++;
      log.push(`start ${name} (${running} running)`);
      await later(ms);
      running--;
      log.push(`end ${name}`);
      if (fail) throw new Error(`${name} failed`);
      return name;
    };
    const results = await Promise.allSettled([
      changeEndpoints(engine, "a", change("a", 30)),
      changeEndpoints(engine, "b", change("b", 5, true)),
      changeEndpoints(engine, "c", change("c", 1)),
    ]);
    expect(log).toEqual(["start a (1 running)", "end a", "start b (1 running)", "end b", "start c (1 running)", "end c"]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(engineStuck(engine)).toBeNull();
  });

  it("lets two engines' changes run side by side", async () => {
    const [one, two] = [fakeEngine(), fakeEngine()];
    const probe = overlapProbe();
    await Promise.all([changeEndpoints(one, "x", probe.call), changeEndpoints(two, "y", probe.call)]);
    expect(probe.most()).toBe(2);
  });

  it("marks the engine stuck when a change outlasts its limit, and fails every later change at once without running it", async () => {
    const engine = fakeEngine();
    const hung = changeEndpoints(engine, "removing the container abc", () => new Promise<void>(() => {}), 50);
    let ran = false;
    const next = changeEndpoints(engine, "removing the network def", async () => {
      ran = true;
    }, 50);
    const [first, second] = await Promise.allSettled([hung, next]);
    expect(first.status).toBe("rejected");
    const error = (first as PromiseRejectedResult).reason;
    expect(isHarnessError(error) && error.code).toBe("HARNESS_ENGINE_UNAVAILABLE");
    expect(String(error.message)).toContain("did not finish removing the container abc within 50 ms");
    expect(engineStuck(engine)).toBe("removing the container abc");
    expect(second.status).toBe("rejected");
    expect(ran).toBe(false);
    await expect(changeEndpoints(engine, "later", async () => "x")).rejects.toThrow(/stopped answering/);
  });

  it("runs limited calls (endpoints coming) beside queued changes, and fails them at once on a stuck engine", async () => {
    const engine = fakeEngine();
    const probe = overlapProbe();
    await Promise.all([changeEndpoints(engine, "a removal", probe.call), limitEngineCall(engine, "a connect", probe.call), limitEngineCall(engine, "another connect", probe.call)]);
    expect(probe.most()).toBe(3);
    await expect(limitEngineCall(engine, "a hung connect", () => new Promise<void>(() => {}), 30)).rejects.toThrow(/did not finish a hung connect within 30 ms/);
    let ran = false;
    await expect(
      limitEngineCall(engine, "a create", async () => {
        ran = true;
      }),
    ).rejects.toThrow(/stopped answering/);
    expect(ran).toBe(false);
  });
});
