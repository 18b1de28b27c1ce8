// Executes one side's plan: boots its httpd, sends its requests, records what happened. No verdicts here, and
// nothing decided: what runs was fixed by the plan (plan/), bound to the engine's addresses by observe-scenario.
import type { StartedClientContainer } from "../clients/client-container.ts";
import { type BatchItem, batchable, sendBatchFromContainer } from "../clients/client-batch.ts";
import { type ContainerHttpPlan, type SendingClient, sendFromContainer, sendRawFromContainer } from "../clients/client-container.ts";
import { LazyLocalClient, startLocalClient } from "../clients/local-client.ts";
import { BODY_TEXT_LIMIT } from "../clients/http-request.ts";
import { sendRaw } from "../clients/send-raw.ts";
import { log } from "../engine/log.ts";
import { clientConnectionOf, sameAddress } from "../logs/client-connection.ts";
import { parseErrorLogLine } from "../logs/parse-error-log.ts";
import { parseConfigTestOutput } from "../logs/split-config-test.ts";
import type { GeneratedFile, PlannedRequest, SidePlan } from "../plan/scenario-plan.ts";
import { FAMILY_TRAITS } from "../server/family-traits.ts";
import { type ServerLaunch, type StartedHttpd, startHttpd } from "../server/httpd-server.ts";
import type { ServerHost } from "../server/server-host.ts";
import type { ImageInspection } from "../server/inspect-image.ts";
import type { ServerSeat } from "../server/server-seat.ts";
import type { BundleFile } from "../server/site-bundle.ts";
import type { ExecOutcome, ObservedWorld, RequestObservation, RequestOutcome, SideObservation, VariantObservation } from "./observation.ts";
import { type SideWorld, WORLD_IDENTITY_FAILED, WORLD_MISSING } from "../plan/tree/world-staging.ts";
import { attributeBatchLines, type BatchSlot, markLoggedSlots } from "./batch-attribution.ts";
import { placeByConnection, type SendConnection, type SendWindow } from "./send-attribution.ts";
import { nextBatch } from "./request-batches.ts";
import { requestResource, variantBatches } from "./variant-batches.ts";
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
  /** The lane's seat the server joins (server/server-seat.ts); absent: a network stack of its own. */
  seat?: ServerSeat | undefined;
  /** Where the seat's server host comes from (the lane: server/server-host.ts); absent: a container of its own. */
  hosts?: { host(seat: ServerSeat, inspection: ImageInspection): Promise<ServerHost | null> };
  /** Aborted when the scenario passed its time limit: no further request is sent. */
  signal?: AbortSignal;
  /** Told what the side is doing, for the message of a scenario stopped by its time limit. */
  onStep?: (what: string) => void;
}

/** How much of an exec request's output is kept (as much as of a body's text). */
const EXEC_OUTPUT_LIMIT = BODY_TEXT_LIMIT;

/** How long the access log must stay quiet, when a batch's access lines are no multiple of its answers, before they
 * are counted again. */
