// Runs one scenario's server and requests on one side and records what happened. No verdicts here.
import type { StartedClientContainer } from "../clients/client-container.ts";
import { sendFromContainer, sendRawFromContainer } from "../clients/client-container.ts";
import { sendHttp } from "../clients/send-http.ts";
import { sendRaw } from "../clients/send-raw.ts";
import { parseErrorLogLine } from "../logs/parse-error-log.ts";
import { parseConfigTestOutput } from "../logs/split-config-test.ts";
import { interpolate } from "../scenario/interpolate.ts";
import { forFamily, type RequestSpec, type Scenario } from "../scenario/scenario.ts";
import { FAMILY_TRAITS } from "../server/family-traits.ts";
import { type StartedHttpd, startHttpd } from "../server/httpd-server.ts";
import type { ImageInspection } from "../server/inspect-image.ts";
import { renderConfig } from "../server/render-config.ts";
import type { BundleFile } from "../server/site-bundle.ts";
import type { ExecOutcome, RequestObservation, RequestOutcome, Side, SideObservation } from "./observation.ts";
import type { RunContext } from "./run-context.ts";
import { CERTS_DIR, scenarioVariables, type VariableSources } from "./variables.ts";

export interface SideInput {
  side: Side;
  inspection: ImageInspection;
  scenario: Scenario;
  context: RunContext;
  network: { name: string; gateway: string; subnet: string };
  clients: Map<string, StartedClientContainer>;
  backends: VariableSources["backends"];
  serverCertificate: { certificate: string; privateKey: string } | null;
}

export async function runSide(input: SideInput): Promise<SideObservation> {
  const { scenario, inspection, context } = input;
  const { family, profile } = inspection;
  const dialect = FAMILY_TRAITS[family].logDialect;
  const vars = scenarioVariables({
    profile,
    network: input.network,
    clients: [...input.clients.values()].map((c) => ({ name: c.name, ip: c.ip, hostname: c.hostname })),
    backends: input.backends,
  });
  const server = scenario.server;
  const site = interpolate(forFamily(server.config, family) ?? "", vars, server.at);
  const rendered = renderConfig({
    base: server.base,
    family,
    profile,
    availableModules: inspection.modules,
    builtinModules: inspection.builtinModules,
    stockConfig: inspection.stockConfig,
    modules: forFamily(server.modules, family) ?? [],
    omitModules: forFamily(server.omitModules, family) ?? [],
    logLevel: server.logLevel,
    listenTls: server.tls !== null,
    site,
  });
  const files: BundleFile[] = server.files.map((file) => ({
    path: `${profile.serverRoot}/${file.path}`,
    content: interpolate(file.content, vars, server.at),
    mode: file.mode,
  }));
  files.push(
    { path: `${CERTS_DIR}/ca.crt`, content: context.certificates.ca.certificate },
    { path: `${CERTS_DIR}/ca.crl`, content: context.certificates.crl },
  );
  if (input.serverCertificate) {
    files.push(
      { path: `${CERTS_DIR}/server.crt`, content: input.serverCertificate.certificate },
      { path: `${CERTS_DIR}/server.key`, content: input.serverCertificate.privateKey, mode: 0o600 },
    );
  }
  const prepare = (forFamily(server.prepare, family) ?? []).map((command) => interpolate(command, vars, server.at));

  const httpd = await startHttpd(context.scope, {
    inspection,
    scenario: scenario.id,
    config: rendered.text,
    files,
    prepare,
    network: { name: input.network.name, aliases: [`server-${input.side}`] },
    listenTls: server.tls !== null,
  });
  try {
    const { boot } = httpd;
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
    for (const request of scenario.requests) {
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
      const first = await sendAttributed(httpd, request, input, vars);
      const repeat = request.repeat && context.learnNoise ? await sendAttributed(httpd, request, input, vars) : null;
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
      side: input.side,
      server: { image: inspection.image, version: inspection.version, family, profile: profile.id },
      missingModules: rendered.missingModules,
      prepare: prepareOutcomes,
      configTest: { ok: configTest.ok, exitCode: boot.phases.configTest?.exitCode ?? -1, messages: configTest.messages, records: configTest.records },
      started: boot.started,
      startFailure:
        boot.started || !configTest.ok ? null : { exitCode: boot.exitCode, logTail: httpd.container.stderr.lines.slice(-20) },
      startupLog: boot.startupLines.map((line) => parseErrorLogLine(line, dialect)),
      requests,
      trailingLog: trailing.map((line) => parseErrorLogLine(line, dialect)),
      renderedConfig: rendered.text,
    };
  } finally {
    await httpd.stop();
  }
}

async function sendAttributed(
  httpd: StartedHttpd,
  request: RequestSpec,
  input: SideInput,
  vars: Record<string, string>,
): Promise<{ outcome: RequestOutcome; lines: string[] }> {
  const mark = httpd.logMark();
  const outcome = await send(httpd, request, input, vars);
  const lines = await httpd.errorLinesSince(mark, { expectAccessLine: outcome.kind !== "exec" });
  return { outcome, lines };
}

async function send(httpd: StartedHttpd, request: RequestSpec, input: SideInput, vars: Record<string, string>): Promise<RequestOutcome> {
  const at = request.at;
  const text = (value: string): string => interpolate(value, vars, at);
  const path = text(request.path);
  const hostHeader = request.host === null ? null : text(request.host);
  const headers = request.headers.map(([name, value]): [string, string] => [name, text(value)]);
  const body = request.body === null ? null : text(request.body);
  const clientCertificate = request.clientCertificate ? input.context.certificates.clients[request.clientCertificate] : null;

  if (request.mode === "exec") {
    const started = Date.now();
    const result = await httpd.container.exec(["/bin/sh", "-c", text(request.exec ?? "")], { timeoutMs: request.timeoutMs });
    return { kind: "exec", exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, durationMs: Date.now() - started };
  }

  const fromHost = request.client === "host";
  const client = fromHost ? null : input.clients.get(request.client);
  if (!fromHost && !client) return { kind: "not-run", reason: `no client ${request.client}` };
  const port = request.tls ? 443 : 80;

  if (request.mode === "raw") {
    const data = Buffer.from(text(request.raw ?? ""), "latin1");
    if (client) {
      return sendRawFromContainer(client, { serverIp: httpd.networkAddress ?? "", port, data, trickleMs: request.trickleMs, timeoutMs: request.timeoutMs });
    }
    return sendRaw({
      target: { host: httpd.host, port: (request.tls ? httpd.ports.https : httpd.ports.http) ?? 0, tls: request.tls },
      servername: hostHeader,
      data,
      trickleMs: request.trickleMs,
      timeoutMs: request.timeoutMs,
      tlsClient: clientCertificate,
    });
  }

  if (client) {
    return sendFromContainer(client, {
      serverIp: httpd.networkAddress ?? "",
      tls: request.tls,
      method: request.method,
      path,
      hostHeader,
      headers,
      body,
      auth: request.auth,
      httpVersion: request.httpVersion,
      timeoutMs: request.timeoutMs,
      clientCertificate,
    });
  }
  const plan = {
    target: { host: httpd.host, port: (request.tls ? httpd.ports.https : httpd.ports.http) ?? 0, tls: request.tls },
    method: request.method,
    path,
    hostHeader,
    headers,
    body,
    auth: request.auth,
    httpVersion: request.httpVersion,
    keepAliveRequests: request.keepAliveRequests,
    timeoutMs: request.timeoutMs,
    tlsClient: clientCertificate,
    caCertificate: null,
  };
  return sendHttp(plan);
}
