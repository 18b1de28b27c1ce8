// Many HTTP requests of one client container in ONE command: generated probe sets send hundreds of requests per
// side from a handful of clients. The container's exec agent (engine/exec-agent.ts) runs the batch itself; a
// container without one gets a small sh script through a `docker exec`. Either runs one curl per request (so each
// has its own connection, as a single send does), each writing its answer and its stderr to files, then prints a
// length-prefixed record:
//
//     @@hb <index> <curl exit> <answer bytes> <stderr bytes> <time_total> <local_port>\n<answer><stderr>
//
// (`@@hb <index> skip` for a repeat skipped after a timeout). Lengths, not delimiters, frame the records, so a
// body may hold any bytes. The reader parses them as they stream in, with their arrival times, into the same
// outcomes a single send gives (status, headers, body, timing, transport errors). Requests pause `gapMs`
// between one another so that the server's log lines can be told apart by when they arrived
// (observe/batch-attribution.ts); the client port curl reports pins 2.4's `[client a:port]` lines exactly.
import type { HttpResponseOutcome, TransportFailureOutcome } from "./outcome.ts";
import { type ContainerHttpPlan, curlCommand, outcomeOfCurl, type SendingClient } from "./client-container.ts";
import { StreamedResponse } from "./outcome-parts.ts";
import type { AgentBatch } from "../engine/exec-agent.ts";
import { PendingLine } from "../engine/pending-line.ts";

/** Bodies up to this size travel inside the script (base64); a larger one is sent on its own. */
export const BATCH_BODY_LIMIT = 64 * 1024;

export interface BatchItem {
  plan: ContainerHttpPlan;
  /** Not sent when the item before it timed out (a repeat that would only double the wait). */
  skipAfterTimeout: boolean;
}

/** Pure: whether a plan can go in a batch: one request on its own connection, no client certificate (staged per
 * client, not per request), a body that fits the script. keep-alive series, raw, exec and trickle stay single. */
export function batchable(plan: Pick<ContainerHttpPlan, "keepAliveRequests" | "clientCertificate" | "body">): boolean {
  return plan.keepAliveRequests === 1 && plan.clientCertificate === null && (plan.body === null || Buffer.byteLength(plan.body) <= BATCH_BODY_LIMIT);
}

/** Pure: single-quoted for sh. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Pure: what a client's exec agent runs for the items (engine/exec-agent.ts): the same curl command lines as the
 * script, and the same records back. */
export function agentBatch(items: readonly BatchItem[], gapMs: number): AgentBatch {
  return {
    gap: gapMs / 1000,
    items: items.map((item) => ({
      argv: [...curlCommand(item.plan, item.plan.body === null ? undefined : "@b"), ...CURL_OUTPUT],
      body: item.plan.body === null ? null : Buffer.from(item.plan.body, "utf8").toString("base64"),
      skip: item.skipAfterTimeout,
    })),
  };
}

/** Where curl writes an item's answer, and what it prints for it: its time and the client port. */
const CURL_OUTPUT = ["-o", "o", "-w", "%{time_total} %{local_port}"];

/** Pure: the script that sends the items in order, `gapMs` apart. */
export function batchScript(items: readonly BatchItem[], gapMs: number): string {
  const lines = ['d=$(mktemp -d) || exit 97', 'cd "$d" || exit 97', "c=0"];
  items.forEach((item, index) => {
    const args = curlCommand(item.plan, item.plan.body === null ? undefined : "@b").map(shellQuote).join(" ");
    const send = [
      ...(item.plan.body === null ? [] : [`printf '%s' ${shellQuote(Buffer.from(item.plan.body, "utf8").toString("base64"))} | base64 -d > b`]),
      ": > o; : > e",
      // CURL_OUTPUT, as the shell reads it.
      `t=$(${args} -o o -w '%{time_total} %{local_port}' 2>e); c=$?`,
      // One wc for both lengths ("N o M e T total"): a process per request less.
      `set -- $(wc -c o e); printf '@@hb ${index} %s %s %s %s\\n' "$c" "$1" "$3" "\${t:-0 0}"; cat o e`,
    ].join("; ");
    const gap = index > 0 && gapMs > 0 ? `sleep ${(gapMs / 1000).toFixed(3)}; ` : "";
    lines.push(item.skipAfterTimeout ? `if [ "$c" = 28 ]; then printf '@@hb ${index} skip\\n'; else ${gap}${send}; fi` : `${gap}${send}`);
  });
  lines.push('cd / && rm -rf "$d"');
  return lines.join("\n");
}