const ATTRIBUTION_ACCESS_QUIET_MS = 120;

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
  const launch: ServerLaunch = {
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
    ...(input.seat ? { seat: input.seat } : {}),
  };
  const began = Date.now();
  let seat = input.seat;
  const host = input.seat && input.hosts ? await input.hosts.host(input.seat, inspection) : null;
  const hostTaken = Date.now();
  let httpd = await startHttpd(context.scope, host === null ? launch : { ...launch, host });
  if (httpd.serverHost !== null && !httpd.boot.started && httpd.boot.phases.configTest?.exitCode === 0) {
    // A server whose config passed its test but did not start in a host is started again in a container of its own,
    // and the host is replaced: the start may have failed on something of the host's (a port still bound, a process
    // the wipe did not end), and what such a config says is then a fresh container's. A config test that fails is
    // the config's own: the wipe put the file system back as the image has it (server/server-host.ts), and httpd -t
    // reads nothing else.
    input.onStep?.(`starting ${inspection.image} again in a container of its own`);
    const failed = httpd.serverHost;
    // A host that is its seat is wiped (every process of its config ended) and the new container joins it; one that
    // cannot be put back is gone with its seat, and the server gets a network stack of its own.
    if (failed.isSeat) await failed.wipe();
    else await failed.remove();
    if (failed.gone && failed.isSeat) seat = undefined;
    const { seat: _gone, ...ownStack } = launch;
    httpd = await startHttpd(context.scope, seat === undefined ? ownStack : launch);
  }
  const onSeat = seat;
  // Joins the server's network namespace at the first request from localhost / localhost6, and leaves before
  // the server is removed. On a seat the holder is in that namespace already, and stays with the seat.
  let timing = "";
  const local = onSeat
    ? new LazyLocalClient(async () => ({ container: onSeat.holder }), { owned: false })
    : new LazyLocalClient(() =>
        startLocalClient(context.scope, { scenario: input.scenario, side: plan.side.id, image: context.helperImages.tools, server: httpd.container }),
      );
  try {
    const { boot } = httpd;
    // The server's address on each client network, of each family: a client sends to the one of its own.
    const serverAddresses = new Map<string, { ipv4: string | null; ipv6: string | null }>();
    // On a seat, the holder is what sits on the client networks.
    const onNetworks = onSeat ? onSeat.holder : httpd.container;
    if (boot.started) for (const network of input.clientNetworks ?? []) serverAddresses.set(network, await onNetworks.addresses(network));
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
    // Every send's window in the order sent: its lines are placed once the side's last window closed
    // (send-attribution.ts), and parsed then.
    const windows: Array<{ request: number; repeat: boolean; window: Sent }> = [];
    const requestsBegan = Date.now();
    let lastMark = httpd.logMark();
    const sideMark = lastMark;
    for (let index = 0; index < plan.requests.length; ) {
      const request = plan.requests[index]!;
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
        index += 1;
        continue;
      }
      // Consecutive requests of one client container go in one exec (clients/client-batch.ts).
      const batch = nextBatch(plan.requests, index, (r) => canBatch(target, r, input), BATCH_LIMIT);
      if (batch.length > 1) {
        input.onStep?.(`requests ${batch[0]!.name} to ${batch.at(-1)!.name} (one batch)`);
        const observed = await sendBatch(target, batch, input, local);
        for (const one of observed) {
          const at = requests.length;
          requests.push({ name: one.request.name, client: one.request.client, outcome: one.first.outcome, repeat: one.repeat?.outcome ?? null, errorLog: [], repeatErrorLog: one.repeat ? [] : null });
          // In the order the batch sent them: a request, then its repeat.
          windows.push({ request: at, repeat: false, window: one.first });
          if (one.repeat) windows.push({ request: at, repeat: true, window: one.repeat });
        }
        lastMark = httpd.logMark();
        index += batch.length;
        continue;
      }
      input.onStep?.(`request ${request.name}`);
      const first = await sendAttributed(target, request, input, local);
      const repeat =
        request.repeat && context.learnNoise && !timedOut(first.outcome) && !input.signal?.aborted ? await sendAttributed(target, request, input, local) : null;
      const at = requests.length;
      requests.push({ name: request.name, client: request.client, outcome: first.outcome, repeat: repeat?.outcome ?? null, errorLog: [], repeatErrorLog: repeat ? [] : null });
      windows.push({ request: at, repeat: false, window: first });
      if (repeat) windows.push({ request: at, repeat: true, window: repeat });
      lastMark = httpd.logMark();
      index += 1;
    }
    const requestsEnded = Date.now();
    // When a send's window closed before its access line came, every answered send's access line, before the side's
    // lines are placed: with one follower for both logs, the error lines httpd wrote before them are here then,
    // however late the stream came (send-attribution.ts).
    const units = windows.map((entry) => entry.window.units);
    if (boot.started && windows.some((entry) => entry.window.closedBeforeLogged === true)) await httpd.accessLinesCaughtUp(sideMark, units.reduce((sum, n) => sum + n, 0));
    await httpd.logs.error.waitForQuiet(50, 300);
    const logged = boot.started ? httpd.accessLinesSince(sideMark) : null;
    const marked = logged === null ? null : markLoggedSlots(windows.map(() => ({ localPort: null, receivedAt: 0, skipped: false })), units, logged);
    const trailingLines = boot.started ? httpd.logs.error.since(lastMark.err) : [];
    // A line that came after its send's window (into a later one, or after the last) goes back to the send whose
    // connection it names, or, naming none, to the send logged after it; the rest stay where they arrived.
    const placed = placeByConnection(
      windows.map((entry, index) => {
        const loggedOrder = marked?.[index]?.loggedOrder;
        return loggedOrder === undefined ? entry.window : { ...entry.window, loggedOrder };
      }),
      trailingLines,
      (line) => clientConnectionOf(line, dialect),
      (boot.started ? httpd.errorLineOrders(lastMark.err, trailingLines.length) : null) ?? undefined,
    );
    windows.forEach((entry, index) => {
      const records = placed.sends[index]!.map((line) => parseErrorLogLine(line, dialect));
      if (entry.repeat) requests[entry.request]!.repeatErrorLog = records;
      else requests[entry.request]!.errorLog = records;
    });
    const trailing = placed.trailing;
    const variants = boot.started && !input.signal?.aborted ? await observeVariants(target, input, local) : plan.variants.map((v) => notReloaded(v.id, "the server did not start"));
    timing = `host ${hostTaken - began}, start ${requestsBegan - hostTaken}, requests ${requestsEnded - requestsBegan}, trailing+variants ${Date.now() - requestsEnded}`;
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
            { exitCode: boot.exitCode, logTail: [...httpd.output.stderr.lines.slice(-20), ...boot.startupLines.slice(-20).filter((line) => !httpd.output.stderr.lines.includes(line))] },
      startupLog: boot.startupLines.map((line) => parseErrorLogLine(line, dialect)),
      requests,
      trailingLog: trailing.map((line) => parseErrorLogLine(line, dialect)),
      renderedConfig: plan.config.text,
      tree: plan.tree,
      world: plan.world === null ? null : observedWorld(plan.world, boot.phases.world),
      variants,
    };
  } finally {
    const stopping = Date.now();
    await local.remove();
    await httpd.stop();
    log("[%s] side %s of %s: %s, stop %d ms (profile)", httpd.container.shortId, plan.side.id, input.scenario, timing, Date.now() - stopping);
  }
}

