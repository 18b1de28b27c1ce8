// Real servers on 127.0.0.1:0 for the client tests: a byte-level HTTP/1.x server that records what arrived
// (request bytes, chunk counts, connections) and answers from a script, plus helpers around it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HttpRequestPlan } from "../../../harness/clients/http-request.ts";

export interface ReceivedRequest {
  connection: number;
  /** The head and body bytes of the request as they arrived. */
  bytes: Buffer;
  /** How many `data` events delivered them. */
  chunks: number;
  head: string;
  /** Header lines after the request line, verbatim. */
  headerLines: string[];
  requestLine: string;
  body: Buffer;
  /** Whether the client half-closed before the request was complete. */
  endedEarly: boolean;
}

export type Responder = (request: ReceivedRequest, socket: net.Socket) => void;

export interface RecordingServer {
  port: number;
  requests: ReceivedRequest[];
  connections: number;
  /** `end` seen per connection, in order. */
  ends: boolean[];
  close(): Promise<void>;
}

function requestComplete(bytes: Buffer): { headEnd: number; end: number } | null {
  const headEnd = bytes.indexOf("\r\n\r\n");
  if (headEnd === -1) return null;
  const head = bytes.toString("latin1", 0, headEnd);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
  const end = headEnd + 4 + (length ? Number(length) : 0);
  return bytes.length >= end ? { headEnd, end } : null;
}

/** A server that parses request heads (Content-Length bodies) and hands each request to `respond`. */
export async function recordingServer(respond: Responder): Promise<RecordingServer> {
  const sockets = new Set<net.Socket>();
  const state: RecordingServer = {
    port: 0,
    requests: [],
    connections: 0,
    ends: [],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  // allowHalfOpen: a client's FIN does not close the server's side (so half-closing can be observed).
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    const connection = state.connections++;
    state.ends[connection] = false;
    let buffer = Buffer.alloc(0);
    let chunks = 0;
    socket.on("end", () => {
      state.ends[connection] = true;
    });
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      chunks++;
      for (;;) {
        const complete = requestComplete(buffer);
        if (!complete) return;
        const bytes = buffer.subarray(0, complete.end);
        buffer = buffer.subarray(complete.end);
        const head = bytes.toString("utf8", 0, complete.headEnd);
        const [requestLine = "", ...headerLines] = head.split("\r\n");
        const request: ReceivedRequest = {
          connection,
          bytes,
          chunks,
          head,
          headerLines,
          requestLine,
          body: bytes.subarray(complete.headEnd + 4),
          endedEarly: state.ends[connection] ?? false,
        };
        chunks = 0;
        state.requests.push(request);
        respond(request, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as net.AddressInfo).port;
  return state;
}

/** A response with a Content-Length computed from the body. */
export function response(status: string, headers: Array<[string, string]>, body = ""): Buffer {
  const bytes = Buffer.from(body, "utf8");
  const lines = [`HTTP/1.1 ${status}`, ...headers.map(([n, v]) => `${n}: ${v}`), `Content-Length: ${bytes.length}`];
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), bytes]);
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function plan(port: number, overrides: Partial<HttpRequestPlan> = {}): HttpRequestPlan {
  return {
    target: { host: "127.0.0.1", port, tls: false },
    method: "GET",
    path: "/",
    hostHeader: null,
    headers: [],
    body: null,
    auth: null,
    httpVersion: "1.1",
    keepAliveRequests: 1,
    timeoutMs: 5_000,
    tlsClient: null,
    caCertificate: null,
    ...overrides,
  };
}

export interface TestCertificates {
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** Self-signed EC certificates made with the openssl CLI: a server one and a client one (CN harness-client). */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), "clients-tls-"));
  try {
    const make = (name: string, cn: string) => {
      execFileSync(
        "openssl",
        ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", `/CN=${cn}`,
          "-keyout", join(dir, `${name}.key`), "-out", join(dir, `${name}.crt`)],
        { stdio: "pipe" },
      );
      return { cert: readFileSync(join(dir, `${name}.crt`), "utf8"), key: readFileSync(join(dir, `${name}.key`), "utf8") };
    };
    const server = make("server", "server.test");
    const client = make("client", "harness-client");
    return { serverCert: server.cert, serverKey: server.key, clientCert: client.cert, clientKey: client.key };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
