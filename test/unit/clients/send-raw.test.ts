import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sendRaw } from "../../../harness/clients/send-raw.ts";
import type { RawSendOptions } from "../../../harness/clients/send-raw.ts";
import type { HttpResponseOutcome, TransportFailureOutcome } from "../../../harness/clients/outcome.ts";
import { closedPort, recordingServer, response } from "./servers.ts";
import type { RecordingServer, Responder } from "./servers.ts";

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(respond: Responder): Promise<RecordingServer> {
  const server = await recordingServer(respond);
  servers.push(server);
  return server;
}

function options(port: number, overrides: Partial<RawSendOptions> = {}): RawSendOptions {
  return {
    target: { host: "127.0.0.1", port, tls: false },
    servername: null,
    data: Buffer.from("GET /raw HTTP/1.1\r\nHost: raw.test\r\n\r\n"),
    trickleMs: null,
    timeoutMs: 3_000,
    tlsClient: null,
    ...overrides,
  };
}

function asResponse(outcome: HttpResponseOutcome | TransportFailureOutcome): HttpResponseOutcome {
  if (outcome.kind !== "response") throw new Error(`expected a response, got ${outcome.code}: ${outcome.message}`);
  return outcome;
}

function asFailure(outcome: HttpResponseOutcome | TransportFailureOutcome): TransportFailureOutcome {
  if (outcome.kind !== "transport-error") throw new Error(`expected a transport error, got status ${outcome.status}`);
  return outcome;
}