function notReloaded(id: string, reason: string): VariantObservation {
  return { id, reloaded: false, reason, configTest: null, requests: [], durationMs: 0 };
}

/** The side's variants, one after another in its own server: each loaded (files, config test, restart; in a host by
 * its loop, with no exec) and sent its requests, each sender's in as few batches as variant-batches.ts allows, one
 * batch after another with no gap (nothing is attributed from the log here: a variant is told apart by its
 * answers). A server that does not come back ends the series: the rest are not run. */
async function observeVariants(target: ServerTarget, input: SideInput, local: LazyLocalClient): Promise<VariantObservation[]> {
  const { plan } = input;
  const byName = new Map(plan.requests.map((r) => [r.name, r]));
  const observed: VariantObservation[] = [];
  let down: string | null = null;
  for (const variant of plan.variants) {
    if (input.signal?.aborted) down ??= "the scenario was stopped";
    if (down !== null || variant.unreloadable !== null) {
      observed.push(notReloaded(variant.id, down ?? variant.unreloadable!));
      continue;
    }
    const started = Date.now();
    input.onStep?.(`variant ${variant.id}`);
    const files: BundleFile[] = variant.files.map((file) => ({
      path: file.path,
      content: "text" in file.content ? file.content.text : "base64" in file.content ? Buffer.from(file.content.base64, "base64") : generatedContent(file.content.generated, input),
      mode: file.mode,
    }));
    const reload = await target.httpd.reload({ files, removed: variant.removed }, { args: plan.httpd.args, environment: plan.httpd.environment, setup: plan.setup });
    if (!reload.reloaded) {
      if (reload.configTest.exitCode === 0) down = `the server did not come back after ${variant.id}`;
      observed.push({ id: variant.id, reloaded: false, reason: reload.reason, configTest: reload.configTest, requests: [], durationMs: Date.now() - started });
      continue;
    }
    const reloadedAt = Date.now();
    const requests = variant.requests.map((name) => byName.get(name)).filter((r): r is PlannedRequest => r !== undefined);
    // Each sender's requests in as few batches as the order allows (variant-batches.ts); answers kept in plan order.
    const batches = variantBatches(requests.map((_, index) => index), (i) => (canBatch(target, requests[i]!, input) ? (requests[i]!.loopback !== null ? "local" : `client ${requests[i]!.client}`) : null), (i) => requestResource(requests[i]!), BATCH_LIMIT);
    const outcomes: RequestOutcome[] = [];
    for (const batch of batches) {
      const first = requests[batch[0]!]!;
      if (batch.length > 1) {
        const client: SendingClient | undefined = first.loopback !== null ? await local.get() : input.clients.get(first.client);
        const records = client === undefined ? [] : await sendBatchFromContainer(client, batch.map((i) => ({ plan: containerPlan(target, requests[i]!, input)!, skipAfterTimeout: false })), { gapMs: 0 });
        const byItem = new Map(records.map((record) => [record.index, record.outcome]));
        batch.forEach((i, item) => (outcomes[i] = byItem.get(item) ?? { kind: "not-run", reason: client === undefined ? `no client ${first.client}` : "the batch ended before it" }));
        continue;
      }
      outcomes[batch[0]!] = (await send(target, first, input, local)).outcome;
    }
    const answers: RequestObservation[] = requests.map((request, i) => ({ name: request.name, client: request.client, outcome: outcomes[i]!, repeat: null, errorLog: [], repeatErrorLog: null }));
    log("variant %s (profile): reload %d ms, %d requests %d ms in %d batches", variant.id, reloadedAt - started, answers.length, Date.now() - reloadedAt, batches.length);
    observed.push({ id: variant.id, reloaded: true, reason: null, configTest: reload.configTest, requests: answers, durationMs: Date.now() - started });
  }
  return observed;
}

