// A scenario client with its own address on the scenario network: a tools container that sends requests with
// curl (HTTP) or a small raw socket client, so that `Allow from`, `Require ip` and `Require host` can be
// exercised with one client allowed and another denied.
import { createHash } from "node:crypto";
import { HarnessContainer } from "../engine/container.ts";
import type { RunScope } from "../engine/run-scope.ts";
import type { HttpResponseOutcome, TransportFailureOutcome } from "./outcome.ts";
import type { HttpRequestPlan } from "./http-request.ts";
import { parseRawResponse } from "./parse-raw-response.ts";

export interface StartedClientContainer {
  name: string;
  ip: string;
  /** What the client's address resolves back to on the scenario network (Docker's DNS answers PTR queries
   * for its containers), so a `Require host` / `Allow from <name>` double-reverse lookup succeeds. */
  hostname: string;
  container: HarnessContainer;
}

export async function startClientContainer(
  scope: RunScope,
  context: { scenario: string; network: string; image: string; name: string },
): Promise<StartedClientContainer> {
  // Unique per run, scenario and client whatever the scenario id's length (a cut-off id once made two
  // clients of one scenario collide).
  const scenarioKey = createHash("sha256").update(context.scenario).digest("hex").slice(0, 8);
  const containerName = `${scope.runId}-${scenarioKey}-${context.name}`;
  const container = await HarnessContainer.create(scope, {
    image: context.image,
    name: containerName,
    role: "client",
    scenario: context.scenario,
    command: ["sleep", "infinity"],
    network: { name: context.network, aliases: [context.name] },
  });
  await container.start();
  const ip = await container.ipAddress(context.network);
  // What Docker's DNS answers for this address on a user-defined network, both ways: the server's
  // double-reverse lookup (Require host, Allow from <name>) sees this name. (Inside the client itself,
  // /etc/hosts would answer with the container id instead.)
  const hostname = `${containerName}.${context.network}`;
  return { name: context.name, ip, hostname, container };
}

/** The request of an HTTP plan, sent from a client container to the server's address on the scenario network
 * (no keep-alive series: curl sends one request). */
export type ContainerHttpPlan = Pick<HttpRequestPlan, "method" | "path" | "hostHeader" | "headers" | "body" | "auth" | "httpVersion" | "timeoutMs"> & {
  serverIp: string;
  tls: boolean;
  clientCertificate: HttpRequestPlan["tlsClient"];
};

const CURL_TRANSPORT_CODES: Record<number, string> = {
  6: "ENOTFOUND",
  7: "ECONNREFUSED",
  28: "TIMEOUT",
  35: "TLS_HANDSHAKE",
  52: "EMPTY_RESPONSE",
  55: "ECONNRESET",
  56: "ECONNRESET",
};

/** Pure: the curl command line for a plan. */
export function curlCommand(plan: ContainerHttpPlan): string[] {
  const port = plan.tls ? 443 : 80;
  const name = plan.hostHeader ?? plan.serverIp;
  const url = `${plan.tls ? "https" : "http"}://${plan.tls ? name : plan.serverIp}:${port}${plan.path}`;
  const args = ["curl", "-sS", "-i", "--raw", "--path-as-is", "--max-time", String(Math.ceil(plan.timeoutMs / 1000)), "-X", plan.method];
  args.push(plan.httpVersion === "1.0" ? "--http1.0" : "--http1.1");
  if (plan.tls) args.push("-k", "--resolve", `${name}:${port}:${plan.serverIp}`);
  if (plan.hostHeader && !plan.tls) args.push("-H", `Host: ${plan.hostHeader}`);
  for (const [header, value] of plan.headers) args.push("-H", `${header}: ${value}`);
  if (plan.auth) args.push("-u", `${plan.auth.user}:${plan.auth.password}`);
  if (plan.clientCertificate) args.push("--cert", "/tmp/client.crt", "--key", "/tmp/client.key");
  if (plan.body !== null) args.push("--data-binary", "@-");
  args.push(url);
  return args;
}

export async function sendFromContainer(client: StartedClientContainer, plan: ContainerHttpPlan): Promise<HttpResponseOutcome | TransportFailureOutcome> {
  const started = Date.now();
  if (plan.clientCertificate) {
    await client.container.exec(["sh", "-c", "cat > /tmp/client.crt"], { stdin: plan.clientCertificate.certificate });
    await client.container.exec(["sh", "-c", "umask 077; cat > /tmp/client.key"], { stdin: plan.clientCertificate.privateKey });
  }
  const result = await client.container.exec(curlCommand(plan), {
    timeoutMs: plan.timeoutMs + 5_000,
    ...(plan.body !== null ? { stdin: plan.body } : {}),
  });
  const durationMs = Date.now() - started;
  if (result.exitCode !== 0) {
    return {
      kind: "transport-error",
      code: CURL_TRANSPORT_CODES[result.exitCode] ?? `CURL_${result.exitCode}`,
      message: result.stderr.trim(),
      durationMs,
    };
  }
  return toOutcome(result.stdoutBytes, durationMs);
}

export async function sendRawFromContainer(
  client: StartedClientContainer,
  plan: { serverIp: string; port: number; data: Buffer; trickleMs: number | null; timeoutMs: number },
): Promise<HttpResponseOutcome | TransportFailureOutcome> {
  const started = Date.now();
  const result = await client.container.exec(
    ["python3", "/usr/local/bin/raw-client.py", plan.serverIp, String(plan.port), String(plan.trickleMs ?? 0), String(plan.timeoutMs / 1000)],
    { stdin: plan.data.toString("latin1"), timeoutMs: plan.timeoutMs + 10_000 + plan.data.length * (plan.trickleMs ?? 0) },
  );
  const durationMs = Date.now() - started;
  const newline = result.stdoutBytes.indexOf(0x0a);
  const outcome = /@@outcome (\S+)/.exec(result.stdoutBytes.subarray(0, Math.max(newline, 0)).toString())?.[1] ?? "unknown";
  const bytes = result.stdoutBytes.subarray(newline + 1);
  if (outcome !== "ok" && bytes.length === 0) {
    return { kind: "transport-error", code: outcome === "reset" ? "ECONNRESET" : outcome.toUpperCase(), message: result.stderr.trim(), durationMs };
  }
  if (bytes.length === 0) return { kind: "transport-error", code: "EMPTY_RESPONSE", message: "the server closed without a byte", durationMs };
  return toOutcome(bytes, durationMs);
}

function toOutcome(bytes: Buffer, durationMs: number): HttpResponseOutcome | TransportFailureOutcome {
  const parsed = parseRawResponse(bytes);
  if (!parsed) return { kind: "transport-error", code: "INVALID_RESPONSE", message: bytes.subarray(0, 200).toString("latin1"), durationMs };
  return {
    kind: "response",
    status: parsed.status,
    httpVersion: parsed.httpVersion,
    headers: parsed.headers,
    body: parsed.body.subarray(0, 64 * 1024).toString("utf8"),
    bodyBytes: parsed.body.length,
    bodySha256: createHash("sha256").update(parsed.body).digest("hex"),
    durationMs,
  };
}