describe("sendRaw", () => {
  it("sends the bytes exactly and returns the response as soon as its Content-Length is complete", async () => {
    const server = await serve((_request, socket) => socket.write(response("200 OK", [["X-A", "1"], ["x-a", "2"]], "hello")));
    const data = Buffer.from("GET /raw HTTP/1.1\r\nHost: raw.test\r\nX-Odd:  spaced \r\n\r\n");
    const started = performance.now();
    const outcome = asResponse(await sendRaw(options(server.port, { data, timeoutMs: 5_000 })));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(server.requests[0]?.bytes.equals(data)).toBe(true);
    expect(outcome.status).toBe(200);
    expect(outcome.headers).toEqual([
      ["X-A", "1"],
      ["x-a", "2"],
      ["Content-Length", "5"],
    ]);
    expect(outcome.body).toBe("hello");
    expect(outcome.connectionReused).toBeUndefined();
  });

  it("trickles one byte every trickleMs: the server receives many chunks", async () => {
    const server = await serve((_request, socket) => socket.write(response("200 OK", [])));
    const data = Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    asResponse(await sendRaw(options(server.port, { data, trickleMs: 10 })));
    expect(server.requests[0]?.bytes.equals(data)).toBe(true);
    expect(server.requests[0]?.chunks).toBeGreaterThan(data.length / 2);
    const quick = await serve((_request, socket) => socket.write(response("200 OK", [])));
    asResponse(await sendRaw(options(quick.port, { data })));
    expect(quick.requests[0]?.chunks).toBe(1);
  });

  it("does not half-close unless asked", async () => {
    const respond: Responder = (_request, socket) => setTimeout(() => socket.write(response("200 OK", [])), 50);
    const server = await serve(respond);
    asResponse(await sendRaw(options(server.port)));
    expect(server.ends[0]).toBe(false);
    const halfClosing = await serve(respond);
    asResponse(await sendRaw(options(halfClosing.port, { endAfterWrite: true })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(halfClosing.ends[0]).toBe(true);
  });

  it("reads a body without length until the server closes", async () => {
    const server = await serve((_request, socket) => {
      socket.write("HTTP/1.0 200 OK\r\n\r\npart one, ");
      setTimeout(() => socket.end("part two"), 30);
    });
    const outcome = asResponse(await sendRaw(options(server.port)));
    expect(outcome.httpVersion).toBe("1.0");
    expect(outcome.body).toBe("part one, part two");
  });

  it("decodes chunked bodies that arrive piecemeal and skips 100 Continue", async () => {
    const server = await serve((_request, socket) => {
      const pieces = ["HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-", "Encoding: chunked\r\n\r\n3\r\nab", "c\r\n", "0\r\n\r\n"];
      pieces.forEach((piece, i) => setTimeout(() => socket.write(piece), i * 15));
    });
    const outcome = asResponse(await sendRaw(options(server.port)));
    expect(outcome.status).toBe(200);
    expect(outcome.body).toBe("abc");
  });

  it("a HEAD answer ends after its head whatever Content-Length says", async () => {
    const server = await serve((_request, socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n"));
    const outcome = asResponse(await sendRaw(options(server.port, { data: Buffer.from("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"), timeoutMs: 1_000 })));
    expect(outcome.bodyBytes).toBe(0);
    expect(outcome.headers).toEqual([["Content-Length", "1234"]]);
  });

  it("returns an early answer even when the server closes while the client still trickles", async () => {
    const server = net.createServer((socket) => {
      socket.on("error", () => undefined);
      socket.once("data", () => socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const port = (server.address() as net.AddressInfo).port;
    const outcome = asResponse(await sendRaw(options(port, { trickleMs: 20 })));
    expect(outcome.status).toBe(408);
  });

  it("repeats on one connection while the server keeps it, and on a new one when it closes", async () => {
    const keeping = await serve((_request, socket) => socket.write(response("200 OK", [], "k")));
    const reused = asResponse(await sendRaw(options(keeping.port, { repeat: 3 })));
    expect(keeping.requests).toHaveLength(3);
    expect(keeping.connections).toBe(1);
    expect(reused.connectionReused).toBe(true);
    const closing = await serve((_request, socket) => socket.end(response("200 OK", [["Connection", "close"]], "c")));
    const fresh = asResponse(await sendRaw(options(closing.port, { repeat: 2 })));
    expect(closing.connections).toBe(2);
    expect(fresh.connectionReused).toBe(false);
  });
});

describe("sendRaw failures are returned", () => {
  it("EMPTY_RESPONSE when the server closes without a byte", async () => {
    const server = await serve((_request, socket) => socket.end());
    const outcome = asFailure(await sendRaw(options(server.port)));
    expect(outcome.code).toBe("EMPTY_RESPONSE");
  });

  it("ECONNRESET when the server resets", async () => {
    const server = await serve((_request, socket) => socket.resetAndDestroy());
    const outcome = asFailure(await sendRaw(options(server.port)));
    expect(outcome.code).toBe("ECONNRESET");
  });

  it("ECONNREFUSED", async () => {
    const outcome = asFailure(await sendRaw(options(await closedPort())));
    expect(outcome.code).toBe("ECONNREFUSED");
  });

  it("TIMEOUT within timeoutMs, the partial bytes in the message", async () => {
    const server = await serve((_request, socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"));
    const started = performance.now();
    const outcome = asFailure(await sendRaw(options(server.port, { timeoutMs: 250 })));
    expect(performance.now() - started).toBeLessThan(800);
    expect(outcome.code).toBe("TIMEOUT");
    expect(outcome.message).toBe("no complete response within 250 ms; 42 bytes received: HTTP/1.1 200 OK\\r\\nContent-Length: 10\\r\\n\\r\\nabc");
  });

  it("TIMEOUT with nothing received", async () => {
    const server = await serve(() => undefined);
    const outcome = asFailure(await sendRaw(options(server.port, { timeoutMs: 200 })));
    expect(outcome.code).toBe("TIMEOUT");
    expect(outcome.message).toBe("no response within 200 ms");
  });

  it("INCOMPLETE_RESPONSE when the server closes inside the body", async () => {
    const server = await serve((_request, socket) => socket.end("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"));
    const outcome = asFailure(await sendRaw(options(server.port)));
    expect(outcome.code).toBe("INCOMPLETE_RESPONSE");
    expect(outcome.message).toMatch(/inside the body of 200 \(3 body bytes received\)/);
  });

  it("the parser's code for invalid bytes, without waiting for the close", async () => {
    const server = await serve((_request, socket) => socket.write("HTTP/1.1 200 OK\r\nBad Header: x\r\n\r\n"));
    const outcome = asFailure(await sendRaw(options(server.port, { timeoutMs: 2_000 })));
    expect(outcome.code).toBe("HPE_INVALID_HEADER_TOKEN");
    expect(outcome.durationMs).toBeLessThan(1_000);
  });

  it("throws on invalid options", async () => {
    await expect(sendRaw(options(0))).rejects.toThrow(/port/);
    await expect(sendRaw(options(80, { data: Buffer.alloc(0) }))).rejects.toThrow(/data/);
    await expect(sendRaw(options(80, { repeat: 0 }))).rejects.toThrow(/repeat/);
  });
});