/** The side's world with what its setup said: `@@harness world-missing PATH`, `@@harness world-identity-failed PATH`. */
function observedWorld(world: SideWorld, lines: readonly string[]): ObservedWorld {
  const after = (prefix: string) => lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length).trim());
  return { ...world, missing: after(WORLD_MISSING), identityFailures: after(WORLD_IDENTITY_FAILED) };
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

/** A send's outcome, its window's error-log lines and the connections it opened (send-attribution.ts). */
interface Sent extends SendWindow {
  outcome: RequestOutcome;
  /** How many access lines it makes the server write: 0 unanswered (or an exec), 2 for a Digest answer after its
   * challenge, else 1. */
  units: number;
}

/** How many access lines an outcome's request was logged with (Sent.units). */
function accessUnits(outcome: RequestOutcome): number {
  return outcome.kind !== "response" ? 0 : outcome.challenged === true ? 2 : 1;
}

async function sendAttributed(target: ServerTarget, request: PlannedRequest, input: SideInput, local: LazyLocalClient): Promise<Sent> {
  const { httpd } = target;
  const mark = httpd.logMark();
  const { outcome, connections } = await send(target, request, input, local);
  const lines = await httpd.errorLinesSince(mark, { expectAccessLine: outcome.kind !== "exec", answered: outcome.kind === "response" });
  const orders = httpd.errorLineOrders(mark.err, lines.length);
  const units = accessUnits(outcome);
  // Its window closed before its access line came: its lines may be in the next (send-attribution.ts).
  const closedBeforeLogged = units > 0 && httpd.logs.access.count < mark.out + units;
  return { outcome, lines, connections, units, ...(orders === null ? {} : { orders }), ...(closedBeforeLogged ? { closedBeforeLogged } : {}) };
}

/** The connections of a client container's send, from the client's address (as the server sees it: the loopback
 * address a local client sends from, a network client's own) and the ports its client reported. The host's sends go
 * through the engine's published port, whose connection to the server the harness does not see: none. */
