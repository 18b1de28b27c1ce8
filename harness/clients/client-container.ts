// A scenario client with its own address on the scenario network: a tools container that sends requests with
// curl (HTTP) or a small raw socket client, so that `Allow from`, `Require ip` and `Require host` can be
// exercised with one client allowed and another denied.
import { createHash } from "node:crypto";
import { claim, type ClaimHolder } from "../engine/claim.ts";
import { HarnessContainer } from "../engine/container.ts";
import { LABEL_RUN_ID } from "../engine/labels.ts";
import { HarnessError } from "../errors.ts";
import type { RunScope } from "../engine/run-scope.ts";
import type { HttpResponseOutcome, TransportFailureOutcome } from "./outcome.ts";
import type { HttpRequestPlan } from "./http-request.ts";
import { StreamedResponse } from "./outcome-parts.ts";
import { requestMethodOf } from "./parse-raw-response.ts";

export interface StartedClientContainer {
  name: string;
  ip: string;
  /** What the client's address resolves back to on the scenario network (Docker's DNS answers PTR queries
   * for its containers), so a `Require host` / `Allow from <name>` double-reverse lookup succeeds. */
  hostname: string;
  /** The network it sends on: the scenario network, or its own fixed-address or named one, where the servers
   * are too; it sends to the server's address there, of its own address's family. */
  network: string;
  family: 4 | 6;
  container: HarnessContainer;
}

export interface ClientContainerContext {
  scenario: string;
  network: string;
  image: string;
  name: string;
  /** A fixed address on `network` (whose subnet holds it). */
  address?: string | null;
  /** The container's name when a DNS name dictates it (`www` on network `example.com`): global on the engine,
   * so it is claimed (engine/claim.ts): a live run holding it is waited for. */
  containerName?: string | null;
  /** The harness's own container name for a client several scenarios share (observe/shared-client-networks.ts),
   * in place of one made from the scenario; not claimed (the run's pool makes it once). */
  sharedName?: string;
  signal?: AbortSignal;
}

export async function startClientContainer(scope: RunScope, context: ClientContainerContext): Promise<StartedClientContainer> {
  // Unique per run, scenario and client whatever the scenario id's length (a cut-off id once made two
  // clients of one scenario collide).
  const scenarioKey = createHash("sha256").update(context.scenario).digest("hex").slice(0, 8);
  const containerName = context.containerName ?? context.sharedName ?? `${scope.runId}-${scenarioKey}-${context.name}`;
  const address = context.address ?? undefined;
  const subject = `client ${context.name}${address === undefined ? "" : ` at ${address}`}${context.containerName ? ` as ${containerName}.${context.network}` : ""}`;
  const create = () =>
    HarnessContainer.create(scope, {
      image: context.image,
      name: containerName,
      role: "client",
      scenario: context.scenario,
      agent: true,
      network: { name: context.network, aliases: [context.name], ...(address === undefined ? {} : { address }) },
    });
  const container = context.containerName
    ? await claim(scope.engine, create, (error) => containerHolder(scope, containerName, error), { subject, ...(context.signal ? { signal: context.signal } : {}) })
    : await create();
  try {
    await container.start();
  } catch (cause) {
    // The engine gives a fixed address at start: one it cannot give (taken, outside the subnet) is the scenario's.
    throw new HarnessError("HARNESS_CLIENT_ADDRESS", `Cannot give ${subject}: ${(cause as Error).message}`, { cause });
  }
  const addresses = await container.addresses(context.network);
  const family = address?.includes(":") ? 6 : 4;
  const ip = address ?? addresses.ipv4 ?? addresses.ipv6;
  if (!ip) throw new HarnessError("HARNESS_CONTAINER", `${container.shortId} has no address on ${context.network}.`);
  // What Docker's DNS answers for this address on a user-defined network, both ways: the server's
  // double-reverse lookup (Require host, Allow from <name>) sees this name. (Inside the client itself,
  // /etc/hosts would answer with the container id instead.)
  const hostname = `${containerName}.${context.network}`;
  return { name: context.name, ip, hostname, network: context.network, family, container };
}

