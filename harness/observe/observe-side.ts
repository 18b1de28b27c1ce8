// Executes one side's plan: boots its httpd, sends its requests, records what happened. No verdicts here, and
// nothing decided: what runs was fixed by the plan (plan/), bound to the engine's addresses by observe-scenario.
import type { StartedClientContainer } from "../clients/client-container.ts";
import { type SendingClient, sendFromContainer, sendRawFromContainer } from "../clients/client-container.ts";
import { LazyLocalClient, startLocalClient } from "../clients/local-client.ts";
import { BODY_TEXT_LIMIT } from "../clients/http-request.ts";
import { sendHttp } from "../clients/send-http.ts";
import { sendRaw } from "../clients/send-raw.ts";
import { parseErrorLogLine } from "../logs/parse-error-log.ts";
import { parseConfigTestOutput } from "../logs/split-config-test.ts";
import type { GeneratedFile, PlannedRequest, SidePlan } from "../plan/scenario-plan.ts";
import { FAMILY_TRAITS } from "../server/family-traits.ts";
import { type StartedHttpd, startHttpd } from "../server/httpd-server.ts";
import type { ImageInspection } from "../server/inspect-image.ts";
import type { BundleFile } from "../server/site-bundle.ts";
import type { ExecOutcome, RequestObservation, RequestOutcome, SideObservation } from "./observation.ts";
import type { ObserveContext } from "./observe-context.ts";

export interface SideInput {
  /** Bound: no late slot left. */
  plan: SidePlan;
  inspection: ImageInspection;
  scenario: string;
  context: ObserveContext;
  network: { name: string };
  /** The clients' fixed-address and named networks: the server joins each before it starts. */
  clientNetworks?: string[];
  clients: Map<string, StartedClientContainer>;
  serverCertificate: { certificate: string; privateKey: string } | null;
  /** Aborted when the scenario passed its time limit: no further request is sent. */
  signal?: AbortSignal;
  /** Told what the side is doing, for the message of a scenario stopped by its time limit. */
  onStep?: (what: string) => void;
}

/** How much of an exec request's output is kept (as much as of a body's text). */
const EXEC_OUTPUT_LIMIT = BODY_TEXT_LIMIT;

/** A request that ran into its own timeout is not sent again to learn noise: that would double the wait. */
function timedOut(outcome: RequestOutcome): boolean {
  return outcome.kind === "transport-error" && /TIMEOUT|ETIMEDOUT/.test(outcome.code);
}

function generatedContent(kind: GeneratedFile, input: SideInput): string {
  const { certificates } = input.context;
  switch (kind) {
    case "ca-certificate":
      return certificates.ca.certificate;
    case "ca-crl":
      return certificates.crl;
    case "server-certificate":
    case "server-key":
      if (!input.serverCertificate) throw new Error(`the plan stages ${kind} but no server certificate was issued`);
      return kind === "server-certificate" ? input.serverCertificate.certificate : input.serverCertificate.privateKey;
  }
}