function connectionsOf(address: string, ports: readonly number[]): SendConnection[] {
  return ports.map((port) => ({ address: sameAddress(address), port }));
}

async function send(target: ServerTarget, request: PlannedRequest, input: SideInput, local: LazyLocalClient): Promise<{ outcome: RequestOutcome; connections: SendConnection[] }> {
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
    return { outcome: { kind: "exec", exitCode: result.exitCode, stdout, stderr: result.stderr, durationMs: Date.now() - started }, connections: [] };
  }

  // A local client sends to the server's loopback address from inside its network namespace; a network client
  // to the server's address on the scenario network; the host to the published port.
  const fromHost = request.client === "host";
  const networkClient = request.loopback === null && !fromHost ? input.clients.get(request.client) : undefined;
  const client: SendingClient | null | undefined = request.loopback !== null ? await local.get() : fromHost ? null : networkClient;
  if (!fromHost && !client) return { outcome: { kind: "not-run", reason: `no client ${request.client}` }, connections: [] };
  // Where the server sees the client's connection come from.
  const clientAddress = request.loopback ?? networkClient?.ip ?? null;
  const sent = async (sending: Promise<{ outcome: RequestOutcome; localPorts: number[] }>) => {
    const { outcome, localPorts } = await sending;
    return { outcome, connections: clientAddress === null ? [] : connectionsOf(clientAddress, localPorts) };
  };
  const serverIp = request.loopback ?? (networkClient ? serverAddressFor(target, networkClient) : (httpd.networkAddress ?? ""));
  const port = request.port ?? (request.tls ? 443 : 80);
  const published = { host: httpd.host, port: httpd.publishedPorts.get(port) ?? 0, tls: request.tls };

  if (request.mode === "raw") {
    const data = Buffer.from(request.raw ?? "", "latin1");
    if (client) {
      const tls = request.tls ? { servername: request.hostHeader, clientCertificate } : null;
      return sent(sendRawFromContainer(client, { serverIp, port, data, trickleMs: request.trickleMs, timeoutMs: request.timeoutMs, tls }));
    }
    return { outcome: await sendRaw({ target: published, servername: request.hostHeader, data, trickleMs: request.trickleMs, timeoutMs: request.timeoutMs, tlsClient: clientCertificate }), connections: [] };
  }

  const fields = httpFields(request);
  if (client) return sent(sendFromContainer(client, { ...fields, serverIp, port, tls: request.tls, clientCertificate }));
  // undici is imported by the first request sent from the host: a run whose requests all go from client
  // containers (a fleet's, through its seats' agents) never loads it.
  const { sendHttp } = await import("../clients/send-http.ts");
  return { outcome: await sendHttp({ ...fields, target: published, tlsClient: clientCertificate, caCertificate: null }), connections: [] };
}

