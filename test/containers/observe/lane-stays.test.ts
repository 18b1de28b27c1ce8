// A lane's seats stay on the run's shared client networks between scenarios (observe/scenario-lane.ts). A network
// closed to new scenarios is followed by a new one for the same subnet, which the engine gives only once the old
// one is gone: a stay must not hold it up. A CI run had a lane with nothing to run (the run was spread over two
// engines, so it waited for work instead of retiring) keep its stay on the old network while another lane's
// scenario waited for the new one: that scenario ran into its time limit, and a fleet run beside it, waiting for
// the same subnet, did too. Driven here at the level of the lane and the shared networks, against the real engine.
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { planClientNetworks } from "../../../harness/clients/client-networks.ts";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { LABEL_CLAIM_KEY, LABEL_ROLE, LABEL_RUN_ID } from "../../../harness/engine/labels.ts";
import { clientNetworkPrefix } from "../../../harness/engine/network.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import { ScenarioLane } from "../../../harness/observe/scenario-lane.ts";
import { SharedClientNetworks } from "../../../harness/observe/shared-client-networks.ts";

// A subnet no scenario, config or other test asks for, so that no other run on the engine holds it.
const ADDRESS = "10.203.47.9";
const WANTED = new Set(["outsider"]);

/** The containers on a network by id, or null once the engine no longer has it. */
async function onNetwork(scope: RunScope, id: string): Promise<string[] | null> {
  const info = (await scope.engine.docker
    .getNetwork(id)
    .inspect()
    .catch(() => null)) as { Containers?: Record<string, unknown> } | null;
  return info === null ? null : Object.keys(info.Containers ?? {});
}

/** Settles within `ms`, or says it did not. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T | "still waiting"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"still waiting">((resolve) => (timer = setTimeout(() => resolve("still waiting"), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("a lane's stays on a shared client network", { timeout: 120_000 }, () => {
  let scope: RunScope;
  let shared: SharedClientNetworks;
  let lane: ScenarioLane;
  const placed = () => planClientNetworks([{ name: "outsider", address: ADDRESS, domain: null }], clientNetworkPrefix(scope.runId, "lane-stays"))[0]!;

  beforeEach(async () => {
    scope = new RunScope(await connectEngine());
    // A window of 0: every network is closed to new scenarios as soon as it is made, whether or not another run
    // is on the engine.
    shared = new SharedClientNetworks(scope, inject("images").tools, { windowMs: 0, turnsAlone: true });
    lane = new ScenarioLane(scope, "lane-stays", inject("images").tools);
  });

  afterEach(async () => {
    await lane?.retire();
    await scope?.[Symbol.asyncDispose]();
  });

  /** One scenario on the lane: its seat joins the shared network and stays on it when the scenario has ended. */
  async function scenarioOnLane(): Promise<{ network: string; seat: string }> {
    const seat = await lane.seat("baseline", false, false);
    const use = await shared.join(placed(), WANTED);
    lane.using(use.network.id);
    await lane.stayOn([seat], [use]);
    await use.leave();
    lane.scenarioEnded();
    return { network: use.network.id, seat: seat.containerId };
  }

  it("leave a network for good once another scenario asks for a new one in its place, while the lane waits for work", async () => {
    const first = await scenarioOnLane();
    // The seat stayed: the network is still there, with the seat on it.
    expect(await onNetwork(scope, first.network)).toContain(first.seat);

    // Another lane's scenario asks for the subnet: the new network waits for the old one, which only the idle
    // lane's stay holds. Without letting go at once, this waited for the claim's ten minutes.
    const next = await within(60_000, shared.join(placed(), WANTED));
    expect(next).not.toBe("still waiting");
    const use = next as Exclude<typeof next, "still waiting">;
    expect(use.network.id).not.toBe(first.network);
    expect(await onNetwork(scope, first.network)).toBeNull();
    expect(use.clients.map((client) => client.name)).toEqual(["outsider"]);
    await use.leave();
  });

  it("keep a network the lane's own scenario is on until that scenario has ended, then leave it", async () => {
    const seat = await lane.seat("baseline", false, false);
    const use = await shared.join(placed(), WANTED);
    lane.using(use.network.id);
    await lane.stayOn([seat], [use]);

    // Another scenario asks for the subnet while this one is on it: the seat stays, as the scenario's servers sit in
    // its network namespace. The new network's claim is in line for the subnet (a state on the engine, looked for
    // however long it takes), and it has not got it.
    let settled = false;
    const next = shared.join(placed(), WANTED);
    void next.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.waitFor(
      async () => {
        const places = await scope.engine.docker.listVolumes({ filters: { label: [`${LABEL_ROLE}=claim`, `${LABEL_CLAIM_KEY}=${placed().subnet!.subnet}`, `${LABEL_RUN_ID}=${scope.runId}`] } });
        expect((places.Volumes ?? []).length).toBeGreaterThan(0);
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(settled).toBe(false);
    expect(await onNetwork(scope, use.network.id)).toContain(seat.containerId);
    expect(settled).toBe(false);

    // The scenario ends as observePlan ends one: its hold given back, then the lane leaves what has closed.
    await use.leave();
    lane.scenarioEnded();
    await lane.leaveClosedStays();
    const after = await within(60_000, next);
    expect(after).not.toBe("still waiting");
    const followed = after as Exclude<typeof after, "still waiting">;
    expect(followed.network.id).not.toBe(use.network.id);
    expect(await onNetwork(scope, use.network.id)).toBeNull();
    await followed.leave();
  });
});