export async function observeSide(input: SideInput): Promise<SideObservation> {
  const { plan, inspection, context } = input;
  const dialect = FAMILY_TRAITS[inspection.version.family].logDialect;
  const files: BundleFile[] = plan.files.map((file) => ({
    path: file.path,
    content: "text" in file.content ? file.content.text : "base64" in file.content ? Buffer.from(file.content.base64, "base64") : generatedContent(file.content.generated, input),
    mode: file.mode,
  }));

  input.onStep?.(`starting ${inspection.image}`);
  const httpd = await startHttpd(context.scope, {
    inspection,
    scenario: input.scenario,
    config: plan.config,
    files,
    prepare: plan.prepare,
    network: { name: input.network.name, aliases: [`server-${plan.side.id}`] },
    extraNetworks: input.clientNetworks ?? [],
    listenTls: plan.listenTls,
    ports: plan.ports,
    extras: { args: plan.httpd.args, environment: plan.httpd.environment, setup: plan.setup },
    ...(plan.logs ? { logs: plan.logs } : {}),
    ipv6: plan.localClient,
  });
  // Joins the server's network namespace at the first request from localhost / localhost6, and leaves before
  // the server is removed.
  const local = new LazyLocalClient(() =>
    startLocalClient(context.scope, { scenario: input.scenario, side: plan.side.id, image: context.helperImages.tools, server: httpd.container }),
  );
  try {
    const { boot } = httpd;
    // The server's address on each client network, of each family: a client sends to the one of its own.
    const serverAddresses = new Map<string, { ipv4: string | null; ipv6: string | null }>();
    if (boot.started) for (const network of input.clientNetworks ?? []) serverAddresses.set(network, await httpd.container.addresses(network));
    const target: ServerTarget = { httpd, serverAddresses };
    const configTestOutput = boot.phases.configTest?.output ?? [];
    const configTest = parseConfigTestOutput(configTestOutput.join("\n"), boot.phases.configTest?.exitCode ?? -1, dialect);
    const prepareOutcomes: ExecOutcome[] = boot.phases.prepare.map((p) => ({
      kind: "exec",
      exitCode: p.exitCode,
      stdout: p.output.join("\n"),
      stderr: "",
      durationMs: 0,
    }));
    const requests: RequestObservation[] = [];
    let lastMark = httpd.logMark();
    for (const request of plan.requests) {
      if (input.signal?.aborted) break;
      if (!boot.started) {
        requests.push({
          name: request.name,
          client: request.client,
          outcome: { kind: "not-run", reason: "the server did not start" },
          repeat: null,
          errorLog: [],
          repeatErrorLog: null,
        });
        continue;
      }
      input.onStep?.(`request ${request.name}`);
      const first = await sendAttributed(target, request, input, local);
      const repeat =
        request.repeat && context.learnNoise && !timedOut(first.outcome) && !input.signal?.aborted ? await sendAttributed(target, request, input, local) : null;
      requests.push({
        name: request.name,
        client: request.client,
        outcome: first.outcome,
        repeat: repeat?.outcome ?? null,
        errorLog: first.lines.map((line) => parseErrorLogLine(line, dialect)),
        repeatErrorLog: repeat ? repeat.lines.map((line) => parseErrorLogLine(line, dialect)) : null,
      });
      lastMark = httpd.logMark();
    }
    await httpd.logs.error.waitForQuiet(50, 300);
    const trailing = boot.started ? httpd.logs.error.since(lastMark.err) : [];
    return {
      side: plan.side,
      server: { image: inspection.image, version: inspection.version, profile: inspection.profile.id },
      missingModules: plan.missingModules,
      prepare: prepareOutcomes,
      configTest: {
        ok: configTest.ok,
        exitCode: boot.phases.configTest?.exitCode ?? -1,
        messages: configTest.messages,
        records: configTest.records,
        syntaxError: configTest.syntaxError,
      },
      started: boot.started,
      startFailure:
        boot.started || !configTest.ok
          ? null
          : // What httpd said on its stderr and, for a tree logging to files, in its error log (where mod_ssl's
            // start-up errors go).
            { exitCode: boot.exitCode, logTail: [...httpd.container.stderr.lines.slice(-20), ...boot.startupLines.slice(-20).filter((line) => !httpd.container.stderr.lines.includes(line))] },
      startupLog: boot.startupLines.map((line) => parseErrorLogLine(line, dialect)),
      requests,
      trailingLog: trailing.map((line) => parseErrorLogLine(line, dialect)),
      renderedConfig: plan.config.text,
      tree: plan.tree,
    };
  } finally {
    await local.remove();
    await httpd.stop();
  }
}

/** The server a side's requests go to, and its addresses on the client networks. */
interface ServerTarget {
  httpd: StartedHttpd;
  serverAddresses: ReadonlyMap<string, { ipv4: string | null; ipv6: string | null }>;
}