function httpFields(request: PlannedRequest) {
  return {
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
}

/** At most this many requests go in one batch (one exec, whose output is parsed as it streams). */
const BATCH_LIMIT = 100;
/** The pause between a batch's requests that tells their log lines apart by arrival (batch-attribution.ts). */
export const BATCH_GAP_MS = 30;

/** The curl plan of an HTTP request from a client container (a network client or the local one), or null for
 * the host client. */
function containerPlan(target: ServerTarget, request: PlannedRequest, input: SideInput): ContainerHttpPlan | null {
  if (request.mode !== "http" || request.client === "host") return null;
  const networkClient = request.loopback === null ? input.clients.get(request.client) : undefined;
  if (request.loopback === null && networkClient === undefined) return null;
  const serverIp = request.loopback ?? serverAddressFor(target, networkClient!);
  const clientCertificate = request.clientCertificate ? input.context.certificates.clients[request.clientCertificate] : null;
  return { ...httpFields(request), serverIp, port: request.port ?? (request.tls ? 443 : 80), tls: request.tls, clientCertificate };
}

function canBatch(target: ServerTarget, request: PlannedRequest, input: SideInput): boolean {
  const plan = containerPlan(target, request, input);
  return plan !== null && batchable(plan);
}

interface BatchObserved {
  request: PlannedRequest;
  first: Sent;
  repeat: Sent | null;
}

/** Sends a batch (each request, then its repeat when noise is learnt, in the order single sends would) and
 * gives each its outcome and its error-log lines. */
async function sendBatch(target: ServerTarget, batch: readonly PlannedRequest[], input: SideInput, local: LazyLocalClient): Promise<BatchObserved[]> {
  const { httpd } = target;
  // Marked before the wait for the local client (a container started at the first loopback batch): a line that comes
  // meanwhile is the batch's, not lost between the last window's mark and this one.
  const mark = httpd.logMark();
  const client: SendingClient | undefined = batch[0]!.loopback !== null ? await local.get() : input.clients.get(batch[0]!.client);
  if (client === undefined) return batch.map((request) => ({ request, first: { outcome: { kind: "not-run", reason: `no client ${request.client}` }, lines: [], connections: [], units: 0 }, repeat: null }));
  const clientAddress = batch[0]!.loopback ?? input.clients.get(batch[0]!.client)!.ip;
  const items: Array<{ request: number; repeat: boolean; item: BatchItem }> = [];
  batch.forEach((request, index) => {
    const plan = containerPlan(target, request, input)!;
    items.push({ request: index, repeat: false, item: { plan, skipAfterTimeout: false } });
    if (request.repeat && input.context.learnNoise) items.push({ request: index, repeat: true, item: { plan, skipAfterTimeout: true } });
  });
  const records = await sendBatchFromContainer(client, items.map((entry) => entry.item), { gapMs: BATCH_GAP_MS });
  // A Digest request answered after a challenge went twice: two access lines, the second its answer's.
  const logLines = (record: (typeof records)[number]): number => (record.outcome === null ? 0 : accessUnits(record.outcome));
  const answered = records.reduce((sum, record) => sum + logLines(record), 0);
  await httpd.errorLinesArrivedSince(mark, { accessLines: answered });
  const unmarked: BatchSlot[] = records.map((record) => ({ localPort: record.localPort, receivedAt: record.receivedAt, skipped: record.outcome === null }));
  // Each answered request's access line tells when, and after which error lines, it was logged (markLoggedSlots).
  const units = records.map(logLines);
  const first = httpd.accessLinesSince(mark);
  // With several access logs, the last request's further access lines may still be on their way.
  const logged =
    first !== null && answered > 0 && first.length % answered !== 0
      ? await httpd.logs.access.waitForQuiet(ATTRIBUTION_ACCESS_QUIET_MS, 1_000, Date.now()).then(() => httpd.accessLinesSince(mark))
      : first;
  // The error lines as they are after every wait, with nothing awaited between them and the caller's next mark: taken
  // before the wait for further access lines, a line that came during it (the last request's, written before its
  // further access lines) was in neither this batch's lines nor the next window's. So a 2.2 rhel-balancer (two access
  // logs) lost its last request's AH01797 in one fleet run of three.
  const lines = httpd.errorLinesArrivedFrom(mark);
  const marked = logged === null ? null : markLoggedSlots(unmarked, units, logged);
  if (logged !== null && marked === null) log("[%s] %s: %d access lines for %d answers: error lines placed by when they came", httpd.container.shortId, input.scenario, logged.length, answered);
  const slots = marked ?? unmarked;
  const attributed = attributeBatchLines(lines, slots, BATCH_GAP_MS, FAMILY_TRAITS[httpd.inspection.version.family].logDialect);
  const observed: BatchObserved[] = batch.map((request) => ({ request, first: { outcome: { kind: "not-run", reason: "not sent" }, lines: [], connections: [], units: 0 }, repeat: null }));
  items.forEach((entry, index) => {
    const { outcome, localPort } = records[index]!;
    if (outcome === null) return;
    const sent: Sent = { outcome, lines: attributed[index]!, connections: connectionsOf(clientAddress, localPort === null ? [] : [localPort]), units: units[index]! };
    if (entry.repeat) observed[entry.request]!.repeat = sent;
    else observed[entry.request]!.first = sent;
  });
  return observed;
}
