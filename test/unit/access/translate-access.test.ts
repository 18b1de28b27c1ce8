// The translation's proof obligation, checked exhaustively: for every generated 2.2 access state (Order ×
// Allow/Deny entries × Satisfy × Require × AuthType), nested one section in another, every client and every
// credential state, the 2.2 model's decision on the original equals the 2.4 model's decision on the lines the
// translation writes (read back from their text).
import { describe, expect, it } from "vitest";
import type { AccessClient, AccessCredentials, AccessRequest } from "../../../harness/access/access-request.ts";
import { decide22, EMPTY_STATE_22, type HostConfig22, merge22, type Order, type Section22, type State22 } from "../../../harness/access/model-22.ts";
import { decide24, parseAuthz, type State24 } from "../../../harness/access/model-24.ts";
import { translateAccess } from "../../../harness/access/translate-access.ts";

const ENTRIES = ["all", "10.1.2.3", "10.1", "192.0.2.0/24", "2001:db8::/32", ".example.com", "env=TRUSTED", "env=!TRUSTED"];
const ORDERS: Order[] = ["deny,allow", "allow,deny", "mutual-failure"];
const REQUIRES: State22["require"][] = [[], [["valid-user"]], [["user", "alice"]], [["group", "staff"], ["user", "bob"]]];

function subsets(items: readonly string[], max: number): string[][] {
  const out: string[][] = [[]];
  for (let i = 0; i < items.length; i++) {
    out.push([items[i]!]);
    if (max >= 2) for (let j = i + 1; j < items.length; j++) out.push([items[i]!, items[j]!]);
  }
  return out;
}

const HOSTS: (HostConfig22 | null)[] = [null];
for (const order of ORDERS) for (const allow of subsets(ENTRIES, 2)) for (const deny of subsets(ENTRIES, 2)) HOSTS.push({ order, allow, deny });

const client = (address: string, hostname: string | null = null, env: string[] = []): AccessClient => ({ address, hostname, env: new Set(env) });
const CLIENTS: AccessClient[] = [
  client("10.1.2.3"),
  client("10.1.9.9"),
  client("192.0.2.7", "www.example.com"),
  client("172.20.0.5", null, ["TRUSTED"]),
  client("2001:db8::5"),
  client("198.51.100.7", "evil.example.org"),
];
const CREDENTIALS: AccessCredentials[] = [
  { state: "none" },
  { state: "wrong-password" },
  { state: "unknown-user" },
  { state: "valid", user: "alice", groups: ["staff"] },
  { state: "valid", user: "bob", groups: [] },
];
const REQUESTS: AccessRequest[] = CLIENTS.flatMap((c) => CREDENTIALS.map((credentials) => ({ client: c, credentials, method: "GET" })));

function state24(lines: readonly string[], authType: boolean): State24 {
  return { authz: parseAuthz(lines), compat: null, satisfy: "all", authType };
}

function mismatches(original: State22, lines: readonly string[]): string[] {
  const translated = state24(lines, original.authType);
  const out: string[] = [];
  for (const request of REQUESTS) {
    const before = decide22(original, request);
    const after = decide24(translated, request);
    if (before !== after) out.push(`${request.client.address} ${request.credentials.state}: 2.2 ${before}, 2.4 ${after}`);
  }
  return out;
}

describe("translateAccess", () => {
  it("decides every request of every generated state as 2.2 did", () => {
    let checked = 0;
    const failures: string[] = [];
    for (const host of HOSTS) for (const satisfy of ["all", "any"] as const) for (const require of REQUIRES) for (const authType of [true, false]) {
      const state: State22 = { host, satisfy, require, authType };
      const translation = translateAccess(state);
      if (translation.lines === null) throw new Error(`no translation for ${JSON.stringify(state)}: ${translation.reason}`);
      const wrong = mismatches(state, translation.lines);
      checked += REQUESTS.length;
      if (wrong.length > 0 && failures.length < 5) failures.push(`${JSON.stringify(state)}\n  ${translation.lines.join("\n  ")}\n  ${wrong.slice(0, 3).join("; ")}`);
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(1_000_000);
  }, 120_000);

  it("keeps nested sections equal: the child's translation carries what it inherits from its parent", () => {
    // A seeded walk over parent/child pairs: 2.2 merges them part by part; on 2.4 the child's lines replace the
    // parent's (AuthMerging Off), so the child's translation must hold the merged state.
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const section = (): Section22 => {
      const s: Section22 = {};
      if (random(2)) s.host = HOSTS[random(HOSTS.length)] ?? undefined;
      if (random(3) === 0) s.satisfy = random(2) ? "any" : "all";
      if (random(2)) s.require = REQUIRES[random(REQUIRES.length)]!;
      if (random(2)) s.authType = true;
      return s;
    };
    const failures: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const parent = section();
      const child = section();
      const merged = merge22(merge22(EMPTY_STATE_22, parent), child);
      const childHasAccess = child.host !== undefined || child.satisfy !== undefined || child.require !== undefined;
      const inEffect = childHasAccess ? merged : merge22(EMPTY_STATE_22, parent);
      const translation = translateAccess(inEffect);
      if (translation.lines === null) continue;
      // What 2.4 reads at the child: its own translated lines, or the parent's when it has none.
      const wrong = mismatches(merged, translation.lines);
      if (wrong.length > 0 && failures.length < 3) failures.push(`${JSON.stringify({ parent, child })}: ${wrong[0]}`);
    }
    expect(failures).toEqual([]);
  });

  it("writes the common 2.2 idioms as the short 2.4 lines an operator would", () => {
    const lines = (host: HostConfig22 | null, extra: Partial<State22> = {}) => translateAccess({ ...EMPTY_STATE_22, host, ...extra }).lines;
    expect(lines({ order: "allow,deny", allow: ["all"], deny: [] })).toEqual(["Require all granted"]);
    expect(lines({ order: "deny,allow", allow: [], deny: ["all"] })).toEqual(["Require all denied"]);
    expect(lines({ order: "deny,allow", allow: ["127.0.0.1", "::1"], deny: ["all"] })).toEqual(["Require ip 127.0.0.1 ::1"]);
    expect(lines({ order: "deny,allow", allow: ["127.0.0.1", "::1"], deny: ["all"] }, { require: [["valid-user"]], satisfy: "any", authType: true }))
      .toEqual(["<RequireAny>", "    Require ip 127.0.0.1 ::1", "    Require valid-user", "</RequireAny>"]);
  });

  it("does not repeat a public converter's mistake: Order Allow,Deny / Deny from all / Allow from 192.0.2.7 refuses everyone", () => {
    const original: State22 = { ...EMPTY_STATE_22, host: { order: "allow,deny", allow: ["192.0.2.7"], deny: ["all"] } };
    const lossy = ["Require all denied", "Require ip 192.0.2.7"];
    const request: AccessRequest = { client: client("192.0.2.7"), credentials: { state: "none" }, method: "GET" };
    expect(decide22(original, request)).toBe(403);
    expect(decide24(state24(lossy, false), request)).toBe(200);
    expect(mismatches(original, lossy).length).toBeGreaterThan(0);
    expect(translateAccess(original).lines).toEqual(["Require all denied"]);
  });
});
