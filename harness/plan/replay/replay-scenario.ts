// Pure: a replay's distinct requests as tree scenarios: the tree's own scenario (plan/tree/tree-scenario.ts) with
// the replayed requests instead of its smoke requests, and a client container for each identity they use (the
// probes' clients, at their fixed addresses). A request's name says how many log lines it stands for, and its
// position is the first of them (`access.log:17`). Many requests are split into several scenarios of the same
// tree, which a run may boot side by side (--concurrency) and which each stay within a scenario's time limit.
import type { BasicAuth, ClientSpec, RequestSpec, Scenario } from "../../scenario/scenario.ts";
import { PROBE_USER, WRONG_PASSWORD } from "../probes/generate-probes.ts";
import type { ProbeClient } from "../probes/probe.ts";
import { generatedRequest } from "../tree/generated-request.ts";
import type { ReplayEntry } from "./replay-collector.ts";
import type { ReplayRequest } from "./replay-request.ts";

export const REPLAY_REQUESTS_PER_SCENARIO = 200;
const REPLAY_TIMEOUT_MS = 10_000;
const BUILT_IN = new Set(["host", "localhost", "localhost6"]);
// Sent twice to learn noise: only requests a server should answer alike every time.
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function authOf(request: ReplayRequest): BasicAuth | null {
  if (request.user === null || request.credentials === "none") return null;
  return { user: request.user, password: request.credentials === "valid" ? PROBE_USER.password : WRONG_PASSWORD };
}

function shorten(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** `r0003 GET http://www.example.org:80/a?b from addr-1 as alice, UA "curl/8.5.0", 12 lines`. */
export function replayRequestName(index: number, entry: ReplayEntry): string {
  const r = entry.request;
  const who = [
    `from ${r.client}`,
    ...(r.user === null ? [] : [`as ${r.user}${r.credentials === "wrong-password" ? " (wrong password)" : ""}`]),
    ...(r.httpVersion === "1.0" ? ["HTTP/1.0"] : []),
    ...(r.userAgent === null ? [] : [`UA ${JSON.stringify(shorten(r.userAgent, 40))}`]),
  ];
  const url = `${r.tls ? "https" : "http"}://${r.host ?? "(default)"}:${r.port}${shorten(r.target, 120)}`;
  return `r${String(index).padStart(4, "0")} ${r.method} ${url} ${who.join(", ")}, ${entry.count} line${entry.count === 1 ? "" : "s"}`;
}

export interface ReplayScenarioInput {
  /** The tree scenario the requests replace the smoke requests of. */
  base: Scenario;
  /** The requests to send, most lines first. */
  entries: readonly ReplayEntry[];
  /** The identities the requests' clients name. */
  clients: readonly ProbeClient[];
  /** The access log, as given: the requests' positions point into it. */
  logFile: string;
}

export function replayScenarios(input: ReplayScenarioInput): Scenario[] {
  const named = input.entries.map((entry, i) => ({ entry, name: replayRequestName(i + 1, entry) }));
  const parts: (typeof named)[] = [];
  for (let i = 0; i < named.length; i += REPLAY_REQUESTS_PER_SCENARIO) parts.push(named.slice(i, i + REPLAY_REQUESTS_PER_SCENARIO));
  const order = new Map(input.clients.map((client, i) => [client.id, i]));
  return parts.map((part, index) => {
    const id = parts.length === 1 ? input.base.id : `${input.base.id}-part-${index + 1}`;
    // One client's requests in a row: the observer sends a run of one client's requests in one exec.
    const rank = (client: string): number => order.get(client) ?? order.size;
    const sorted = [...part].sort((a, b) => rank(a.entry.request.client) - rank(b.entry.request.client));
    const requests: RequestSpec[] = sorted.map(({ entry, name }) => ({
      ...generatedRequest({
        at: { file: input.logFile, line: entry.firstLine, column: 1 },
        name,
        client: entry.request.client,
        method: entry.request.method,
        path: entry.request.target,
        host: entry.request.host,
        port: entry.request.port,
        tls: entry.request.tls,
        auth: authOf(entry.request),
        repeat: SAFE_METHODS.has(entry.request.method),
        timeoutMs: REPLAY_TIMEOUT_MS,
      }),
      headers: entry.request.userAgent === null ? [] : [["User-Agent", entry.request.userAgent]],
      httpVersion: entry.request.httpVersion,
    }));
    const used = new Set(requests.map((r) => r.client));
    const clients: ClientSpec[] = input.clients
      .filter((c) => used.has(c.id) && !BUILT_IN.has(c.id))
      .map((c) => ({ at: input.base.at, name: c.id, address: c.address, domain: c.domain }));
    const partNote = parts.length === 1 ? "" : ` (part ${index + 1} of ${parts.length})`;
    return { ...input.base, id, title: `replay of ${input.logFile} on ${input.base.title}${partNote}`, clients, requests };
  });
}