/** After a refused create: the container holding the name. */
async function containerHolder(scope: RunScope, name: string, error: unknown): Promise<ClaimHolder> {
  const [holder] = await scope.engine.docker.listContainers({ all: true, filters: { name: [`^/${name}$`] } });
  if (holder === undefined) {
    return /already in use|Conflict/i.test((error as Error).message) ? { kind: "none" } : { kind: "foreign", reason: `the engine refused it: ${(error as Error).message}` };
  }
  if (holder.Labels?.[LABEL_RUN_ID]) return { kind: "harness", labels: holder.Labels, created: holder.Created * 1000, what: `container ${name}` };
  return { kind: "foreign", reason: `the container name ${name} is taken by a container that is not the harness's (${holder.Image})` };
}

/** What the send functions need of a client: a container with the tools image's curl and raw-client.py, on the
 * scenario network or in the server's own network namespace (local-client.ts). */
export type SendingClient = Pick<StartedClientContainer, "container">;

/** The request of an HTTP plan, sent from a client container to the server's address: on the scenario network,
 * or a loopback address (127.0.0.1, ::1) from inside the server's network namespace. A keep-alive series is the
 * same request given to one curl N times: curl reuses the connection when the server keeps it open. */
export type ContainerHttpPlan = Pick<
  HttpRequestPlan,
  "method" | "path" | "hostHeader" | "headers" | "body" | "auth" | "httpVersion" | "timeoutMs" | "keepAliveRequests"
> & {
  serverIp: string;
  /** The server's port; absent: 443 with TLS, else 80. */
  port?: number;
  tls: boolean;
  clientCertificate: HttpRequestPlan["tlsClient"];
};

/** curl's per-transfer line on stderr (`-w %{stderr}...`): how many new connections the transfer opened, and the
 * local port of its connection (0 when it connected nowhere). */
const TRANSFER_LINE = /^@@transfer (\d+) (\d+)$/gm;
const TRANSFER_WRITEOUT = "%{stderr}@@transfer %{num_connects} %{local_port}\n";

const CURL_TRANSPORT_CODES: Record<number, string> = {
  6: "ENOTFOUND",
  7: "ECONNREFUSED",
  28: "TIMEOUT",
  35: "TLS_HANDSHAKE",
  52: "EMPTY_RESPONSE",
  55: "ECONNRESET",
  56: "ECONNRESET",
};

/** Pure: an address as a URL's host (IPv6 in brackets: http://[::1]:80/). */
function urlHost(address: string): string {
  return address.includes(":") ? `[${address}]` : address;
}

/** Pure: the curl command line for a plan; the body is read from stdin, or from `bodyFrom` (`@file`). With
 * `transferLines` (a single send), each transfer says on stderr how many connections it opened and from which local
 * port, as a keep-alive series always does: the port pins 2.4's `[client a:port]` lines to the send
 * (observe/send-attribution.ts). A batch gives the port in its own writeout (client-batch.ts). */