/** The server's address a network client sends to: on the client's own network, of its address's family. */
function serverAddressFor(target: ServerTarget, client: Pick<StartedClientContainer, "network" | "family">): string {
  const own = target.serverAddresses.get(client.network);
  if (own === undefined) return target.httpd.networkAddress ?? "";
  return (client.family === 6 ? own.ipv6 : own.ipv4) ?? "";
}

async function sendAttributed(
  target: ServerTarget,
  request: PlannedRequest,
  input: SideInput,
  local: LazyLocalClient,
): Promise<{ outcome: RequestOutcome; lines: string[] }> {
  const { httpd } = target;
  const mark = httpd.logMark();
  const outcome = await send(target, request, input, local);
  const lines = await httpd.errorLinesSince(mark, { expectAccessLine: outcome.kind !== "exec" });
  return { outcome, lines };
}

async function send(target: ServerTarget, request: PlannedRequest, input: SideInput, local: LazyLocalClient): Promise<RequestOutcome> {
  const { httpd } = target;
  const clientCertificate = request.clientCertificate ? input.context.certificates.clients[request.clientCertificate] : null;

  if (request.mode === "exec") {
    const started = Date.now();
    // Kept up to a cap like a body's text, so a command that prints a lot costs no more memory than one page.
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let bytes = 0;
    const result = await httpd.container.execStream(["/bin/sh", "-c", request.exec ?? ""], {
      timeoutMs: request.timeoutMs,
      onStdout: (chunk) => {
        bytes += chunk.length;
        if (keptBytes >= EXEC_OUTPUT_LIMIT) return;
        const part = Buffer.from(chunk.subarray(0, EXEC_OUTPUT_LIMIT - keptBytes));
        kept.push(part);
        keptBytes += part.length;
      },
    });
    const stdout = Buffer.concat(kept).toString("utf8") + (bytes > keptBytes ? `\n…(${bytes - keptBytes} more bytes not kept)` : "");
    return { kind: "exec", exitCode: result.exitCode, stdout, stderr: result.stderr, durationMs: Date.now() - started };
  }

  // A local client sends to the server's loopback address from inside its network namespace; a network client
  // to the server's address on the scenario network; the host to the published port.
  const fromHost = request.client === "host";
  const networkClient = request.loopback === null && !fromHost ? input.clients.get(request.client) : undefined;
  const client: SendingClient | null | undefined = request.loopback !== null ? await local.get() : fromHost ? null : networkClient;
  if (!fromHost && !client) return { kind: "not-run", reason: `no client ${request.client}` };
  const serverIp = request.loopback ?? (networkClient ? serverAddressFor(target, networkClient) : (httpd.networkAddress ?? ""));
  const port = request.port ?? (request.tls ? 443 : 80);
  const published = { host: httpd.host, port: httpd.publishedPorts.get(port) ?? 0, tls: request.tls };

  if (request.mode === "raw") {
    const data = Buffer.from(request.raw ?? "", "latin1");
    if (client) {
      const tls = request.tls ? { servername: request.hostHeader, clientCertificate } : null;
      return sendRawFromContainer(client, { serverIp, port, data, trickleMs: request.trickleMs, timeoutMs: request.timeoutMs, tls });
    }
    return sendRaw({ target: published, servername: request.hostHeader, data, trickleMs: request.trickleMs, timeoutMs: request.timeoutMs, tlsClient: clientCertificate });
  }

  const fields = {
    method: request.method,
    path: request.path,
    hostHeader: request.hostHeader,
    headers: request.headers,
    body: request.body,
    auth: request.auth,
    httpVersion: request.httpVersion,
    timeoutMs: request.timeoutMs,
    keepAliveRequests: request.keepAliveRequests,
  };
  if (client) return sendFromContainer(client, { ...fields, serverIp, port, tls: request.tls, clientCertificate });
  return sendHttp({ ...fields, target: published, tlsClient: clientCertificate, caCertificate: null });
}