export type BatchOutcome = HttpResponseOutcome | TransportFailureOutcome;

export interface BatchRecord {
  index: number;
  /** null: skipped (the item before it timed out). */
  outcome: BatchOutcome | null;
  /** The client port of its connection (null when curl connected nowhere). */
  localPort: number | null;
  /** When the record arrived, Date.now(): the request had ended by then. */
  receivedAt: number;
}

const HEADER = /^@@hb (\d+) (?:skip|(\d+) (\d+) (\d+) ([0-9.]+) (\d+))$/;

/** Parses a batch's stdout as it streams, record by record. */
export class BatchReader {
  readonly records: BatchRecord[] = [];
  readonly #header = new PendingLine();
  #current: { index: number; exit: number; out: number; err: number; seconds: number; port: number; reader: StreamedResponse; stderr: Buffer[] } | null = null;

  constructor(
    private readonly methods: readonly string[],
    /** Which items answer a Digest challenge (curl writes the challenge's head first). */
    private readonly digest: readonly boolean[] = [],
    private readonly now: () => number = Date.now,
  ) {}

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      const current = this.#current;
      if (current === null) {
        const header = this.#header.take(chunk, i);
        if (header === null) break;
        i = header.next;
        this.#startRecord(header.line);
        continue;
      }
      if (current.out > 0) {
        const take = Math.min(current.out, chunk.length - i);
        current.reader.push(chunk.subarray(i, i + take));
        current.out -= take;
        i += take;
      } else {
        const take = Math.min(current.err, chunk.length - i);
        current.stderr.push(Buffer.from(chunk.subarray(i, i + take)));
        current.err -= take;
        i += take;
      }
      if (current.out === 0 && current.err === 0) this.#finish();
    }
  }

  #startRecord(line: string): void {
    const match = HEADER.exec(line);
    if (match === null) throw new Error(`batch: not a record header: ${JSON.stringify(line.slice(0, 120))}`);
    const index = Number(match[1]);
    if (match[2] === undefined) {
      this.records.push({ index, outcome: null, localPort: null, receivedAt: this.now() });
      return;
    }
    this.#current = {
      index,
      exit: Number(match[2]),
      out: Number(match[3]),
      err: Number(match[4]),
      seconds: Number(match[5]),
      port: Number(match[6]),
      reader: new StreamedResponse(this.methods[index] ?? "GET", { digest: this.digest[index] === true }),
      stderr: [],
    };
    if (this.#current.out === 0 && this.#current.err === 0) this.#finish();
  }

  #finish(): void {
    const current = this.#current!;
    this.#current = null;
    const durationMs = Math.round(current.seconds * 1000);
    const outcome = outcomeOfCurl(current.exit, Buffer.concat(current.stderr).toString("utf8"), current.reader, durationMs);
    this.records.push({ index: current.index, outcome, localPort: current.port > 0 ? current.port : null, receivedAt: this.now() });
  }

  /** Whether the stream ended between records (a cut-off batch has a record open). */
  get complete(): boolean {
    return this.#current === null && this.#header.empty;
  }
}

/** Sends the items in one exec; one record per item, in order (an item the batch never reached is a
 * transport error BATCH_INCOMPLETE). */
export async function sendBatchFromContainer(client: SendingClient, items: readonly BatchItem[], options: { gapMs: number }): Promise<BatchRecord[]> {
  const reader = new BatchReader(items.map((item) => item.plan.method), items.map((item) => item.plan.auth?.scheme === "digest"));
  const timeoutMs = items.reduce((sum, item) => sum + item.plan.timeoutMs + options.gapMs, 0) + 10_000;
  const onStdout = (chunk: Buffer): void => reader.push(chunk);
  // A client with an exec agent runs the batch itself: no shell, sleep, wc and cat processes per request.
  const agent = client.container.agent;
  const result = agent
    ? await agent.batch(agentBatch(items, options.gapMs), { timeoutMs, onStdout })
    : await client.container.execStream(["sh", "-c", batchScript(items, options.gapMs)], { timeoutMs, onStdout });
  const byIndex = new Map(reader.records.map((record) => [record.index, record]));
  return items.map((_, index) => {
    const record = byIndex.get(index);
    if (record !== undefined) return record;
    const message = `the batch ended (exit ${result.exitCode}) before this request: ${result.stderr.trim().slice(0, 300)}`;
    return { index, outcome: { kind: "transport-error", code: "BATCH_INCOMPLETE", message, durationMs: 0 }, localPort: null, receivedAt: Date.now() };
  });
}
