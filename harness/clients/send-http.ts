// Sends a request plan with undici (one Client per plan, pipelining 1, no redirects followed) and records the
// answer as data; falls back to the raw sender for what undici cannot or will not send.
//
// Response headers keep their order, duplicates and the names' case: the dispatch handler reads undici's raw
// header list (`controller.rawHeaders`, the [name, value, ...] buffers as llhttp saw them) instead of the
// object form. The response's HTTP version, which undici does not report, is read from the bytes the
// connection delivered (the socket's `read` is wrapped when the connector hands it over).
//
// What undici does to the request (and how the plan survives it):
//   - Host goes first (a plan's own single Host header is moved there, lower-cased name), then undici's own
//     `connection: keep-alive`, then `authorization` (plan.auth), then the plan's headers in order with
//     duplicates and names as written; a Content-Length undici computes comes last.
//   - Response trailers are not recorded (neither here nor by the raw parser).
//   - Plans undici would refuse or rewrite go to the raw sender with `buildRawRequest(plan)` (see
//     rawFallbackReason): HTTP/1.0, CONNECT, more than one Host, Transfer-Encoding / Keep-Alive / Upgrade /
//     Expect (refused), Connection (dropped and replaced), Content-Length (moved and checked). Anything else undici
//     refuses synchronously (an invalid header name or value, a path with spaces) is sent raw as well.
//   - Text is sent as UTF-8 (names, values, path), the body too.
import { buildConnector, Client } from "undici";
import type { Dispatcher } from "undici";
import type { HttpResponseOutcome, TransportFailureOutcome } from "./outcome.ts";
import type { HttpRequestPlan } from "./http-request.ts";
import { assertValidPlan, basicAuthorization, originOf, servernameFor } from "./http-request.ts";
import { digestAuthorization, parseDigestChallenge } from "./digest-auth.ts";
import { BodyCollector, Deadline, elapsedSince, errorCodeOf, errorMessageOf, preview, transportFailure } from "./outcome-parts.ts";
import { llhttpCodeOfMessage } from "./llhttp-errors.ts";
import { buildRawRequest, finalStatusLine, scanRawResponse } from "./parse-raw-response.ts";
import { sendRaw } from "./send-raw.ts";

export type SendHttpOutcome = HttpResponseOutcome | TransportFailureOutcome;

/** Why a plan cannot go through undici unchanged; null when it can. */
export function rawFallbackReason(plan: HttpRequestPlan): string | null {
  if (plan.httpVersion === "1.0") return "HTTP/1.0 (undici sends HTTP/1.1 only)";
  if (plan.method.toUpperCase() === "CONNECT") return "CONNECT (undici opens a tunnel for it)";
  const names = plan.headers.map(([name]) => name.toLowerCase());
  const hosts = names.filter((name) => name === "host").length + (plan.hostHeader !== null ? 1 : 0);
  if (hosts > 1) return "more than one Host header (undici refuses it)";
  for (const name of names) {
    if (name === "transfer-encoding" || name === "keep-alive" || name === "upgrade" || name === "expect") {
      return `a ${name} header (undici refuses it)`;
    }
    if (name === "connection") return "a connection header (undici drops it and sends its own)";
    if (name === "content-length") return "a content-length header (undici moves it and checks it against the body)";
  }
  return null;
}

/** Sends the plan and returns the (last) answer or the transport failure; throws only on an invalid plan. A
 * Digest plan is sent without credentials first and again with the answer to the server's challenge, as curl
 * --digest does; without a Digest challenge the first answer is the outcome. */
export async function sendHttp(plan: HttpRequestPlan): Promise<SendHttpOutcome> {
  assertValidPlan(plan);
  if (plan.auth?.scheme === "digest") {
    const first = await sendHttp({ ...plan, auth: null });
    const challenge = first.kind === "response" && first.status === 401 ? first.headers.filter(([name]) => name.toLowerCase() === "www-authenticate").map(([, value]) => parseDigestChallenge(value)).find((c) => c !== null) : undefined;
    if (!challenge) return first;
    const authorization = digestAuthorization(challenge, { method: plan.method, uri: plan.path, user: plan.auth.user, password: plan.auth.password });
    const second = await sendHttp({ ...plan, auth: null, headers: [["Authorization", authorization], ...plan.headers] });
    return second.kind === "response" ? { ...second, challenged: true } : second;
  }
  if (rawFallbackReason(plan) === null) {
    const outcome = await sendWithUndici(plan);
    if (outcome !== "refused") return outcome;
  }
  return sendRawPlan(plan);
}

