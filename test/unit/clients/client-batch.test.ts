import { describe, expect, it } from "vitest";
import { BatchReader, batchable, batchScript, shellQuote } from "../../../harness/clients/client-batch.ts";
import type { ContainerHttpPlan } from "../../../harness/clients/client-container.ts";

const PLAN: ContainerHttpPlan = {
  method: "GET",
  path: "/",
  hostHeader: null,
  headers: [],
  body: null,
  auth: null,
  httpVersion: "1.1",
  timeoutMs: 10_000,
  keepAliveRequests: 1,
  serverIp: "10.77.1.2",
  tls: false,
  clientCertificate: null,
};

function record(index: number, exit: number, answer: Buffer | string, stderr = "", seconds = "0.004210", port = 40001): Buffer {
  const out = Buffer.from(answer);
  const err = Buffer.from(stderr);
  return Buffer.concat([Buffer.from(`@@hb ${index} ${exit} ${out.length} ${err.length} ${seconds} ${port}\n`), out, err]);
}

/** Feeds the stream one byte at a time: records must not depend on how the engine cuts its frames. */
function readAll(stream: Buffer, methods: string[]): BatchReader {
  let clock = 1_000;
  const reader = new BatchReader(methods, [], () => clock++);
  for (let i = 0; i < stream.length; i++) reader.push(stream.subarray(i, i + 1));
  return reader;
}

describe("BatchReader", () => {
  it("turns length-framed curl records into the outcomes single sends give, whatever bytes a body holds", () => {
    const trap = "@@hb 1 0 5 0 0.1 2\nnot a record";
    const stream = Buffer.concat([
      record(0, 0, `HTTP/1.1 200 OK\r\nContent-Length: ${trap.length}\r\nX-A: 1\r\nX-A: 2\r\n\r\n${trap}`),
      record(1, 0, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", "", "0.120000", 40002),
      record(2, 7, "", "curl: (7) Failed to connect to 10.77.1.2 port 81: Connection refused\n", "0.001000", 0),
      Buffer.from("@@hb 3 skip\n"),
      record(4, 0, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", "", "0.002", 40003),
    ]);
    const reader = readAll(stream, ["GET", "GET", "GET", "GET", "HEAD"]);
    expect(reader.complete).toBe(true);
    const [ok, denied, refused, skipped, head] = reader.records;
    expect(ok).toMatchObject({ index: 0, localPort: 40001, outcome: { kind: "response", status: 200, body: trap, durationMs: 4 } });
    expect(ok!.outcome).toMatchObject({ headers: [["Content-Length", String(trap.length)], ["X-A", "1"], ["X-A", "2"]], httpVersion: "1.1" });
    expect(denied).toMatchObject({ index: 1, localPort: 40002, outcome: { kind: "response", status: 403, durationMs: 120 } });
    expect(refused).toMatchObject({ index: 2, localPort: null, outcome: { kind: "transport-error", code: "ECONNREFUSED", message: expect.stringContaining("Connection refused") } });
    expect(skipped).toMatchObject({ index: 3, outcome: null });
    // A HEAD answer has no body, whatever its Content-Length says.
    expect(head).toMatchObject({ index: 4, outcome: { kind: "response", status: 200, body: "" } });
    expect(reader.records.map((r) => r.receivedAt)).toEqual([...reader.records.map((r) => r.receivedAt)].sort((a, b) => a - b));
  });

  it("says when the stream stopped inside a record", () => {
    const cut = record(0, 0, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi").subarray(0, 50);
    const reader = readAll(cut, ["GET"]);
    expect(reader.complete).toBe(false);
    expect(reader.records).toEqual([]);
  });

  it("refuses what is not a record", () => {
    expect(() => new BatchReader(["GET"]).push(Buffer.from("HTTP/1.1 200 OK\n"))).toThrow(/not a record header/);
  });
});

describe("batchScript", () => {
  it("runs one curl per request writing to files, pauses between them, and skips a repeat after a timeout", () => {
    const script = batchScript(
      [
        { plan: PLAN, skipAfterTimeout: false },
        { plan: PLAN, skipAfterTimeout: true },
        { plan: { ...PLAN, method: "POST", body: "a'b\n" }, skipAfterTimeout: false },
      ],
      30,
    );
    const lines = script.split("\n");
    expect(lines[0]).toBe("d=$(mktemp -d) || exit 97");
    expect(lines[3]).toContain("t=$('curl' '-sS' '-i' '--raw' '--path-as-is' '--globoff' '--max-time' '10' '-X' 'GET' '--http1.1' 'http://10.77.1.2:80/' -o o -w '%{time_total} %{local_port}' 2>e); c=$?");
    expect(lines[3]).not.toContain("sleep");
    expect(lines[4]).toMatch(/^if \[ "\$c" = 28 \]; then printf '@@hb 1 skip\\n'; else sleep 0\.030; /);
    expect(lines[5]).toContain(`printf '%s' '${Buffer.from("a'b\n").toString("base64")}' | base64 -d > b`);
    expect(lines[5]).toContain("'--data-binary' '@b'");
    expect(lines.at(-1)).toBe('cd / && rm -rf "$d"');
  });

  it("quotes for sh", () => {
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
  });

  it("keeps keep-alive series, client certificates and large bodies out of batches", () => {
    expect(batchable(PLAN)).toBe(true);
    expect(batchable({ ...PLAN, keepAliveRequests: 2 })).toBe(false);
    expect(batchable({ ...PLAN, clientCertificate: { certificate: "c", privateKey: "k" } })).toBe(false);
    expect(batchable({ ...PLAN, body: "x".repeat(64 * 1024 + 1) })).toBe(false);
    expect(batchable({ ...PLAN, body: "x".repeat(64 * 1024) })).toBe(true);
  });
});
