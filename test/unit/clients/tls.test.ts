import net from "node:net";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servernameFor } from "../../../harness/clients/http-request.ts";
import { sendHttp } from "../../../harness/clients/send-http.ts";
import { sendRaw } from "../../../harness/clients/send-raw.ts";
import type { HttpResponseOutcome, TransportFailureOutcome } from "../../../harness/clients/outcome.ts";
import { makeCertificates, plan } from "./servers.ts";
import type { TestCertificates } from "./servers.ts";

interface Seen {
  servername: string | false | undefined;
  peerCN: string | null;
  firstLine: string;
}

let certificates: TestCertificates;
let server: tls.Server;
let port: number;
const seen: Seen[] = [];

beforeAll(async () => {
  certificates = makeCertificates();
  server = tls.createServer(
    { cert: certificates.serverCert, key: certificates.serverKey, requestCert: true, rejectUnauthorized: false },
    (socket) => {
      socket.on("error", () => undefined);
      let buffer = "";
      socket.on("data", (chunk: Buffer) => {
        buffer += chunk.toString("latin1");
        while (buffer.includes("\r\n\r\n")) {
          const end = buffer.indexOf("\r\n\r\n") + 4;
          const head = buffer.slice(0, end);
          buffer = buffer.slice(end);
          const peer = socket.getPeerCertificate();
          const peerCN = peer && peer.subject ? String(peer.subject.CN) : null;
          const entry: Seen = { servername: socket.servername ?? undefined, peerCN, firstLine: head.split("\r\n")[0] ?? "" };
          seen.push(entry);
          const body = JSON.stringify(entry);
          socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
        }
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function parsed(outcome: HttpResponseOutcome | TransportFailureOutcome): Seen {
  if (outcome.kind !== "response") throw new Error(`expected a response, got ${outcome.code}: ${outcome.message}`);
  return JSON.parse(outcome.body) as Seen;
}

const tlsTarget = () => ({ host: "127.0.0.1", port, tls: true });

describe("TLS through undici", () => {
  it("sends the Host override as SNI and does not verify the self-signed certificate", async () => {
    const entry = parsed(await sendHttp(plan(port, { target: tlsTarget(), hostHeader: "www.example.test:8443" })));
    expect(entry.servername).toBe("www.example.test");
    expect(entry.firstLine).toBe("GET / HTTP/1.1");
    expect(entry.peerCN).toBeNull();
  });

  it("sends no SNI for an IP literal", async () => {
    const entry = parsed(await sendHttp(plan(port, { target: tlsTarget() })));
    expect(entry.servername).toBeFalsy();
  });

  it("presents the client certificate", async () => {
    const entry = parsed(
      await sendHttp(
        plan(port, {
          target: tlsTarget(),
          hostHeader: "client.example.test",
          tlsClient: { certificate: certificates.clientCert, privateKey: certificates.clientKey },
        }),
      ),
    );
    expect(entry.peerCN).toBe("harness-client");
    expect(entry.servername).toBe("client.example.test");
  });

  it("reuses the TLS connection for keep-alive requests", async () => {
    const outcome = await sendHttp(plan(port, { target: tlsTarget(), hostHeader: "ka.test", keepAliveRequests: 2 }));
    expect(outcome.kind === "response" && outcome.connectionReused).toBe(true);
  });

  it("a TLS failure is an outcome with the TLS error's code", async () => {
    const notTls = net.createServer((socket) => {
      socket.on("error", () => undefined);
      socket.resume();
      socket.end("HTTP/1.1 400 Bad Request\r\n\r\nnot tls\r\n");
    });
    await new Promise<void>((resolve) => notTls.listen(0, "127.0.0.1", resolve));
    try {
      const notTlsPort = (notTls.address() as net.AddressInfo).port;
      const outcome = await sendHttp(plan(notTlsPort, { target: { host: "127.0.0.1", port: notTlsPort, tls: true } }));
      expect(outcome.kind).toBe("transport-error");
      if (outcome.kind === "transport-error") expect(outcome.code).toBe("ERR_SSL_WRONG_VERSION_NUMBER");
    } finally {
      await new Promise<void>((resolve) => notTls.close(() => resolve()));
    }
  });
});

describe("TLS through the raw sender", () => {
  it("HTTP/1.0 fallback: SNI from the Host override and the client certificate", async () => {
    const entry = parsed(
      await sendHttp(
        plan(port, {
          target: tlsTarget(),
          httpVersion: "1.0",
          hostHeader: "old.example.test",
          tlsClient: { certificate: certificates.clientCert, privateKey: certificates.clientKey },
        }),
      ),
    );
    expect(entry.firstLine).toBe("GET / HTTP/1.0");
    expect(entry.servername).toBe("old.example.test");
    expect(entry.peerCN).toBe("harness-client");
  });

  it("sendRaw over TLS with a given servername", async () => {
    const entry = parsed(
      await sendRaw({
        target: tlsTarget(),
        servername: "raw.example.test",
        data: Buffer.from("GET /raw HTTP/1.1\r\nHost: raw.example.test\r\n\r\n"),
        trickleMs: null,
        timeoutMs: 3_000,
        tlsClient: null,
      }),
    );
    expect(entry).toEqual({ servername: "raw.example.test", peerCN: null, firstLine: "GET /raw HTTP/1.1" });
  });
});

describe("TLS failures on the raw path", () => {
  it("a server that does not speak TLS", async () => {
    const notTls = net.createServer((socket) => {
      socket.on("error", () => undefined);
      socket.resume();
      socket.end("HTTP/1.1 400 Bad Request\r\n\r\nnot tls\r\n");
    });
    await new Promise<void>((resolve) => notTls.listen(0, "127.0.0.1", resolve));
    try {
      const notTlsPort = (notTls.address() as net.AddressInfo).port;
      const outcome = await sendHttp(plan(notTlsPort, { httpVersion: "1.0", target: { host: "127.0.0.1", port: notTlsPort, tls: true } }));
      expect(outcome).toMatchObject({ kind: "transport-error", code: "ERR_SSL_WRONG_VERSION_NUMBER" });
    } finally {
      await new Promise<void>((resolve) => notTls.close(() => resolve()));
    }
  });

  it("an unusable client key is an outcome, not a throw", async () => {
    const outcome = await sendHttp(
      plan(port, { httpVersion: "1.0", target: tlsTarget(), tlsClient: { certificate: "not a pem", privateKey: "not a key" } }),
    );
    expect(outcome.kind).toBe("transport-error");
    const viaUndici = await sendHttp(plan(port, { target: tlsTarget(), tlsClient: { certificate: "not a pem", privateKey: "not a key" } }));
    expect(viaUndici.kind).toBe("transport-error");
  });
});

describe("servernameFor", () => {
  it("is the Host override's name, never an IP, nothing without TLS", () => {
    const target = { host: "127.0.0.1", port: 443, tls: true };
    expect(servernameFor({ target, hostHeader: "a.test:8443" })).toBe("a.test");
    expect(servernameFor({ target, hostHeader: "10.0.0.1" })).toBeNull();
    expect(servernameFor({ target, hostHeader: "[::1]:443" })).toBeNull();
    expect(servernameFor({ target, hostHeader: null })).toBeNull();
    expect(servernameFor({ target: { host: "localhost", port: 443, tls: true }, hostHeader: null })).toBe("localhost");
    expect(servernameFor({ target: { ...target, tls: false }, hostHeader: "a.test" })).toBeNull();
  });
});
