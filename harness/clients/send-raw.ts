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
import net from "node:net";
import tls from "node:tls";
import type { HttpResponseOutcome, TransportFailureOutcome } from "./outcome.ts";
import type { RequestTarget, TlsClientIdentity } from "./http-request.ts";
import { assertValidTarget, assertValidTimeout } from "./http-request.ts";
import { bodyFields, Deadline, elapsedSince, errorCodeOf, errorMessageOf, preview, transportFailure } from "./outcome-parts.ts";
import type { ParsedRawResponse } from "./parse-raw-response.ts";
import { requestMethodOf, responseKeepsConnection, scanRawResponse } from "./parse-raw-response.ts";

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
  readonly #chunks: Buffer[] = [];
  received = 0;
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
      this.#chunks.push(chunk);
      this.received += chunk.length;
      this.#wake();
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

  bytes(): Buffer {
    if (this.#chunks.length > 1) {
      const all = Buffer.concat(this.#chunks, this.received);
      this.#chunks.length = 0;
      this.#chunks.push(all);
    }
    return this.#chunks[0] ?? Buffer.alloc(0);
  }

  /** Forgets what was received (bytes after the previous response belong to no request). */
  discardReceived(): void {
    this.#chunks.length = 0;
    this.received = 0;
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
  requestMethod: string,
  deadline: Deadline,
  timeoutMs: number,
): Promise<Step<ParsedRawResponse>> {
  let needBytes: number | null = null;
  for (;;) {
    const finished = connection.ended || connection.closed || connection.error !== null;
    if (needBytes === null || connection.received >= needBytes || finished) {
      const bytes = connection.bytes();
      // Only a clean close (FIN) ends a body without length; a reset does not.
      const scan = scanRawResponse(bytes, { requestMethod, eof: connection.ended && connection.error === null });
      switch (scan.state) {
        case "complete":
          return { ok: true, value: scan.response };
        case "invalid":
          return { ok: false, code: scan.code, message: `${scan.reason} (at byte ${scan.offset}): ${preview(bytes.subarray(scan.offset))}` };
        case "incomplete":
          needBytes = scan.needBytes;
          if (connection.error) {
            return {
              ok: false,
              code: errorCodeOf(connection.error),
              message: `${errorMessageOf(connection.error)} after ${bytes.length} response bytes${bytes.length > 0 ? `: ${preview(bytes)}` : ""}`,
            };
          }
          if (finished) {
            if (bytes.length === 0) return { ok: false, code: "EMPTY_RESPONSE", message: "the server closed the connection without sending a byte" };
            const what = scan.partial
              ? `inside the body of ${scan.partial.status} (${scan.partial.body.length} body bytes received)`
              : `inside the response head (${bytes.length} bytes received)`;
            return { ok: false, code: "INCOMPLETE_RESPONSE", message: `the server closed the connection ${what}: ${preview(bytes)}` };
          }
      }
    }
    if (deadline.expired) {
      const bytes = connection.bytes();
      return {
        ok: false,
        code: "TIMEOUT",
        message:
          bytes.length === 0
            ? `no response within ${timeoutMs} ms`
            : `no complete response within ${timeoutMs} ms; ${bytes.length} bytes received: ${preview(bytes)}`,
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
      connection.discardReceived();
      usedConnections.push(connection.id);
      await writeRequest(connection, options, deadline);
      const read = await readResponse(connection, requestMethod, deadline, options.timeoutMs);
      if (!read.ok) return fail(index, read.code, read.message);
      const response = read.value;
      if (index === repeat - 1) {
        const outcome: HttpResponseOutcome = {
          kind: "response",
          status: response.status,
          httpVersion: response.httpVersion,
          headers: response.headers,
          ...bodyFields(response.body),
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
