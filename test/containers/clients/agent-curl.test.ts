// A batch's requests through libcurl inside the exec agent (docker/tools/agent_curl.py) against the curl program, on
// the same requests in the same container: the same bytes on the wire (the server answers with what it read, and
// over TLS with the name, protocol, ALPN and cipher it negotiated), the same answer as curl writes it (-i --raw), the
// same exit status and error line, for answers of every awkward kind (chunked, gzip, interim, HTTP/0.9, none, cut
// off, never, malformed, ended by the close) and a refused connection. The in-process runs happen with the curl
// program moved away, so none of them could have been the program; an argument list it does not know still goes to
// the program.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { agentBatch, type BatchItem } from "../../../harness/clients/client-batch.ts";
import type { ContainerHttpPlan } from "../../../harness/clients/client-container.ts";
import { HarnessContainer } from "../../../harness/engine/container.ts";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";

const WIRE = readFileSync(new URL("./agent-curl-wire.py", import.meta.url));

/** One item of a batch as the agent printed it. */
interface RawRecord {
  index: number;
  exit: number;
  answer: Buffer;
  stderr: string;
  port: number;
}

/** Splits a batch's stdout into its records (clients/client-batch.ts: `@@hb` header, answer, stderr). */
function records(output: Buffer): RawRecord[] {
  const found: RawRecord[] = [];
  let at = 0;
  while (at < output.length) {
    const end = output.indexOf(10, at);
    const header = /^@@hb (\d+) (\d+) (\d+) (\d+) [0-9.]+ (\d+)$/.exec(output.subarray(at, end).toString("latin1"));
    if (header === null) throw new Error(`not a record header at ${at}: ${output.subarray(at, at + 80).toString("latin1")}`);
    const [index, exit, answerBytes, stderrBytes, port] = header.slice(1).map(Number) as [number, number, number, number, number];
    const answer = output.subarray(end + 1, end + 1 + answerBytes);
    const stderr = output.subarray(end + 1 + answerBytes, end + 1 + answerBytes + stderrBytes).toString("utf8");
    found.push({ index, exit, answer, stderr, port });
    at = end + 1 + answerBytes + stderrBytes;
  }
  return found;
}

/** What must be alike: all of it, but for the server's Date header, the durations in curl's error lines and the
 * client port (its presence must be alike). */
function essence(record: RawRecord) {
  return {
    index: record.index,
    exit: record.exit,
    answer: record.answer.toString("latin1").replace(/^Date: .*$/gim, "Date: (a date)"),
    stderr: record.stderr.replace(/\d+ (ms|milliseconds)/g, "N $1"),
    connected: record.port > 0,
  };
}

const plan = (path: string, extra: Partial<ContainerHttpPlan> = {}): ContainerHttpPlan => ({
  method: "GET",
  path,
  hostHeader: null,
  headers: [],
  body: null,
  auth: null,
  httpVersion: "1.1",
  timeoutMs: 3_000,
  keepAliveRequests: 1,
  serverIp: "127.0.0.1",
  port: 8080,
  tls: false,
  clientCertificate: null,
  ...extra,
});

const ITEMS: Array<{ name: string; plan: ContainerHttpPlan }> = [
  { name: "a plain GET", plan: plan("/echo") },
  { name: "a Host header, odd header values, credentials", plan: plan("/echo", { hostHeader: "www.example.test", headers: [["X-Odd", "$HOME `id` \"q\" ü"], ["Accept", "text/html"]], auth: { user: "alice", password: "s3cr:t" } }) },
  { name: "a POST with a body", plan: plan("/echo", { method: "POST", body: "a=1&b='2'", headers: [["Content-Type", "application/x-www-form-urlencoded"]] }) },
  { name: "a PUT with an empty body", plan: plan("/echo", { method: "PUT", body: "" }) },
  { name: "HEAD", plan: plan("/echo", { method: "HEAD" }) },
  { name: "HTTP/1.0", plan: plan("/echo", { httpVersion: "1.0" }) },
  { name: "a custom method", plan: plan("/echo", { method: "PROPFIND" }) },
  { name: "a path kept as written", plan: plan("/echo/./a/../%2e%2e//b?q=1&r=%20") },
  { name: "brackets and braces in the path, not globbed", plan: plan("/echo?list[1-2]={a,b}") },
  { name: "a chunked answer, raw", plan: plan("/chunked") },
  { name: "a gzip answer, raw", plan: plan("/gzip") },
  { name: "an interim answer before the final one", plan: plan("/interim") },
  { name: "an HTTP/0.9 answer", plan: plan("/http09") },
  { name: "no answer, the connection closed", plan: plan("/empty") },
  { name: "an answer cut off by a reset", plan: plan("/reset") },
  { name: "an answer that never comes", plan: plan("/silent", { timeoutMs: 1_000 }) },
  { name: "a malformed status line", plan: plan("/bad") },
  { name: "a body ended by the close", plan: plan("/close") },
  { name: "a refused connection", plan: plan("/echo", { port: 9 }) },
  { name: "TLS with a server name", plan: plan("/echo", { tls: true, port: 8443, hostHeader: "www.example.test" }) },
  { name: "TLS to an address, no server name", plan: plan("/echo", { tls: true, port: 8443 }) },
];

