// Sends bytes exactly as given over a plain or TLS socket and reads one response per request, for the requests
// undici will not send (HTTP/1.0, a duplicate Host, a hand-made Transfer-Encoding, broken syntax) and for raw
// scenario requests (trickled bytes, slow clients).
//
// The socket is not half-closed after writing (endAfterWrite opts in): a server may wait for more, and a FIN
// changes what httpd does. A response ends where its framing says (Content-Length, the last chunk, a head-only
// status), or at the server's close when it has no length. Failures are returned, never thrown:
// ECONNREFUSED/ECONNRESET/EPIPE/TLS codes as Node reports them, TIMEOUT (the partial bytes in the message),
// EMPTY_RESPONSE (closed without a byte), INCOMPLETE_RESPONSE (closed inside the head or body) and the parser's
// HPE_* codes.
//
// Bytes are parsed as they arrive (clients/response-parser.ts) and the body goes straight to a BodyCollector
// (the first BODY_TEXT_LIMIT bytes kept, all hashed): memory stays bounded and time linear in the body.
import net from "node:net";
import tls from "node:tls";
import type { HttpResponseOutcome, TransportFailureOutcome } from "./outcome.ts";
import type { RequestTarget, TlsClientIdentity } from "./http-request.ts";
import { assertValidTarget, assertValidTimeout } from "./http-request.ts";
import { Deadline, elapsedSince, errorCodeOf, errorMessageOf, preview, StreamedResponse, transportFailure } from "./outcome-parts.ts";
import { requestMethodOf, responseKeepsConnection } from "./parse-raw-response.ts";
import type { ResponseHead } from "./response-parser.ts";

export interface RawSendOptions {
  target: RequestTarget;
  /** TLS SNI name; null sends none (IP literals must not be sent as SNI). Ignored without TLS. */
  servername: string | null;
  data: Buffer;
  /** Send one byte every trickleMs ms (slow clients); null: all at once. */
  trickleMs: number | null;
  /** Deadline for the whole exchange: connect, trickling, every response. */
  timeoutMs: number;
  tlsClient: TlsClientIdentity | null;
  /** Send `data` this many times, one after the other's response, on one connection while the server keeps
   * it open (a new one when it closed or announced close). Default 1. */
  repeat?: number;
  /** Half-close (FIN) after writing each request. Default false. */
  endAfterWrite?: boolean;
}

export type RawSendOutcome = HttpResponseOutcome | TransportFailureOutcome;

class RawConnection {
  /** The response being read; bytes that come with none (after the last response ended) belong to no request. */
  response: StreamedResponse | null = null;
  ended = false;
  closed = false;
  error: Error | null = null;
  connected = false;
  #waiters: Array<() => void> = [];

  constructor(
    readonly socket: net.Socket,
    readonly id: number,
  ) {
    socket.on("data", (chunk: Buffer) => {
      // Parsed as it arrives: nothing of the body is kept but what the collector keeps. The reader is woken
      // only when the response is decided, not on every chunk: each wake-up costs a race on the deadline,
      // and a promise reaction per chunk would grow with the body.
      const response = this.response;
      if (!response) return;
      response.push(chunk);
      if (response.parser.complete || response.parser.error) this.#wake();
    });
    socket.on("end", () => {
      this.ended = true;
      this.#wake();
    });
    socket.on("error", (error: Error) => {
      this.error ??= error;
      this.#wake();
    });
    socket.on("close", () => {
      this.closed = true;
      this.#wake();
    });
    socket.once(socket instanceof tls.TLSSocket ? "secureConnect" : "connect", () => {
      this.connected = true;
      this.#wake();
    });
  }

  get dead(): boolean {
    return this.ended || this.closed || this.error !== null || this.socket.destroyed;
  }

  /** Resolves at the next event on the socket. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Starts reading a new response; what was received before it is forgotten. */
  beginResponse(requestMethod: string): StreamedResponse {
    this.response = new StreamedResponse(requestMethod);
    return this.response;
  }

  destroy(): void {
    this.socket.destroy();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

type Step<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

function openConnection(options: RawSendOptions, id: number): Step<RawConnection> {
  const { host, port } = options.target;
  let socket: net.Socket;
  try {
    socket = options.target.tls
      ? tls.connect({
          host,
          port,
          ...(options.servername ? { servername: options.servername } : {}),
          rejectUnauthorized: false,
          ALPNProtocols: ["http/1.1"],
          ...(options.tlsClient ? { cert: options.tlsClient.certificate, key: options.tlsClient.privateKey } : {}),
        })
      : net.connect({ host, port });
  } catch (error) {
    // tls.connect throws synchronously on an unusable key or certificate.
    return { ok: false, code: errorCodeOf(error), message: errorMessageOf(error) };
  }
  socket.setNoDelay(true);
  return { ok: true, value: new RawConnection(socket, id) };
}

async function waitConnected(connection: RawConnection, deadline: Deadline, timeoutMs: number): Promise<Step<null>> {
  for (;;) {
    if (connection.connected) return { ok: true, value: null };
    if (connection.error) return { ok: false, code: errorCodeOf(connection.error), message: errorMessageOf(connection.error) };
    if (connection.dead) return { ok: false, code: "ECONNRESET", message: "the connection closed while connecting" };
    if (deadline.expired) return { ok: false, code: "TIMEOUT", message: `not connected within ${timeoutMs} ms` };
    await Promise.race([connection.changed(), deadline.promise]);
  }
}

async function writeRequest(connection: RawConnection, options: RawSendOptions, deadline: Deadline): Promise<void> {
  const { data, trickleMs } = options;
  if (trickleMs === null || trickleMs <= 0 || data.length <= 1) {
    connection.socket.write(data);
  } else {
    for (let i = 0; i < data.length; i++) {
      if (connection.dead || deadline.expired) return;
      connection.socket.write(data.subarray(i, i + 1));
      if (i < data.length - 1) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, trickleMs);
          }),
          deadline.promise,
        ]);
        clearTimeout(timer);
      }
    }
  }
  if (options.endAfterWrite && !connection.dead) connection.socket.end();
}