/** The plan through the raw sender, with the bytes of `buildRawRequest(plan)`. */
export function sendRawPlan(plan: HttpRequestPlan): Promise<SendHttpOutcome> {
  assertValidPlan(plan);
  return sendRaw({
    target: plan.target,
    servername: servernameFor(plan),
    data: buildRawRequest(plan),
    trickleMs: null,
    timeoutMs: plan.timeoutMs,
    tlsClient: plan.tlsClient,
    repeat: plan.keepAliveRequests,
  });
}

/** undici writes header text as latin1: hand it the UTF-8 bytes as latin1 characters so UTF-8 goes out. */
function wire(text: string): string {
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, "utf8").toString("latin1");
}

/** Counts the connections the Client opens and keeps the bytes read on the current one since its last request. */
class ConnectionTracker {
  opened = 0;
  #current = 0;
  #capture: Buffer[] = [];
  #captureBytes = 0;
  static readonly CAPTURE_LIMIT = 256 * 1024;

  get currentId(): number {
    return this.#current;
  }

  attach(socket: { read: (size?: number) => unknown }): void {
    const id = ++this.opened;
    this.#current = id;
    this.startRequest();
    const read = socket.read.bind(socket);
    socket.read = (size?: number) => {
      const chunk = read(size);
      if (this.#current === id && Buffer.isBuffer(chunk) && this.#captureBytes < ConnectionTracker.CAPTURE_LIMIT) {
        this.#capture.push(chunk);
        this.#captureBytes += chunk.length;
      }
      return chunk;
    };
  }

  startRequest(): void {
    this.#capture = [];
    this.#captureBytes = 0;
  }

  captured(): Buffer {
    return Buffer.concat(this.#capture, this.#captureBytes);
  }
}

type DispatchResult =
  | { kind: "refused"; error: unknown }
  | { kind: "error"; error: unknown }
  | { kind: "response"; status: number; httpVersion: string; headers: Array<[string, string]>; body: BodyCollector; connection: number };

function headerPairs(raw: Dispatcher.DispatchController["rawHeaders"]): Array<[string, string]> {
  if (!raw) return [];
  if (Array.isArray(raw)) {
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i];
      const value = raw[i + 1];
      const text = (part: Buffer | string | undefined) => (Buffer.isBuffer(part) ? part.toString("latin1") : String(part ?? ""));
      pairs.push([text(name), text(value)]);
    }
    return pairs;
  }
  // The object form (not produced by Client) has lost order across names and the names' case.
  return Object.entries(raw).flatMap(([name, value]) =>
    Array.isArray(value) ? value.map((v): [string, string] => [name, v]) : value === undefined ? [] : [[name, String(value)] as [string, string]],
  );
}

function dispatchOnce(client: Client, options: Dispatcher.DispatchOptions, tracker: ConnectionTracker): Promise<DispatchResult> {
  return new Promise((resolve) => {
    let synchronous = true;
    let final: { status: number; httpVersion: string; headers: Array<[string, string]> } | null = null;
    let connection = 0;
    const body = new BodyCollector();
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart() {
        tracker.startRequest();
        connection = tracker.currentId;
      },
      onResponseStart(controller, statusCode) {
        if (statusCode < 200) return; // 1xx interim answers
        final = {
          status: statusCode,
          httpVersion: finalStatusLine(tracker.captured())?.httpVersion ?? "unknown",
          headers: headerPairs(controller.rawHeaders),
        };
      },
      onResponseData(_controller, chunk) {
        if (final) body.push(chunk);
      },
      onResponseEnd() {
        if (!final) {
          resolve({ kind: "error", error: Object.assign(new Error("the response ended without a final status"), { code: "NO_FINAL_RESPONSE" }) });
          return;
        }
        resolve({ kind: "response", ...final, body, connection });
      },
      onResponseError(_controller, error) {
        const code = errorCodeOf(error);
        const refusal = synchronous && (code === "UND_ERR_INVALID_ARG" || code === "UND_ERR_NOT_SUPPORTED");
        resolve({ kind: refusal ? "refused" : "error", error });
      },
    };
    client.dispatch(options, handler);
    synchronous = false;
  });
}

/** The code of an undici failure; a parser error whose code undici lost gets llhttp's name back from the
 * reason, else this module's parser's verdict on the same bytes, else HPE_UNKNOWN. */