describe("a batch's requests through libcurl in the exec agent", { timeout: 120_000 }, () => {
  let scope: RunScope;
  let client: HarnessContainer;

  beforeAll(async () => {
    scope = new RunScope(await connectEngine());
    client = await HarnessContainer.create(scope, { image: inject("images").tools, role: "client", scenario: "agent-curl", agent: true });
    await client.start();
    await client.exec(["sh", "-c", "cat > /tmp/wire.py"], { stdin: WIRE });
    const setUp = [
      "cd /tmp && openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=wire -keyout key.pem -out cert.pem -days 2 2>/dev/null",
      "(python3 /tmp/wire.py 8080 8443 /tmp/cert.pem /tmp/key.pem >/tmp/wire.log 2>&1 &)",
      "for i in $(seq 50); do (echo > /dev/tcp/127.0.0.1/8443) 2>/dev/null && break; python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", 8443), 1)' 2>/dev/null && break; sleep 0.1; done",
    ].join(" && ");
    const ready = await client.exec(["bash", "-c", setUp]);
    expect(ready.exitCode, ready.stderr).toBe(0);
  }, 60_000);

  afterAll(async () => {
    await scope?.[Symbol.asyncDispose]();
  }, 60_000);

  async function run(items: readonly BatchItem[], program: boolean): Promise<RawRecord[]> {
    const chunks: Buffer[] = [];
    const result = await client.agent!.batch({ ...agentBatch(items, 0), program }, { timeoutMs: 60_000, onStdout: (chunk) => chunks.push(Buffer.from(chunk)) });
    expect(result.exitCode, result.stderr).toBe(0);
    return records(Buffer.concat(chunks));
  }

  it("send, receive and report what the curl program does, for every kind of request and answer", async () => {
    const items = ITEMS.map(({ plan }) => ({ plan, skipAfterTimeout: false }));
    const byProgram = await run(items, true);
    // Without the program, whatever answers comes from libcurl in the agent.
    await client.exec(["mv", "/usr/bin/curl", "/usr/bin/curl.away"]);
    try {
      const inProcess = await run(items, false);
      ITEMS.forEach(({ name }, index) => expect(essence(inProcess[index]!), name).toEqual(essence(byProgram[index]!)));
    } finally {
      await client.exec(["mv", "/usr/bin/curl.away", "/usr/bin/curl"]);
    }
    // The wire server saw what the harness asked for, and the kinds of answer came out as curl reports them.
    const answer = (name: string) => byProgram[ITEMS.findIndex((item) => item.name === name)]!;
    expect(answer("a Host header, odd header values, credentials").answer.toString("utf8")).toMatch(/\r\nHost: www\.example\.test\r\nAuthorization: Basic YWxpY2U6czNjcjp0\r\nUser-Agent: curl\/[\d.]+\r\nX-Odd: \$HOME `id` "q" ü\r\nAccept: text\/html\r\n/);
    expect(answer("a path kept as written").answer.toString("latin1")).toContain("GET /echo/./a/../%2e%2e//b?q=1&r=%20 HTTP/1.1\r\n");
    expect(answer("brackets and braces in the path, not globbed").answer.toString("latin1")).toContain("GET /echo?list[1-2]={a,b} HTTP/1.1\r\n");
    expect(answer("a chunked answer, raw").answer.toString("latin1")).toContain("\r\n\r\n5\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: yes\r\n");
    expect(answer("TLS with a server name").answer.toString("latin1")).toMatch(/-- tls: name=www\.example\.test version=TLSv1\.3 alpn=http\/1\.1 cipher=\S+/);
    expect(answer("TLS to an address, no server name").answer.toString("latin1")).toContain("-- tls: name=- ");
    expect(ITEMS.map(({ name }, index) => [name, byProgram[index]!.exit])).toEqual(
      ITEMS.map(({ name }) => [name, { "an HTTP/0.9 answer": 1, "no answer, the connection closed": 52, "an answer cut off by a reset": 56, "an answer that never comes": 28, "a malformed status line": 1, "a refused connection": 7 }[name] ?? 0]),
    );
  });

  it("leave an argument list it does not know to the curl program", async () => {
    // --compressed is no option a batch gives: the item needs the program.
    const batch = agentBatch([{ plan: plan("/echo"), skipAfterTimeout: false }], 0);
    batch.items[0]!.argv.splice(1, 0, "--compressed");
    const send = async () => {
      const chunks: Buffer[] = [];
      const result = await client.agent!.batch(batch, { timeoutMs: 30_000, onStdout: (chunk) => chunks.push(Buffer.from(chunk)) });
      return { result, records: chunks.length === 0 ? [] : records(Buffer.concat(chunks)) };
    };
    await client.exec(["mv", "/usr/bin/curl", "/usr/bin/curl.away"]);
    try {
      const without = await send();
      expect(without.records).toEqual([]);
      expect(without.result.stderr).toMatch(/batch: .*curl/);
    } finally {
      await client.exec(["mv", "/usr/bin/curl.away", "/usr/bin/curl"]);
    }
    const [record] = (await send()).records;
    expect(record!.exit).toBe(0);
    expect(record!.answer.toString("latin1")).toMatch(/\r\nAccept-Encoding: \S+/);
  });
});
