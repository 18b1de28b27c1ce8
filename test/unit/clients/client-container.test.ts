import { describe, expect, it } from "vitest";
import { type ContainerHttpPlan, curlCommand, lastTransferReused, rawClientCommand, transferPorts } from "../../../harness/clients/client-container.ts";

const PLAN: ContainerHttpPlan = {
  method: "GET",
  path: "/server-status?auto",
  hostHeader: null,
  headers: [],
  body: null,
  auth: null,
  httpVersion: "1.1",
  timeoutMs: 10_000,
  keepAliveRequests: 1,
  serverIp: "172.18.0.2",
  tls: false,
  clientCertificate: null,
};

describe("curlCommand", () => {
  it("asks for HEAD with --head, which reads no body, not -X HEAD, which waits for the one announced", () => {
    expect(curlCommand({ ...PLAN, method: "HEAD" }).slice(7, 10)).toEqual(["10", "--head", "--http1.1"]);
  });

  it("sends to the server's address on the scenario network", () => {
    expect(curlCommand(PLAN)).toEqual([
      "curl", "-sS", "-i", "--raw", "--path-as-is", "--globoff", "--max-time", "10", "-X", "GET", "--http1.1", "http://172.18.0.2:80/server-status?auto",
    ]);
  });

  it("sends to the port the request names (a tree's vhost on 8080), and resolves the TLS name on it", () => {
    expect(curlCommand({ ...PLAN, port: 8080 }).at(-1)).toBe("http://172.18.0.2:8080/server-status?auto");
    const tls = curlCommand({ ...PLAN, port: 8443, tls: true, hostHeader: "admin.example.com" });
    expect(tls).toContain("https://admin.example.com:8443/server-status?auto");
    expect(tls).toContain("admin.example.com:8443:172.18.0.2");
  });

  it("writes an IPv6 loopback address in brackets, in the URL and where TLS resolves the server name", () => {
    expect(curlCommand({ ...PLAN, serverIp: "::1" }).at(-1)).toBe("http://[::1]:80/server-status?auto");
    const tls = curlCommand({ ...PLAN, serverIp: "::1", tls: true, hostHeader: "www.example.com" });
    expect(tls).toContain("https://www.example.com:443/server-status?auto");
    expect(tls.slice(tls.indexOf("--resolve"), tls.indexOf("--resolve") + 2)).toEqual(["--resolve", "www.example.com:443:[::1]"]);
    expect(curlCommand({ ...PLAN, serverIp: "127.0.0.1", tls: true }).at(-1)).toBe("https://127.0.0.1:443/server-status?auto");
  });

  it("sends the Host header, headers, auth, body and client certificate as asked", () => {
    const args = curlCommand({
      ...PLAN,
      serverIp: "127.0.0.1",
      method: "POST",
      hostHeader: "admin.test",
      headers: [["X-A", "1"]],
      auth: { user: "alice", password: "secret" },
      body: "a=1",
      httpVersion: "1.0",
    });
    expect(args).toEqual(expect.arrayContaining(["--http1.0", "-H", "Host: admin.test", "X-A: 1", "-u", "alice:secret", "--data-binary", "@-"]));
    expect(args.at(-1)).toBe("http://127.0.0.1:80/server-status?auto");
  });

  it("gives a keep-alive series the same URL N times, dropping all answers but the last, and asks 1.0 to keep the connection", () => {
    const args = curlCommand({ ...PLAN, serverIp: "::1", keepAliveRequests: 3, httpVersion: "1.0" });
    const url = "http://[::1]:80/server-status?auto";
    expect(args.filter((arg) => arg === url)).toHaveLength(3);
    expect(args.filter((arg) => arg === "/dev/null")).toHaveLength(2);
    expect(args).toEqual(expect.arrayContaining(["-H", "Connection: keep-alive", "-w", "%{stderr}@@transfer %{num_connects} %{local_port}\n"]));
    expect(curlCommand({ ...PLAN, keepAliveRequests: 2, headers: [["Connection", "close"]], httpVersion: "1.0" })).not.toContain("Connection: keep-alive");
    expect(curlCommand(PLAN)).not.toContain("-w");
  });

  it("asks a single send's curl for each transfer's connection count and local port, on stderr", () => {
    const args = curlCommand(PLAN, "@-", { transferLines: true });
    expect(args.slice(args.indexOf("-w"), args.indexOf("-w") + 2)).toEqual(["-w", "%{stderr}@@transfer %{num_connects} %{local_port}\n"]);
    expect(args.filter((arg) => arg === "-w")).toHaveLength(1);
    expect(curlCommand({ ...PLAN, keepAliveRequests: 2 }, "@-", { transferLines: true }).filter((arg) => arg === "-w")).toHaveLength(1);
  });
});

describe("lastTransferReused", () => {
  it("reads whether curl's last transfer opened a connection of its own", () => {
    expect(lastTransferReused("@@transfer 1 40100\n@@transfer 0 40100\n")).toBe(true);
    expect(lastTransferReused("@@transfer 1 40100\n@@transfer 1 40102\n")).toBe(false);
    expect(lastTransferReused("curl: (7) Failed to connect\n")).toBeNull();
  });
});

describe("transferPorts", () => {
  it("reads the local port of each connection curl's transfers used, each once, and none where it connected nowhere", () => {
    expect(transferPorts("@@transfer 1 40100\n@@transfer 0 40100\n@@transfer 1 40102\n")).toEqual([40100, 40102]);
    expect(transferPorts("curl: (7) Failed to connect to 10.0.0.5 port 80\n@@transfer 0 0\n")).toEqual([]);
    expect(transferPorts("")).toEqual([]);
  });
});

describe("rawClientCommand", () => {
  const RAW = { serverIp: "::1", port: 443, data: Buffer.from("GET / HTTP/1.0\r\n\r\n"), trickleMs: null, timeoutMs: 10_000 };

  it("sends plain bytes to the address and port, with the trickle delay and the timeout in seconds", () => {
    expect(rawClientCommand({ ...RAW, port: 80, trickleMs: 50, tls: null })).toEqual(["python3", "/usr/local/bin/raw-client.py", "::1", "80", "50", "10"]);
  });

  it("asks for TLS with the SNI name and the staged client certificate, or dashes for none", () => {
    const identity = { certificate: "C", privateKey: "K" } as unknown as NonNullable<ContainerHttpPlan["clientCertificate"]>;
    expect(rawClientCommand({ ...RAW, tls: { servername: "server", clientCertificate: identity } }).slice(6)).toEqual([
      "tls", "server", "/tmp/client.crt", "/tmp/client.key",
    ]);
    expect(rawClientCommand({ ...RAW, tls: { servername: null, clientCertificate: null } }).slice(6)).toEqual(["tls", "-", "-", "-"]);
  });
});
