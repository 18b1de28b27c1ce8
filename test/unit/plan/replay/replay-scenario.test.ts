// A replay's requests as tree scenarios: names with the line counts, positions in the log, clients for the
// identities used, credentials and User-Agent, and a split into parts of at most 200 requests.
import { describe, expect, it } from "vitest";
import { PROBE_USER, WRONG_PASSWORD } from "../../../../harness/plan/probes/generate-probes.ts";
import type { ReplayEntry } from "../../../../harness/plan/replay/replay-collector.ts";
import { identityResolver, replayIdentities } from "../../../../harness/plan/replay/replay-identities.ts";
import type { ReplayRequest } from "../../../../harness/plan/replay/replay-request.ts";
import { REPLAY_REQUESTS_PER_SCENARIO, replayRequestName, replayScenarios } from "../../../../harness/plan/replay/replay-scenario.ts";
import { treeScenario } from "../../../../harness/plan/tree/tree-scenario.ts";
import { memoryTree } from "../../conf/memory-tree.ts";
import { REPLAY_CONFIG } from "./replay-context.ts";

const TREE = memoryTree({ "conf/httpd.conf": 'ServerRoot "/usr/local/apache2"\nListen 80\n' });
const REF = { at: { file: "/srv/site", line: 1, column: 1 }, path: "/srv/site", layout: null, defines: [], writtenFor: "2.2" as const };
const BASE = treeScenario({ id: "site", baseline: { tree: TREE, ref: REF }, candidate: { tree: TREE, ref: REF } });
const IDENTITIES = replayIdentities([REPLAY_CONFIG]);

function entry(request: Partial<ReplayRequest>, count = 1, firstLine = 1): ReplayEntry {
  return {
    request: { method: "GET", target: "/", httpVersion: "1.1", host: null, port: 80, tls: false, client: "outsider", user: null, credentials: "none", userAgent: null, ...request },
    count,
    firstLine,
  };
}

describe("replayRequestName", () => {
  it("says what is sent, from whom, as whom, and how many lines it stands for", () => {
    expect(replayRequestName(3, entry({ host: "www.example.org", target: "/a?b", client: "addr-1", user: "alice", userAgent: "curl/8.5.0" }, 12))).toBe(
      'r0003 GET http://www.example.org:80/a?b from addr-1, as alice, UA "curl/8.5.0", 12 lines',
    );
    expect(replayRequestName(1, entry({ tls: true, port: 443, user: "bob", credentials: "wrong-password", httpVersion: "1.0" }))).toBe(
      "r0001 GET https://(default):443/ from outsider, as bob (wrong password), HTTP/1.0, 1 line",
    );
  });
});

describe("replayScenarios", () => {
  it("replaces the tree scenario's smoke requests with the replayed ones, a client for each identity used", () => {
    const addr = identityResolver(IDENTITIES)("10.1.1.1").id;
    const [scenario, ...rest] = replayScenarios({
      base: BASE,
      entries: [
        entry({ target: "/x", user: "alice", credentials: "valid", userAgent: "Mozilla/5.0" }, 5, 7),
        entry({ target: "/admin/", client: addr, method: "POST", user: "bob", credentials: "wrong-password" }, 2, 3),
        entry({ target: "/local", client: "localhost" }, 1, 9),
      ],
      clients: IDENTITIES.clients,
      logFile: "access.log",
    });
    expect(rest).toEqual([]);
    expect(scenario!.id).toBe("site");
    expect(scenario!.title).toBe("replay of access.log on official tree /srv/site");
    expect(scenario!.clients).toEqual([
      { at: BASE.at, name: addr, address: "10.0.0.5", domain: null },
      { at: BASE.at, name: "outsider", address: expect.any(String), domain: null },
    ]);
    // One client's requests in a row, in the order of the identities.
    expect(scenario!.requests.map((r) => [r.client, r.path, r.at.line, r.method, r.auth, r.headers, r.repeat])).toEqual([
      [addr, "/admin/", 3, "POST", { user: "bob", password: WRONG_PASSWORD }, [], false],
      ["outsider", "/x", 7, "GET", { user: "alice", password: PROBE_USER.password }, [["User-Agent", "Mozilla/5.0"]], true],
      ["localhost", "/local", 9, "GET", null, [], true],
    ]);
    expect(scenario!.requests[0]!.at.file).toBe("access.log");
    expect(scenario!.requests[0]!.name).toMatch(/^r0002 POST /);
  });

  it("splits many requests into parts of the same tree", () => {
    const entries = Array.from({ length: REPLAY_REQUESTS_PER_SCENARIO + 1 }, (_, i) => entry({ target: `/${i}` }, 1, i + 1));
    const scenarios = replayScenarios({ base: BASE, entries, clients: IDENTITIES.clients, logFile: "a.log" });
    expect(scenarios.map((s) => [s.id, s.requests.length, s.title.endsWith(`(part ${s.id.slice(-1)} of 2)`)])).toEqual([
      ["site-part-1", REPLAY_REQUESTS_PER_SCENARIO, true],
      ["site-part-2", 1, true],
    ]);
  });
});
