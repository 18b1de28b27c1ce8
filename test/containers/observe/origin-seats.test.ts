// Backends on a lane's origin seats (backends/origin-seat.ts): a scenario's backend joins a seat that is on the
// lane's network under the backend's name for that scenario only. The next scenario that names the backend without
// having one finds no such name (a DNS failure, as on a network of its own), and the one after that gets the same
// seat back under the name again: one seat for the three scenarios, and nothing left.
import { describe, expect, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { LABEL_ROLE, LABEL_RUN_ID, LABEL_SCENARIO } from "../../../harness/engine/labels.ts";
import type { SideObservation } from "../../../harness/observe/observation.ts";
import { recordEngineEvents } from "../../helpers/engine-events.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

function withBackend(id: string, kind: "http-origin" | "https-origin"): string {
  const scheme = kind === "https-origin" ? "https" : "http";
  return `
id: ${id}
title: a reverse proxy to a backend of the scenario, on an origin seat
backends: [{ name: shop-backend, kind: ${kind}, certificate: valid, files: { index.html: "hello from the shop\\n" } }]
server:
  modules: [ssl, proxy, proxy_http, socache_shmcb]
  config: |
    SSLProxyEngine On
    SSLProxyVerify none
    SSLProxyCheckPeerName off
    ProxyPass / ${scheme}://{{backends.shop-backend.host}}:{{backends.shop-backend.port}}/
requests:
  - { name: through-proxy, path: / }
`;
}

function withoutBackend(id: string): string {
  return `
id: ${id}
title: a reverse proxy to a backend name no backend of this scenario has
server:
  modules: [proxy, proxy_http]
  config: |
    ProxyPass / http://shop-backend:80/
requests:
  - { name: through-proxy, path: / }
`;
}

function answer(side: SideObservation): { status: number; body: string } {
  const outcome = side.requests.find((request) => request.name === "through-proxy")?.outcome;
  if (outcome?.kind !== "response") throw new Error(`${side.side.id}: ${JSON.stringify(outcome).slice(0, 300)}`);
  return { status: outcome.status, body: outcome.body };
}

describe("backends on origin seats", { timeout: 300_000 }, () => {
  it("answer through the seat under their name for their scenario only, one seat serving every scenario in turn", async () => {
    const engine = await connectEngine();
    const recording = await recordEngineEvents({ type: ["container"] });
    // One lane: the scenarios run in this order on its network.
    const { runs } = await runYamlScenarios(
      [withBackend("origin-seats-a", "https-origin"), withoutBackend("origin-seats-b"), withBackend("origin-seats-c", "http-origin")],
      { concurrency: 1 },
    );
    const events = await recording.stop();
    const [first, nameless, again] = runs;
    for (const run of runs) expect(run?.error ?? null).toBeNull();
    for (const side of first!.observations) expect(answer(side)).toEqual({ status: 200, body: "hello from the shop\n" });
    for (const side of again!.observations) expect(answer(side)).toEqual({ status: 200, body: "hello from the shop\n" });
    // No backend of that name in this scenario: the name does not resolve (AH00898, a 500 on 2.4), as on a network
    // of its own; a seat left under the name would have refused the connection instead (AH00957, a 503).
    for (const side of nameless!.observations) {
      const lines = side.requests.find((request) => request.name === "through-proxy")?.errorLog ?? [];
      expect(lines.map((line) => line.raw).join("\n")).toMatch(/AH00898: DNS lookup failure for: shop-backend/);
      expect(answer(side).status).toBe(500);
    }
    const ours = events.filter((event) => event.Action === "create" && (event.Actor.Attributes[LABEL_SCENARIO] ?? "").startsWith("origin-seats-"));
    const runIds = new Set(ours.map((event) => event.Actor.Attributes[LABEL_RUN_ID]));
    expect(runIds.size).toBe(1);
    const created = events.filter((event) => event.Action === "create" && runIds.has(event.Actor.Attributes[LABEL_RUN_ID]));
    const roles = created.map((event) => event.Actor.Attributes[LABEL_ROLE]);
    expect(roles.filter((role) => role === "backend")).toHaveLength(2);
    // One origin seat for both backends; each side's seat is its server host (a seat without IPv6 is the host
    // itself: server/server-host.ts openSeat), made once and reused by the three scenarios.
    expect(roles.filter((role) => role === "seat")).toHaveLength(1);
    expect(roles.filter((role) => role === "server")).toHaveLength(2);
    const left = await engine.docker.listContainers({ all: true, filters: { label: [`${LABEL_RUN_ID}=${[...runIds][0]}`] } });
    expect(left.map((c) => c.Names[0])).toEqual([]);
  });
});