export function curlCommand(plan: ContainerHttpPlan, bodyFrom = "@-", options: { transferLines?: boolean } = {}): string[] {
  const port = plan.port ?? (plan.tls ? 443 : 80);
  const server = urlHost(plan.serverIp);
  const name = plan.hostHeader ?? server;
  const url = `${plan.tls ? "https" : "http"}://${plan.tls ? name : server}:${port}${plan.path}`;
  // `-X HEAD` makes curl wait for the body the headers announce (until --max-time); --head reads none.
  const method = plan.method === "HEAD" ? ["--head"] : ["-X", plan.method];
  // --globoff: a path's brackets and braces go as written (curl would take `[1-2]` for two requests, `{a,b}` too).
  const args = ["curl", "-sS", "-i", "--raw", "--path-as-is", "--globoff", "--max-time", String(Math.ceil(plan.timeoutMs / 1000)), ...method];
  args.push(plan.httpVersion === "1.0" ? "--http1.0" : "--http1.1");
  // A TLS server name is a DNS name: with none given, the address is connected to and no SNI is sent.
  if (plan.tls && plan.hostHeader) args.push("-k", "--resolve", `${plan.hostHeader}:${port}:${server}`);
  else if (plan.tls) args.push("-k");
  if (plan.hostHeader && !plan.tls) args.push("-H", `Host: ${plan.hostHeader}`);
  const series = plan.keepAliveRequests > 1;
  // As the host client does (parse-raw-response.ts): HTTP/1.0 keeps a connection only when asked to.
  if (series && plan.httpVersion === "1.0" && !plan.headers.some(([header]) => header.toLowerCase() === "connection")) {
    args.push("-H", "Connection: keep-alive");
  }
  for (const [header, value] of plan.headers) args.push("-H", `${header}: ${value}`);
  if (plan.auth) args.push(...(plan.auth.scheme === "digest" ? ["--digest"] : []), "-u", `${plan.auth.user}:${plan.auth.password}`);
  if (plan.clientCertificate) args.push("--cert", CLIENT_CERTIFICATE.certificate, "--key", CLIENT_CERTIFICATE.privateKey);
  if (plan.body !== null) args.push("--data-binary", bodyFrom);
  // Each transfer says on stderr whether it opened a connection, so the last one of a series tells whether it came
  // on a reused connection, and from which port.
  if (series || options.transferLines === true) args.push("-w", TRANSFER_WRITEOUT);
  if (series) {
    // Every answer but the last is dropped (outputs pair with URLs in order).
    for (let i = 1; i < plan.keepAliveRequests; i++) args.push("-o", "/dev/null");
    for (let i = 1; i < plan.keepAliveRequests; i++) args.push(url);
  }
  args.push(url);
  return args;
}

/** Pure: whether the last transfer of a keep-alive series opened no connection of its own (null: curl said
 * nothing, as for a single request). */
export function lastTransferReused(stderr: string): boolean | null {
  const counts = [...stderr.matchAll(TRANSFER_LINE)].map((match) => Number(match[1]));
  return counts.length === 0 ? null : counts.at(-1) === 0;
}

/** Pure: the local ports of the connections curl's transfers used, each once, in order (none: it connected nowhere,
 * or said nothing). */
export function transferPorts(stderr: string): number[] {
  const ports = [...stderr.matchAll(TRANSFER_LINE)].map((match) => Number(match[2])).filter((port) => port > 0);
  return [...new Set(ports)];
}

/** A single send's outcome, with the local ports of the connections it opened (observe/send-attribution.ts). */
export interface ContainerSent {
  outcome: HttpResponseOutcome | TransportFailureOutcome;
  localPorts: number[];
}

export async function sendFromContainer(client: SendingClient, plan: ContainerHttpPlan): Promise<ContainerSent> {
  const started = Date.now();
  if (plan.clientCertificate) await stageClientCertificate(client, plan.clientCertificate);
  // curl's output (the head and the raw body) is parsed as the exec streams it: never held whole.
  const reader = new StreamedResponse(plan.method, { digest: plan.auth?.scheme === "digest" });
  const result = await client.container.execStream(curlCommand(plan, "@-", { transferLines: true }), {
    timeoutMs: plan.timeoutMs + 5_000,
    onStdout: (chunk) => reader.push(chunk),
    ...(plan.body !== null ? { stdin: plan.body } : {}),
  });
  const outcome = outcomeOfCurl(result.exitCode, result.stderr, reader, Date.now() - started);
  const reused = plan.keepAliveRequests > 1 ? lastTransferReused(result.stderr) : null;
  return { outcome: outcome.kind === "response" && reused !== null ? { ...outcome, connectionReused: reused } : outcome, localPorts: transferPorts(result.stderr) };
}

/** One curl run's outcome: its exit status as a transport error, else the answer it wrote. */
export function outcomeOfCurl(exitCode: number, stderr: string, reader: StreamedResponse, durationMs: number): HttpResponseOutcome | TransportFailureOutcome {
  if (exitCode !== 0) {
    return {
      kind: "transport-error",
      code: CURL_TRANSPORT_CODES[exitCode] ?? `CURL_${exitCode}`,
      message: stderr.replace(TRANSFER_LINE, "").trim(),
      durationMs,
    };
  }
  return outcomeOf(reader, durationMs);
}

