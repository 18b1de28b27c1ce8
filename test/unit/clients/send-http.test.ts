import { createHash } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { rawFallbackReason, sendHttp } from "../../../harness/clients/send-http.ts";
import type { HttpResponseOutcome, TransportFailureOutcome } from "../../../harness/clients/outcome.ts";
import { closedPort, plan, recordingServer, response } from "./servers.ts";
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

function asResponse(outcome: HttpResponseOutcome | TransportFailureOutcome): HttpResponseOutcome {
  if (outcome.kind !== "response") throw new Error(`expected a response, got ${outcome.code}: ${outcome.message}`);
  return outcome;
}

function asFailure(outcome: HttpResponseOutcome | TransportFailureOutcome): TransportFailureOutcome {
  if (outcome.kind !== "transport-error") throw new Error(`expected a transport error, got status ${outcome.status}`);
  return outcome;
}

describe("sendHttp through undici", () => {
  it("sends the plan's headers in order with duplicates, and keeps the response's order, duplicates and case", async () => {
    const server = await serve((_request, socket) => {
      socket.write(
        "HTTP/1.1 200 OK\r\nX-B: 1\r\nx-a: 2\r\nSet-Cookie: one=1\r\nX-B: 3\r\nset-cookie: two=2\r\nContent-Length: 2\r\n\r\nok",
      );
    });
    const outcome = asResponse(
      await sendHttp(
        plan(server.port, {
          headers: [
            ["X-Second", "b"],
            ["x-first", "a"],
            ["X-Second", "c"],
            ["Accept", "*/*"],
          ],
        }),
      ),
    );
    const [request] = server.requests;
    expect(request?.requestLine).toBe("GET / HTTP/1.1");
    expect(request?.headerLines).toEqual([
      `host: 127.0.0.1:${server.port}`,
      "connection: keep-alive",
      "X-Second: b",
      "x-first: a",
      "X-Second: c",
      "Accept: */*",
    ]);
    expect(outcome.status).toBe(200);
    expect(outcome.httpVersion).toBe("1.1");
    expect(outcome.headers).toEqual([
      ["X-B", "1"],
      ["x-a", "2"],
      ["Set-Cookie", "one=1"],
      ["X-B", "3"],
      ["set-cookie", "two=2"],
      ["Content-Length", "2"],
    ]);
    expect(outcome.body).toBe("ok");
    expect(outcome.bodyBytes).toBe(2);
    expect(outcome.bodySha256).toBe(createHash("sha256").update("ok").digest("hex"));
    expect(outcome.connectionReused).toBeUndefined();
  });

  it("overrides Host, adds Basic credentials after it, sends a body with its length, UTF-8 on the wire", async () => {
    const server = await serve((_request, socket) => socket.write(response("201 Created", [])));
    const outcome = asResponse(
      await sendHttp(
        plan(server.port, {
          method: "POST",
          path: "/form?q=1",
          hostHeader: "www.example.test",
          auth: { user: "alice", password: "pässword" },
          headers: [["X-Name", "café"]],
          body: "a=ü",
        }),
      ),
    );
    expect(outcome.status).toBe(201);
    const [request] = server.requests;
    expect(request?.requestLine).toBe("POST /form?q=1 HTTP/1.1");
    expect(request?.headerLines).toEqual([
      "host: www.example.test",
      "connection: keep-alive",
      `authorization: Basic ${Buffer.from("alice:pässword", "utf8").toString("base64")}`,
      "X-Name: café",
      "content-length: 4",
    ]);
    expect(request?.body.toString("utf8")).toBe("a=ü");
  });

  it("does not follow redirects", async () => {
    const server = await serve((_request, socket) => socket.write(response("302 Found", [["Location", "/elsewhere"]], "moved")));
    const outcome = asResponse(await sendHttp(plan(server.port, { path: "/old" })));
    expect(outcome.status).toBe(302);
    expect(outcome.headers).toContainEqual(["Location", "/elsewhere"]);
    expect(server.requests).toHaveLength(1);
  });

  it("reads the response's own HTTP version (HTTP/1.0 answer to an HTTP/1.1 request)", async () => {
    const server = await serve((_request, socket) => socket.end("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nold"));
    const outcome = asResponse(await sendHttp(plan(server.port)));
    expect(outcome.httpVersion).toBe("1.0");
    expect(outcome.body).toBe("old");
  });

  it("decodes a chunked response", async () => {
    const server = await serve((_request, socket) =>
      socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\n\r\n"),
    );
    const outcome = asResponse(await sendHttp(plan(server.port)));
    expect(outcome.body).toBe("hello, world");
    expect(outcome.bodyBytes).toBe(12);
    expect(outcome.headers).toEqual([["Transfer-Encoding", "chunked"]]);
  });

  it("skips 1xx interim responses and records the final one's headers", async () => {
    const server = await serve((_request, socket) => {
      socket.write("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n");
      setTimeout(() => socket.write(response("200 OK", [["X-Final", "yes"]], "done")), 20);
    });
    const outcome = asResponse(await sendHttp(plan(server.port)));
    expect(outcome.status).toBe(200);
    expect(outcome.headers).toEqual([
      ["X-Final", "yes"],
      ["Content-Length", "4"],
    ]);
    expect(outcome.body).toBe("done");
  });

  it("cuts the body text at 64 KiB but counts and hashes all of it; invalid UTF-8 becomes latin1", async () => {
    const big = Buffer.alloc(100_000, "x");
    const binary = Buffer.from([0x66, 0xff, 0xfe, 0x00, 0x41]);
    const server = await serve((request, socket) => {
      const body = request.requestLine.includes("/big") ? big : binary;
      socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`), body]));
    });
    const large = asResponse(await sendHttp(plan(server.port, { path: "/big" })));
    expect(large.body).toHaveLength(64 * 1024);
    expect(large.bodyBytes).toBe(100_000);
    expect(large.bodySha256).toBe(createHash("sha256").update(big).digest("hex"));
    const bin = asResponse(await sendHttp(plan(server.port, { path: "/bin" })));
    expect(bin.body).toBe(binary.toString("latin1"));
    expect(bin.bodyBytes).toBe(5);
  });
});

describe("sendHttp keep-alive", () => {
  it("detects reuse: 2 requests, 1 connection", async () => {
    const server = await serve((_request, socket) => socket.write(response("200 OK", [], "again")));
    const outcome = asResponse(await sendHttp(plan(server.port, { keepAliveRequests: 2 })));
    expect(server.requests).toHaveLength(2);
    expect(server.connections).toBe(1);
    expect(outcome.connectionReused).toBe(true);
    expect(outcome.body).toBe("again");
  });

  it("detects no reuse when the server answers Connection: close", async () => {
    const server = await serve((_request, socket) => socket.end(response("200 OK", [["Connection", "close"]], "bye")));
    const outcome = asResponse(await sendHttp(plan(server.port, { keepAliveRequests: 2 })));
    expect(server.requests).toHaveLength(2);
    expect(server.connections).toBe(2);
    expect(outcome.connectionReused).toBe(false);
  });

  it("keeps the connection after HEAD (undici would close it)", async () => {
    const server = await serve((_request, socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"));
    const outcome = asResponse(await sendHttp(plan(server.port, { method: "HEAD", keepAliveRequests: 2 })));
    expect(server.connections).toBe(1);
    expect(outcome.connectionReused).toBe(true);
    expect(outcome.bodyBytes).toBe(0);
    expect(outcome.headers).toEqual([["Content-Length", "5"]]);
  });

  it("works against node:http with its Keep-Alive hints", async () => {
    const connections = new Set<net.Socket>();
    const server = http.createServer({ keepAliveTimeout: 1_000 }, (req, res) => {
      connections.add(req.socket);
      res.end(`seen ${connections.size}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push({
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    });
    const port = (server.address() as net.AddressInfo).port;
    const outcome = asResponse(await sendHttp(plan(port, { keepAliveRequests: 3 })));
    expect(outcome.connectionReused).toBe(true);
    expect(outcome.body).toBe("seen 1");
    expect(outcome.headers.map(([name]) => name)).toContain("Keep-Alive");
  });
});

describe("sendHttp transport failures are returned, not thrown", () => {
  it("a server that closes the connection without answering", async () => {
    const server = await serve((_request, socket) => socket.destroy());
    const outcome = asFailure(await sendHttp(plan(server.port)));
    expect(outcome.code).toBe("UND_ERR_SOCKET");
    expect(outcome.message).toMatch(/closed/);
  });

  it("a server that resets the connection", async () => {
    const server = await serve((_request, socket) => socket.resetAndDestroy());
    const outcome = asFailure(await sendHttp(plan(server.port)));
    expect(outcome.code).toBe("ECONNRESET");
  });

  it("connection refused", async () => {
    const outcome = asFailure(await sendHttp(plan(await closedPort())));
    expect(outcome.code).toBe("ECONNREFUSED");
  });

  it("a server that never answers: TIMEOUT within timeoutMs", async () => {
    const server = await serve(() => undefined);
    const started = performance.now();
    const outcome = asFailure(await sendHttp(plan(server.port, { timeoutMs: 300 })));
    const elapsed = performance.now() - started;
    expect(outcome.code).toBe("TIMEOUT");
    expect(outcome.message).toBe("no response within 300 ms");
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_000);
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
  });

  it("a response cut short before its Content-Length: TIMEOUT noting the partial bytes", async () => {
    const server = await serve((_request, socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"));
    const outcome = asFailure(await sendHttp(plan(server.port, { timeoutMs: 300 })));
    expect(outcome.code).toBe("TIMEOUT");
    expect(outcome.message).toMatch(/42 bytes received: HTTP\/1\.1 200 OK\\r\\n/);
  });

  it("invalid response bytes: an HPE_ code", async () => {
    const server = await serve((_request, socket) => socket.write("HTTX/1.1 200 OK\r\n\r\n"));
    const outcome = asFailure(await sendHttp(plan(server.port)));
    expect(outcome.code).toMatch(/^HPE_/);
    expect(outcome.code).toBe("HPE_INVALID_CONSTANT");
  });

  it("parser codes for other invalid answers", async () => {
    const answers: Record<string, string> = {
      "HTTP/1.1 200 OK\r\nBad Header: x\r\nContent-Length: 0\r\n\r\n": "HPE_INVALID_HEADER_TOKEN",
      // llhttp refuses the duplicate; undici reports it as a length mismatch.
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx": "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
      "HTTP/1.1 2000 OK\r\n\r\n": "HPE_INVALID_STATUS",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n": "HPE_INVALID_CHUNK_SIZE",
    };
    const server = await serve((request, socket) => socket.write(Object.keys(answers)[Number(request.requestLine.split(" ")[1]?.slice(1))] ?? ""));
    const codes = [];
    for (let i = 0; i < Object.keys(answers).length; i++) {
      const outcome = asFailure(await sendHttp(plan(server.port, { path: `/${i}` })));
      codes.push(outcome.code);
    }
    expect(codes).toEqual(Object.values(answers));
  });

  it("names which of several keep-alive requests failed", async () => {
    const server = await serve((request, socket) => {
      if (server.requests.length === 1) socket.write(response("200 OK", []));
      else socket.destroy();
      void request;
    });
    const outcome = asFailure(await sendHttp(plan(server.port, { keepAliveRequests: 2 })));
    expect(outcome.message).toMatch(/^request 2 of 2: /);
  });

  it("throws on an invalid plan (a programming error)", async () => {
    await expect(sendHttp(plan(80, { keepAliveRequests: 0 }))).rejects.toThrow(/keepAliveRequests/);
    await expect(sendHttp(plan(80, { timeoutMs: 0 }))).rejects.toThrow(/timeoutMs/);
  });
});

describe("sendHttp falls back to the raw sender", () => {
  it("sends HTTP/1.0 on the request line and reads a close-delimited answer", async () => {
    const server = await serve((_request, socket) => socket.end("HTTP/1.0 200 OK\r\nServer: old\r\n\r\nuntil close"));
    const outcome = asResponse(await sendHttp(plan(server.port, { httpVersion: "1.0", path: "/x", headers: [["X-A", "1"]] })));
    const [request] = server.requests;
    expect(request?.requestLine).toBe("GET /x HTTP/1.0");
    expect(request?.headerLines).toEqual([`host: 127.0.0.1:${server.port}`, "X-A: 1"]);
    expect(outcome.httpVersion).toBe("1.0");
    expect(outcome.headers).toEqual([["Server", "old"]]);
    expect(outcome.body).toBe("until close");
  });

  it("HTTP/1.0 with keep-alive asks for it and detects reuse", async () => {
    const server = await serve((_request, socket) => socket.write(response("200 OK", [["Connection", "Keep-Alive"]], "ka")));
    const outcome = asResponse(await sendHttp(plan(server.port, { httpVersion: "1.0", keepAliveRequests: 2 })));
    expect(server.requests.map((r) => r.headerLines)).toEqual([
      [`host: 127.0.0.1:${server.port}`, "connection: keep-alive"],
      [`host: 127.0.0.1:${server.port}`, "connection: keep-alive"],
    ]);
    expect(server.connections).toBe(1);
    expect(outcome.connectionReused).toBe(true);
  });

  it("sends a duplicate Host as asked", async () => {
    const server = await serve((_request, socket) => socket.write(response("400 Bad Request", [])));
    const outcome = asResponse(await sendHttp(plan(server.port, { hostHeader: "a.test", headers: [["Host", "b.test"]] })));
    expect(outcome.status).toBe(400);
    expect(server.requests[0]?.headerLines).toEqual(["host: a.test", "connection: keep-alive", "Host: b.test"]);
  });

  it("sends a plan's own Transfer-Encoding and Connection headers verbatim", async () => {
    const server = await serve((_request, socket) => socket.write(response("200 OK", [])));
    await sendHttp(
      plan(server.port, {
        method: "POST",
        headers: [
          ["Connection", "Close"],
          ["Content-Length", "3"],
          ["Transfer-Encoding", "identity"],
        ],
        body: "abc",
      }),
    );
    expect(server.requests[0]?.headerLines).toEqual([`host: 127.0.0.1:${server.port}`, "Connection: Close", "Content-Length: 3", "Transfer-Encoding: identity"]);
    expect(server.requests[0]?.body.toString()).toBe("abc");
  });

  it("sends what undici refuses at dispatch (a path with a space) as is", async () => {
    const server = await serve((_request, socket) => socket.write(response("400 Bad Request", [])));
    const outcome = asResponse(await sendHttp(plan(server.port, { path: "/a b" })));
    expect(outcome.status).toBe(400);
    expect(server.requests[0]?.requestLine).toBe("GET /a b HTTP/1.1");
  });

  it("sends CONNECT raw and ends its 2xx answer after the head", async () => {
    const server = await serve((_request, socket) => socket.write("HTTP/1.1 200 Connection Established\r\n\r\n"));
    const outcome = asResponse(await sendHttp(plan(server.port, { method: "CONNECT", path: "origin.test:443", hostHeader: "origin.test:443", timeoutMs: 1_000 })));
    expect(server.requests[0]?.requestLine).toBe("CONNECT origin.test:443 HTTP/1.1");
    expect(outcome.status).toBe(200);
  });

  it("a 100 Continue before the final answer is skipped on the raw path", async () => {
    const server = await serve((_request, socket) => socket.end("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"));
    const outcome = asResponse(await sendHttp(plan(server.port, { httpVersion: "1.0" })));
    expect(outcome.status).toBe(200);
    expect(outcome.body).toBe("hi");
  });

  it("invalid response bytes on the raw path: the parser's HPE_ code", async () => {
    const server = await serve((_request, socket) => socket.end("garbage\r\n\r\n"));
    const outcome = asFailure(await sendHttp(plan(server.port, { httpVersion: "1.0" })));
    expect(outcome.code).toBe("HPE_INVALID_CONSTANT");
    expect(outcome.message).toMatch(/garbage/);
  });
});

describe("rawFallbackReason", () => {
  it("names what undici cannot send and is null otherwise", () => {
    expect(rawFallbackReason(plan(1))).toBeNull();
    expect(rawFallbackReason(plan(1, { headers: [["Host", "a"]] }))).toBeNull();
    expect(rawFallbackReason(plan(1, { httpVersion: "1.0" }))).toMatch(/HTTP\/1\.0/);
    expect(rawFallbackReason(plan(1, { hostHeader: "a", headers: [["host", "b"]] }))).toMatch(/Host/);
    expect(rawFallbackReason(plan(1, { headers: [["Transfer-Encoding", "chunked"]] }))).toMatch(/transfer-encoding/);
    expect(rawFallbackReason(plan(1, { headers: [["Expect", "100-continue"]] }))).toMatch(/expect/);
    expect(rawFallbackReason(plan(1, { headers: [["Connection", "close"]] }))).toMatch(/connection/);
    expect(rawFallbackReason(plan(1, { headers: [["content-length", "0"]] }))).toMatch(/content-length/);
    expect(rawFallbackReason(plan(1, { method: "CONNECT" }))).toMatch(/CONNECT/);
  });
});
