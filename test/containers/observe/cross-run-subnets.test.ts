// Two harness runs on one engine that probe from the same fixed client subnets (engine/claim.ts makes a run wait
// for another live run's network of a subnet). A fresh-clone CI run had two of them stall together for 300 s, each
// in "setting up the network, clients and backends" (issue 33): run B's lane stayed on its network of subnet Q
// between scenarios (observe/scenario-lane.ts) while B's next scenario waited for subnet P, which a scenario of run
// A held while it waited for Q. Driven here at the level of the runs' shared networks and a lane, against the real
// engine, in the order that deadlocked; nothing is timed: the test ends when both runs got their subnets.
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { planClientNetworks } from "../../../harness/clients/client-networks.ts";
import { connectEngine } from "../../../harness/engine/engine.ts";
import type { ClaimWait } from "../../../harness/engine/claim.ts";
import { LABEL_CLAIM_KEY, LABEL_ROLE, LABEL_RUN_ID } from "../../../harness/engine/labels.ts";
import { clientNetworkPrefix, createClientNetwork } from "../../../harness/engine/network.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import { ScenarioLane } from "../../../harness/observe/scenario-lane.ts";
import { SharedClientNetworks } from "../../../harness/observe/shared-client-networks.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";
import { type ClientSubnet, clientSubnet } from "../../../harness/scenario/client-address.ts";

// Subnets no scenario, config or other test asks for, so that no third run holds them. P sorts before Q, as a
// scenario joins its shared networks (observe-scenario.ts).
const P = "10.203.48.9";
const Q = "10.203.49.9";
const R = "10.203.50.9";
const S = "10.203.51.9";

/** The containers on a network by id, or null once the engine no longer has it. */
async function onNetwork(scope: RunScope, id: string): Promise<string[] | null> {
  const info = (await scope.engine.docker
    .getNetwork(id)
    .inspect()
    .catch(() => null)) as { Containers?: Record<string, unknown> } | null;
  return info === null ? null : Object.keys(info.Containers ?? {});
}

