// Servers on a lane's seats (server/server-seat.ts) for scenarios shaped like a fleet's probes: a client at a
// fixed address on a shared network, requests from localhost and ::1, and from the host. The seats stay on the
// shared network from one scenario to the next (observe/scenario-lane.ts) and are the local client themselves, so
// no server gets a network stack of its own and no local client container is made; the fixed-address client stays
// on the shared network between scenarios too; what the server sees is what
// it saw with a stack of its own (the client's own address, 127.0.0.1, ::1), and its published port answers the
// host. A scenario with no request from the host takes a seat that publishes nothing until the lane holds one that
// does. A shared network closed to new scenarios (its window passed) drains although seats stay on it. The servers
// here get a container each (no server hosts, observe/server-reuse.test.ts), labelled with their scenario.
import { describe, expect, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { LABEL_PUBLISHES, LABEL_ROLE, LABEL_RUN_ID, LABEL_SCENARIO } from "../../../harness/engine/labels.ts";
import type { SideObservation } from "../../../harness/observe/observation.ts";
import { type EngineEvent, recordEngineEvents } from "../../helpers/engine-events.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

function scenario(id: string, fromHost = true): string {
  const text = `
id: ${id}
title: a fixed-address client, localhost and ::1 and the host, on seats
server:
  modules: [authz_host, rewrite, headers]
  config: |
    RewriteEngine On
    RewriteRule ^ - [E=SEEN_FROM:%{REMOTE_ADDR}]
    Header always set X-Remote "%{SEEN_FROM}e"
    <Directory "{{server.docroot}}">
        Require ip 10.79.6.5 127.0.0.1 ::1
    </Directory>
  files: { htdocs/index.html: "hello\\n" }
clients: [{ name: office, address: 10.79.6.5 }]
requests:
  - { name: from-office, client: office, path: / }
  - { name: from-localhost, client: localhost, path: / }
  - { name: from-localhost6, client: localhost6, path: / }
  - { name: from-host, path: / }
`;
  return fromHost ? text : text.replace(/^ {2}- \{ name: from-host.*\n/m, "");
}

function seen(side: SideObservation, name: string): { status: number; remote: string | undefined } {
  const outcome = side.requests.find((request) => request.name === name)?.outcome;
  if (outcome?.kind !== "response") throw new Error(`${side.side.id} ${name}: ${JSON.stringify(outcome).slice(0, 300)}`);
  return { status: outcome.status, remote: outcome.headers.find(([header]) => header.toLowerCase() === "x-remote")?.[1] };
}

/** Records the engine's container and network events until `stop` (test/helpers/engine-events.ts). */
function recordEvents(): Promise<{ stop: () => Promise<EngineEvent[]> }> {
  return recordEngineEvents({ type: ["container", "network"] });
}

function expectAnswered(side: SideObservation, fromHost = true): void {
  expect(side.started, `${side.side.id} started`).toBe(true);
  expect(seen(side, "from-office")).toEqual({ status: 200, remote: "10.79.6.5" });
  expect(seen(side, "from-localhost")).toEqual({ status: 200, remote: "127.0.0.1" });
  expect(seen(side, "from-localhost6")).toEqual({ status: 200, remote: "::1" });
  if (fromHost) expect(seen(side, "from-host").status).toBe(403);
  else expect(side.requests.map((request) => request.name)).not.toContain("from-host");
}

/** How many ports a container published on the host, from its create event: the ports its create asked the engine
 * to publish (engine/container.ts, LABEL_PUBLISHES). A seat is gone by its run's end, and a look at it while it
 * lives would be a race with the lane that lets it go. */
function publishedBy(event: EngineEvent): number {
  const ports = event.Actor.Attributes[LABEL_PUBLISHES];
  return ports === undefined || ports === "" ? 0 : ports.split(",").length;
}

async function expectNothingLeft(prefix: string): Promise<void> {
  const engine = await connectEngine();
  const containers = await engine.docker.listContainers({ all: true, filters: { label: [LABEL_SCENARIO] } });
  expect(containers.filter((c) => (c.Labels[LABEL_SCENARIO] ?? "").startsWith(prefix)).map((c) => c.Names[0])).toEqual([]);
  const networks = await engine.docker.listNetworks();
  expect(networks.filter((n) => (n.IPAM?.Config ?? []).some((c) => c.Subnet === "10.79.6.0/24")).map((n) => n.Name)).toEqual([]);
}

describe("servers on seats", { timeout: 300_000 }, () => {
  it("serve fleet-shaped scenarios from seats that stay on their client network and send their local requests", async () => {
    const recording = await recordEvents();
    // One lane: its seats serve the three scenarios in turn.
    const { runs } = await runYamlScenarios(["seats-a", "seats-b", "seats-c"].map((id) => scenario(id)), { concurrency: 1, reuseServers: false });
    const happened = await recording.stop();
    for (const run of runs) {
      expect(run.error ?? null).toBeNull();
      for (const side of run.observations) expectAnswered(side);
    }
    // This run's containers only: other tests may run on the engine at the same time.
    const servers = happened.filter((event) => event.Type === "container" && event.Action === "create" && (event.Actor.Attributes[LABEL_SCENARIO] ?? "").startsWith("seats-"));
    const runIds = new Set(servers.map((event) => event.Actor.Attributes[LABEL_RUN_ID]));
    expect(runIds.size).toBe(1);
    const created = happened.filter((event) => event.Type === "container" && event.Action === "create" && runIds.has(event.Actor.Attributes[LABEL_RUN_ID]));
    const roles = created.map((event) => event.Actor.Attributes[LABEL_ROLE]);
    // Six servers on two seats (one per side, with IPv6), and no local client containers.
    expect(roles.filter((role) => role === "server")).toHaveLength(6);
    expect(roles.filter((role) => role === "seat")).toHaveLength(2);
    // The office client was made once: between scenarios it stays on its network with the seats.
    expect(roles.filter((role) => role === "client")).toHaveLength(1);
    expect(created.filter((event) => (event.Actor.Attributes.name ?? "").endsWith("-local"))).toEqual([]);
    // The seats joined the client network once each, not once per scenario.
    const seats = new Set(created.filter((event) => event.Actor.Attributes[LABEL_ROLE] === "seat").map((event) => event.Actor.ID));
    const seatJoins = happened.filter((event) => event.Type === "network" && event.Action === "connect" && seats.has(event.Actor.Attributes.container ?? ""));
    const byNetwork = new Map<string, number>();
    for (const join of seatJoins) byNetwork.set(join.Actor.Attributes.name ?? "", (byNetwork.get(join.Actor.Attributes.name ?? "") ?? 0) + 1);
    // The lane's network and the shared client network, two seats on each.
    expect([...byNetwork.values()]).toEqual([2, 2]);
    await expectNothingLeft("seats-");
  });

  it("give a scenario with no request from the host a seat that publishes nothing, until the lane holds one that does", async () => {
    const recording = await recordEvents();
    const ids = ["seats-ports-a", "seats-ports-b", "seats-ports-c"];
    const result = await runYamlScenarios([scenario(ids[0]!, false), scenario(ids[1]!), scenario(ids[2]!, false)], { concurrency: 1, reuseServers: false });
    const happened = await recording.stop();
    result.runs.forEach((run, index) => {
      expect(run.error ?? null).toBeNull();
      for (const side of run.observations) expectAnswered(side, index === 1);
    });
    const runIds = new Set(
      happened
        .filter((event) => event.Type === "container" && event.Action === "create" && (event.Actor.Attributes[LABEL_SCENARIO] ?? "").startsWith("seats-ports-"))
        .map((event) => event.Actor.Attributes[LABEL_RUN_ID]),
    );
    expect(runIds.size).toBe(1);
    const made = happened.filter((event) => event.Type === "container" && event.Action === "create" && runIds.has(event.Actor.Attributes[LABEL_RUN_ID]) && event.Actor.Attributes[LABEL_ROLE] === "seat");
    // Two seats without ports for the first scenario, two publishing 80 and 443 for the second, which the third
    // takes too.
    expect(made).toHaveLength(4);
    expect(made.map(publishedBy)).toEqual([0, 0, 2, 2]);
    await expectNothingLeft("seats-ports-");
  });

  it("let the seats a lane's last scenario does not take go while that scenario runs, not after it", async () => {
    const recording = await recordEvents();
    const ids = ["seats-last-a", "seats-last-b", "seats-last-c"];
    // The first scenario takes seats that publish nothing, the others published ones: the last needs only those.
    const result = await runYamlScenarios([scenario(ids[0]!, false), scenario(ids[1]!), scenario(ids[2]!)], { concurrency: 1, reuseServers: false });
    const happened = await recording.stop();
    result.runs.forEach((run, index) => {
      expect(run.error ?? null).toBeNull();
      for (const side of run.observations) expectAnswered(side, index > 0);
    });
    const runIds = new Set(
      happened
        .filter((event) => event.Type === "container" && event.Action === "create" && (event.Actor.Attributes[LABEL_SCENARIO] ?? "").startsWith("seats-last-"))
        .map((event) => event.Actor.Attributes[LABEL_RUN_ID]),
    );
    expect(runIds.size).toBe(1);
    const ofRun = (event: EngineEvent): boolean => runIds.has(event.Actor.Attributes[LABEL_RUN_ID]);
    const made = happened.filter((event) => event.Type === "container" && event.Action === "create" && ofRun(event) && event.Actor.Attributes[LABEL_ROLE] === "seat");
    const unpublished = made.filter((event) => publishedBy(event) === 0).map((event) => event.Actor.ID);
    expect(unpublished).toHaveLength(2);
    // The last scenario's servers: the unpublished seats were gone before they were.
    const lastServers = new Set(
      happened
        .filter((event) => event.Type === "container" && event.Action === "create" && event.Actor.Attributes[LABEL_SCENARIO] === ids[2] && event.Actor.Attributes[LABEL_ROLE] === "server")
        .map((event) => event.Actor.ID),
    );
    expect(lastServers.size).toBe(2);
    const destroyed = (id: string): number => happened.find((event) => event.Type === "container" && event.Action === "destroy" && event.Actor.ID === id)?.timeNano ?? Infinity;
    const lastServerGone = Math.min(...[...lastServers].map(destroyed));
    for (const seat of unpublished) expect(destroyed(seat)).toBeLessThan(lastServerGone);
    // The published seats served the last scenario and went after it.
    for (const event of made.filter((event) => !unpublished.includes(event.Actor.ID))) expect(destroyed(event.Actor.ID)).toBeGreaterThan(lastServerGone);
    await expectNothingLeft("seats-last-");
  });

  it("take scenarios group by group of their seats, and let a kind's seats go once no queued scenario takes it", async () => {
    const recording = await recordEvents();
    // Without local clients a side takes a seat without IPv6; with them one with IPv6. Given alternating, one lane
    // runs the IPv6 ones first, then the others, and the reports keep the order given.
    const noLocal = (id: string): string => scenario(id, false).replace(/^ {2}- \{ name: from-localhost6?,.*\n/gm, "");
    const ids = ["seats-group-a", "seats-group-b", "seats-group-c", "seats-group-d"];
    const result = await runYamlScenarios([scenario(ids[0]!, false), noLocal(ids[1]!), scenario(ids[2]!, false), noLocal(ids[3]!)], { concurrency: 1, reuseServers: false });
    const happened = await recording.stop();
    expect(result.runs.map((run) => run.scenario.id)).toEqual(ids);
    result.runs.forEach((run, index) => {
      expect(run.error ?? null).toBeNull();
      for (const side of run.observations) {
        expect(side.started).toBe(true);
        expect(seen(side, "from-office")).toEqual({ status: 200, remote: "10.79.6.5" });
        expect(side.requests.map((request) => request.name)).toEqual(index % 2 === 0 ? ["from-office", "from-localhost", "from-localhost6"] : ["from-office"]);
      }
    });
    const runIds = new Set(
      happened
        .filter((event) => event.Type === "container" && event.Action === "create" && (event.Actor.Attributes[LABEL_SCENARIO] ?? "").startsWith("seats-group-"))
        .map((event) => event.Actor.Attributes[LABEL_RUN_ID]),
    );
    expect(runIds.size).toBe(1);
    const ofRun = (event: EngineEvent): boolean => runIds.has(event.Actor.Attributes[LABEL_RUN_ID]);
    const servers = happened.filter((event) => event.Type === "container" && event.Action === "create" && ofRun(event) && event.Actor.Attributes[LABEL_ROLE] === "server");
    // Two servers a scenario, in the order the lane ran them: a and c (IPv6), then b and d.
    expect(servers.map((event) => event.Actor.Attributes[LABEL_SCENARIO])).toEqual([ids[0], ids[0], ids[2], ids[2], ids[1], ids[1], ids[3], ids[3]]);
    const made = happened.filter((event) => event.Type === "container" && event.Action === "create" && ofRun(event) && event.Actor.Attributes[LABEL_ROLE] === "seat");
    // Two seats of each kind, each made once, none publishing.
    expect(made).toHaveLength(4);
    expect(made.map(publishedBy)).toEqual([0, 0, 0, 0]);
    const destroyed = (id: string): number => happened.find((event) => event.Type === "container" && event.Action === "destroy" && event.Actor.ID === id)?.timeNano ?? Infinity;
    // The IPv6 seats (the first two made) went while the lane ran on: before the last scenario's servers did.
    const lastServerGone = Math.min(...servers.filter((event) => event.Actor.Attributes[LABEL_SCENARIO] === ids[3]).map((event) => destroyed(event.Actor.ID)));
    for (const seat of made.slice(0, 2)) expect(destroyed(seat.Actor.ID)).toBeLessThan(lastServerGone);
    for (const seat of made.slice(2)) expect(destroyed(seat.Actor.ID)).toBeGreaterThan(lastServerGone);
    await expectNothingLeft("seats-group-");
  });

  it("let a shared network closed to new scenarios drain while seats stay on it: the next one gets its subnet", async () => {
    const recording = await recordEvents();
    // A window shorter than a scenario: every scenario finds the network closed and waits for it to go.
    const { runs } = await runYamlScenarios(["seats-window-a", "seats-window-b", "seats-window-c", "seats-window-d"].map((id) => scenario(id)), {
      concurrency: 2,
      reuseServers: false,
      sharedNetworkWindowMs: 500,
      // Whether another test file's run is alive on the engine now is not for this test to know.
      sharedNetworkTurnsAlone: true,
    });
    const happened = await recording.stop();
    for (const run of runs) {
      expect(run.error ?? null).toBeNull();
      for (const side of run.observations) expectAnswered(side);
    }
    const runIds = new Set(
      happened
        .filter((event) => event.Type === "container" && event.Action === "create" && (event.Actor.Attributes[LABEL_SCENARIO] ?? "").startsWith("seats-window-"))
        .map((event) => event.Actor.Attributes[LABEL_RUN_ID]),
    );
    expect(runIds.size).toBe(1);
    const [runId] = [...runIds];
    // The shared network was made more than once: each went when its window had passed and its users had left.
    const shared = new RegExp(`^harness-${runId}-s[0-9a-f]{8}$`);
    const made = happened.filter((event) => event.Type === "network" && event.Action === "create" && shared.test(event.Actor.Attributes.name ?? ""));
    expect(made.length).toBeGreaterThan(1);
    await expectNothingLeft("seats-window-");
  });
});