/** Where the client certificate goes in the client container, for curl and raw-client.py. */
const CLIENT_CERTIFICATE = { certificate: "/tmp/client.crt", privateKey: "/tmp/client.key" };

async function stageClientCertificate(client: SendingClient, identity: NonNullable<HttpRequestPlan["tlsClient"]>): Promise<void> {
  await client.container.exec(["sh", "-c", `cat > ${CLIENT_CERTIFICATE.certificate}`], { stdin: identity.certificate });
  await client.container.exec(["sh", "-c", `umask 077; cat > ${CLIENT_CERTIFICATE.privateKey}`], { stdin: identity.privateKey });
}

export interface ContainerRawPlan {
  serverIp: string;
  port: number;
  data: Buffer;
  trickleMs: number | null;
  timeoutMs: number;
  /** TLS with this SNI name (null: none), and a client certificate; null: plain TCP. */
  tls: { servername: string | null; clientCertificate: HttpRequestPlan["tlsClient"] } | null;
}

/** Pure: the raw client's command line for a plan. */
export function rawClientCommand(plan: ContainerRawPlan): string[] {
  const args = ["python3", "/usr/local/bin/raw-client.py", plan.serverIp, String(plan.port), String(plan.trickleMs ?? 0), String(plan.timeoutMs / 1000)];
  if (plan.tls) {
    const certificate = plan.tls.clientCertificate ? [CLIENT_CERTIFICATE.certificate, CLIENT_CERTIFICATE.privateKey] : ["-", "-"];
    args.push("tls", plan.tls.servername ?? "-", ...certificate);
  }
  return args;
}

/** raw-client.py's line on stderr once it connected: its socket's local port. */
const RAW_LOCAL_PORT = /^@@local-port (\d+)\n?/m;

export async function sendRawFromContainer(client: SendingClient, plan: ContainerRawPlan): Promise<ContainerSent> {
  const started = Date.now();
  if (plan.tls?.clientCertificate) await stageClientCertificate(client, plan.tls.clientCertificate);
  // raw-client.py writes the server's bytes to stdout as they come and its outcome to stderr at the end.
  const reader = new StreamedResponse(requestMethodOf(plan.data));
  const result = await client.container.execStream(
    rawClientCommand(plan),
    { stdin: plan.data, onStdout: (chunk) => reader.push(chunk), timeoutMs: plan.timeoutMs + 10_000 + plan.data.length * (plan.trickleMs ?? 0) },
  );
  const durationMs = Date.now() - started;
  const outcome = /^@@outcome (\S+)$/m.exec(result.stderr)?.[1] ?? "unknown";
  const port = Number(RAW_LOCAL_PORT.exec(result.stderr)?.[1] ?? 0);
  const localPorts = port > 0 ? [port] : [];
  const message = result.stderr.replace(/^@@outcome \S+\n?/m, "").replace(RAW_LOCAL_PORT, "").trim();
  if (outcome !== "ok" && reader.received === 0) {
    return { outcome: { kind: "transport-error", code: outcome === "reset" ? "ECONNRESET" : outcome.toUpperCase(), message, durationMs }, localPorts };
  }
  if (reader.received === 0) return { outcome: { kind: "transport-error", code: "EMPTY_RESPONSE", message: "the server closed without a byte", durationMs }, localPorts };
  return { outcome: outcomeOf(reader, durationMs), localPorts };
}

/** The answer as the stream's bytes ended (a body cut short is kept as far as it came), or INVALID_RESPONSE
 * with the first bytes when they are not an HTTP response. */
function outcomeOf(response: StreamedResponse, durationMs: number): HttpResponseOutcome | TransportFailureOutcome {
  response.finish();
  const { parser } = response;
  const head = parser.head;
  if (!head || parser.error) {
    return { kind: "transport-error", code: "INVALID_RESPONSE", message: response.first().subarray(0, 200).toString("latin1"), durationMs };
  }
  return { kind: "response", status: head.status, httpVersion: head.httpVersion, headers: head.headers, ...response.body.finish(), durationMs, ...(response.challenged ? { challenged: true } : {}) };
}