function undiciErrorCode(error: unknown, received: Buffer, method: string): string {
  const isParserError = error instanceof Error && error.name === "HTTPParserError";
  if (!isParserError || typeof (error as { code?: unknown }).code === "string") return errorCodeOf(error);
  const fromReason = llhttpCodeOfMessage(error.message);
  if (fromReason) return fromReason;
  const scan = scanRawResponse(received, { requestMethod: method });
  return scan.state === "invalid" ? scan.code : "HPE_UNKNOWN";
}

async function sendWithUndici(plan: HttpRequestPlan): Promise<SendHttpOutcome | "refused"> {
  const startedAt = performance.now();
  const deadline = new Deadline(plan.timeoutMs);
  // undici's own timers sit past the deadline so that the deadline (TIMEOUT) always answers first.
  const undiciTimeout = Math.ceil(plan.timeoutMs) + 1_000;
  const servername = servernameFor(plan);
  const tracker = new ConnectionTracker();
  const connector = buildConnector({
    rejectUnauthorized: false,
    maxCachedSessions: 0,
    timeout: undiciTimeout,
    ...(servername ? { servername } : {}),
    ...(plan.tlsClient ? { cert: plan.tlsClient.certificate, key: plan.tlsClient.privateKey } : {}),
  });
  const connect: buildConnector.connector = (options, callback) => {
    const tlsOptions = servername ? { ...options, servername } : options;
    connector(tlsOptions, (...args: Parameters<buildConnector.Callback>) => {
      const socket = args[1];
      if (socket) tracker.attach(socket);
      callback(...args);
    });
  };
  const client = new Client(originOf(plan.target), {
    pipelining: 1,
    connect,
    headersTimeout: undiciTimeout,
    bodyTimeout: undiciTimeout,
    // A server announcing `Keep-Alive: timeout=1` is still reused (the default threshold, 2 s, would not).
    keepAliveTimeoutThreshold: 0,
    maxResponseSize: -1,
  });

  const headers: string[] = [];
  if (plan.hostHeader !== null) headers.push("host", wire(plan.hostHeader));
  if (plan.auth) headers.push("authorization", basicAuthorization(plan.auth));
  for (const [name, value] of plan.headers) headers.push(wire(name), wire(value));
  const options: Dispatcher.DispatchOptions = {
    method: plan.method,
    path: wire(plan.path),
    headers,
    body: plan.body === null ? null : Buffer.from(plan.body, "utf8"),
    // Never retried: each request is its own observation. (`blocking` stays undici's default: with blocking set,
    // a HEAD answer leaves the connection blocked for the next request.)
    idempotent: false,
    // Keep the connection after HEAD too (undici closes it by default); a server's close still counts.
    reset: false,
  };
  const total = plan.keepAliveRequests;
  const prefix = (index: number) => (total > 1 ? `request ${index + 1} of ${total}: ` : "");

  const exchange = async (): Promise<SendHttpOutcome | "refused"> => {
    const connections: number[] = [];
    for (let index = 0; index < total; index++) {
      const result = await dispatchOnce(client, options, tracker);
      if (result.kind === "refused" && index === 0) return "refused";
      if (result.kind !== "response") {
        const received = tracker.captured();
        const partial = received.length > 0 ? ` (${received.length} response bytes received: ${preview(received)})` : "";
        return transportFailure(undiciErrorCode(result.error, received, plan.method), `${prefix(index)}${errorMessageOf(result.error)}${partial}`, startedAt);
      }
      connections.push(result.connection);
      if (index === total - 1) {
        const outcome: HttpResponseOutcome = {
          kind: "response",
          status: result.status,
          httpVersion: result.httpVersion,
          headers: result.headers,
          ...result.body.finish(),
          durationMs: elapsedSince(startedAt),
        };
        if (total > 1) outcome.connectionReused = connections.slice(0, -1).includes(result.connection);
        return outcome;
      }
    }
    throw new Error("unreachable: the loop returns on its last request");
  };

  const timedOut = deadline.promise.then((): SendHttpOutcome => {
    const received = tracker.captured();
    const message =
      received.length === 0
        ? `no response within ${plan.timeoutMs} ms`
        : `no complete response within ${plan.timeoutMs} ms; ${received.length} bytes received: ${preview(received)}`;
    return transportFailure("TIMEOUT", message, startedAt);
  });
  let outcome: SendHttpOutcome | "refused" | undefined;
  try {
    outcome = await Promise.race([exchange(), timedOut]);
    return outcome;
  } finally {
    deadline.clear();
    if (outcome !== undefined && outcome !== "refused" && outcome.kind === "response") {
      await client.close().catch(() => undefined);
    } else {
      await client.destroy().catch(() => undefined);
    }
  }
}