async function readResponse(
  connection: RawConnection,
  response: StreamedResponse,
  deadline: Deadline,
  timeoutMs: number,
): Promise<Step<ResponseHead>> {
  const { parser } = response;
  for (;;) {
    const finished = connection.ended || connection.closed || connection.error !== null;
    // Only a clean close (FIN) ends a body without length; a reset does not.
    if (connection.ended && connection.error === null) parser.finish();
    if (parser.complete) return { ok: true, value: parser.head! };
    const invalid = parser.error;
    if (invalid) return { ok: false, code: invalid.code, message: `${invalid.reason} (at byte ${invalid.offset}): ${preview(invalid.bytes)}` };
    const received = response.received;
    if (connection.error) {
      return {
        ok: false,
        code: errorCodeOf(connection.error),
        message: `${errorMessageOf(connection.error)} after ${received} response bytes${received > 0 ? `: ${preview(response.first())}` : ""}`,
      };
    }
    if (finished) {
      if (received === 0) return { ok: false, code: "EMPTY_RESPONSE", message: "the server closed the connection without sending a byte" };
      const what = parser.head
        ? `inside the body of ${parser.head.status} (${parser.bodyBytes} body bytes received)`
        : `inside the response head (${received} bytes received)`;
      return { ok: false, code: "INCOMPLETE_RESPONSE", message: `the server closed the connection ${what}: ${preview(response.first())}` };
    }
    if (deadline.expired) {
      return {
        ok: false,
        code: "TIMEOUT",
        message:
          received === 0
            ? `no response within ${timeoutMs} ms`
            : `no complete response within ${timeoutMs} ms; ${received} bytes received: ${preview(response.first())}`,
      };
    }
    await Promise.race([connection.changed(), deadline.promise]);
  }
}

/** Sends raw bytes and returns the (last) response, or the transport failure. Throws only on invalid options. */
export async function sendRaw(options: RawSendOptions): Promise<RawSendOutcome> {
  assertValidTarget(options.target);
  assertValidTimeout(options.timeoutMs);
  const repeat = options.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw new RangeError(`repeat must be an integer >= 1, got ${repeat}`);
  if (options.data.length === 0) throw new RangeError("data must not be empty");

  const startedAt = performance.now();
  const deadline = new Deadline(options.timeoutMs);
  const requestMethod = requestMethodOf(options.data);
  const usedConnections: number[] = [];
  let connection: RawConnection | null = null;
  let reusable = false;
  let opened = 0;
  const fail = (index: number, code: string, message: string) =>
    transportFailure(code, repeat > 1 ? `request ${index + 1} of ${repeat}: ${message}` : message, startedAt);

  try {
    for (let index = 0; index < repeat; index++) {
      if (connection && reusable) {
        // Give a server that announced keep-alive but closes anyway one turn to say so (as undici does).
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (connection.dead) reusable = false;
      }
      if (!connection || !reusable) {
        connection?.destroy();
        const open = openConnection(options, ++opened);
        if (!open.ok) return fail(index, open.code, open.message);
        connection = open.value;
        const connected = await waitConnected(connection, deadline, options.timeoutMs);
        if (!connected.ok) return fail(index, connected.code, connected.message);
      }
      const inProgress = connection.beginResponse(requestMethod);
      usedConnections.push(connection.id);
      await writeRequest(connection, options, deadline);
      const read = await readResponse(connection, inProgress, deadline, options.timeoutMs);
      if (!read.ok) return fail(index, read.code, read.message);
      const response = read.value;
      if (index === repeat - 1) {
        const outcome: HttpResponseOutcome = {
          kind: "response",
          status: response.status,
          httpVersion: response.httpVersion,
          headers: response.headers,
          ...inProgress.body.finish(),
          durationMs: elapsedSince(startedAt),
        };
        if (repeat > 1) outcome.connectionReused = usedConnections.slice(0, -1).includes(connection.id);
        return outcome;
      }
      reusable = responseKeepsConnection(response) && !connection.dead && !options.endAfterWrite;
    }
    throw new Error("unreachable: the loop returns on its last request");
  } finally {
    deadline.clear();
    connection?.destroy();
  }
}