describe("two runs that wait for each other's client subnets", { timeout: 300_000 }, () => {
  const scopes: RunScope[] = [];
  const lanes: ScenarioLane[] = [];

  afterEach(async () => {
    await Promise.all(lanes.splice(0).map((lane) => lane.retire()));
    await Promise.all(scopes.splice(0).map((scope) => scope[Symbol.asyncDispose]()));
  });

  it("both get them: a lane's stay lets go of a network past its window while its run's scenario waits for another subnet", async () => {
    const tools = inject("images").tools;
    const runA = new RunScope(await connectEngine());
    const runB = new RunScope(await connectEngine());
    scopes.push(runA, runB);
    const notesA: string[] = [];
    // Each run sees the other's lease, so its networks close to new scenarios once their window has passed. The
    // window is long enough for the steps below to happen inside it (it is what lets B's stay on Q stand while A
    // asks for Q), and short enough that the test does not wait for the default minute.
    const sharedA = new SharedClientNetworks(runA, tools, { windowMs: 20_000, note: (message) => notesA.push(message) });
    const sharedB = new SharedClientNetworks(runB, tools, { windowMs: 20_000 });
    const laneB = new ScenarioLane(runB, "lane-b", tools);
    lanes.push(laneB);
    const placed = (scope: RunScope, address: string, scenario: string) =>
      planClientNetworks([{ name: "outsider", address, domain: null }], clientNetworkPrefix(scope.runId, scenario))[0]!;
    const wanted = new Set(["outsider"]);

    // Run B, a scenario probing from Q only on lane B: its seat stays on B's network of Q once it has ended.
    const seat = await laneB.seat("baseline", false, false);
    const bOnQ = await sharedB.join(placed(runB, Q, "b-1"), wanted);
    laneB.using(bOnQ.network.id);
    await laneB.stayOn([seat], [bOnQ]);
    await bOnQ.leave();
    laneB.scenarioEnded();
    expect(await onNetwork(runB, bOnQ.network.id)).toContain(seat.containerId);

    // Run A, a scenario probing from P and Q: on P, then waiting for Q, which only B's stay holds.
    const aOnP = await sharedA.join(placed(runA, P, "a-1"), wanted);
    // Run B's next scenario on lane B probes from P and Q too (it left the closed stays when it began: Q's was
    // open then): it waits for P, which A's scenario holds. No scenario of B asks for Q before it has P.
    const bWantsP = sharedB.join(placed(runB, P, "b-2"), wanted);
    bWantsP.catch(() => undefined);
    const aOnQ = await sharedA.join(placed(runA, Q, "a-1"), wanted);

    // A got Q once B's network of Q had passed its window: closed, B's stay let go, and the network went.
    expect(aOnQ.network.id).not.toBe(bOnQ.network.id);
    expect(await onNetwork(runB, bOnQ.network.id)).toBeNull();
    // A's notes say what it waited for and whose it was.
    expect(notesA.join("\n")).toContain(`waiting for subnet 10.203.49.0/24, held by network harness-${runB.runId}-s`);
    expect(notesA.join("\n")).toMatch(new RegExp(`subnet 10\\.203\\.49\\.0/24: waited \\d+ s, last for network harness-${runB.runId}-s\\w+ of run ${runB.runId}`));

    // A's scenario ends: its networks go, and B's scenario gets P.
    await aOnQ.leave();
    await aOnP.leave();
    const bOnP = await bWantsP;
    expect(bOnP.clients.map((client) => client.name)).toEqual(["outsider"]);
    expect(await onNetwork(runA, aOnP.network.id)).toBeNull();
    await bOnP.leave();
  });

  it("take a subnet in the order they began to wait: the run that gave it up waits behind the run that waited for it", async () => {
    const runA = new RunScope(await connectEngine());
    const runB = new RunScope(await connectEngine());
    scopes.push(runA, runB);
    const subnet = clientSubnet(R) as ClientSubnet;
    const placesOf = async (scope: RunScope): Promise<number> =>
      ((await scope.engine.docker.listVolumes({ filters: { label: [`${LABEL_ROLE}=claim`, `${LABEL_CLAIM_KEY}=${subnet.subnet}`, `${LABEL_RUN_ID}=${scope.runId}`] } })).Volumes ?? []).length;
    const waitsOfA: ClaimWait[] = [];
    const network = (scope: RunScope, name: string, onWait?: (wait: ClaimWait) => void) =>
      createClientNetwork(scope, { name: `harness-${scope.runId}-${name}`, scenario: "cross-run", subnet, subject: `client outsider at ${R}`, ...(onWait ? { onWait } : {}) });

    // A holds the subnet; B waits for it, in line.
    const held = await network(runA, "first");
    const order: string[] = [];
    const bWaits = network(runB, "b").then((made) => (order.push("B"), made));
    await vi.waitFor(async () => expect(await placesOf(runB)).toBe(1), { timeout: 60_000, interval: 200 });
    // A asks for it again (as a run does for the next window's network): behind B, though A began before B's turn.
    const aWaits = network(runA, "again", (wait) => waitsOfA.push(wait)).then((made) => (order.push("A"), made));
    await vi.waitFor(async () => expect(await placesOf(runA)).toBe(1), { timeout: 60_000, interval: 200 });
    expect(waitsOfA.at(-1)).toMatchObject({ holder: null, runId: runB.runId, scenario: "cross-run" });

    // A lets go: B's turn, whoever looks first.
    await runA.removeNetwork(held.id);
    const gotB = await bWaits;
    expect(order).toEqual(["B"]);
    expect(await placesOf(runB)).toBe(0);
    await runB.removeNetwork(gotB.id);
    const gotA = await aWaits;
    expect(order).toEqual(["B", "A"]);
    expect(await placesOf(runA)).toBe(0);
    await runA.removeNetwork(gotA.id);
  });

  it("does not count a scenario's wait in line for another run's subnet against its time limit", async () => {
    const other = new RunScope(await connectEngine());
    scopes.push(other);
    const subnet = clientSubnet(S) as ClientSubnet;
    // Another live run holds the subnet before the scenario asks for it.
    const held = await createClientNetwork(other, { name: `harness-${other.runId}-held`, scenario: "cross-run", subnet, subject: `client office at ${S}` });
    const scenario = `
id: cross-run-time-limit
title: a client at a fixed address whose subnet another run holds for longer than the time limit
timeLimit: 30
server:
  files: { htdocs/index.html: "hello\\n" }
clients: [{ name: office, address: ${S} }]
requests:
  - { name: from-office, client: office, path: /, expect: { both: { status: 200 } } }
`;
    const running = runYamlScenarios([scenario], { concurrency: 1 });
    // The scenario is in line for the subnet; it is let have it only well past its 30 s.
    await vi.waitFor(
      async () => {
        const places = await other.engine.docker.listVolumes({ filters: { label: [`${LABEL_ROLE}=claim`, `${LABEL_CLAIM_KEY}=${subnet.subnet}`] } });
        expect((places.Volumes ?? []).length).toBeGreaterThan(0);
      },
      { timeout: 120_000, interval: 500 },
    );
    await new Promise((resolve) => setTimeout(resolve, 40_000));
    await other.removeNetwork(held.id);
    const { runs } = await running;
    expect(runs[0]!.error).toBeNull();
    for (const side of runs[0]!.observations) expect(side.requests.find((request) => request.name === "from-office")?.outcome).toMatchObject({ kind: "response", status: 200 });
  });
});
