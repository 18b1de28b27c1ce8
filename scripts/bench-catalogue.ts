// npm run bench, its first part (BENCH_CATALOGUE=0 skips it): the whole catalogue through the harness at its
// default concurrency, next to a sequential docker-CLI script doing the same boots and requests (the floor),
// one command after another as a shell script would. Target: the harness in ≤ 0.12× the floor's time.
//
// The floor, per scenario: its network; its client and backend containers; for each side in turn, a server
// created with the config the harness rendered, its files copied in, started, its log polled until httpd is
// ready (or gone), its published ports read once; each request once, twice when the harness sent it again to
// learn noise: HTTP and HTTPS from the host with curl, a client's request with `docker exec CLIENT curl`, a local
// client's from a tools container in the server's network namespace, an exec request with `docker exec`; a raw
// (slow-client) request takes what it took the harness, since its time is the server's timeout, not the tool's;
// the server's log read once more after its requests (the harness reads each request's lines); then everything is
// removed. A request the harness did not send (its server did not start) is not sent by the floor either.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CATALOGUE_DIR } from "../harness/cli/catalogue-dir.ts";
import type { RequestObservation, SideObservation } from "../harness/observe/observation.ts";
import { runHarness } from "../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../harness/observe/scenario-run.ts";
import type { PlannedRequest, SidePlan } from "../harness/plan/scenario-plan.ts";
import { loadScenarios } from "../harness/scenario/load-scenario.ts";
import { FAMILY_TRAITS } from "../harness/server/family-traits.ts";
import { runCertificates } from "../harness/observe/run-certificates.ts";
import { type FloorCertificates, fileContent, floorCertificates } from "./bench-floor.ts";
import { type BenchImages, benchImages, verdictLine } from "./bench-images.ts";

const RATIO_TARGET = 0.12;

const run = promisify(execFile);
const docker = (...args: string[]) => run("docker", args, { maxBuffer: 64 * 1024 * 1024 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The floor's network, once its containers are gone. On a busy engine a removal right after `rm -f` can still
 * find an endpoint being released (one network was left after a loaded run, the failure swallowed): tried again,
 * then reported with what to do. */
async function removeNetwork(net: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await docker("network", "rm", net);
      return;
    } catch (error) {
      if (/No such network|not found/i.test(String(error))) return;
      if (attempt >= 10) {
        console.error(`  [floor] network ${net} could not be removed (${String(error).split("\n")[0]}); remove it with: docker network rm ${net}`);
        return;
      }
      await sleep(500);
    }
  }
}

/** One scenario by the floor's script. */
async function floorScenario(scenarioRun: ScenarioRun, images: BenchImages, certificates: FloorCertificates): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-floor-"));
  const net = `bench-floor-${process.pid}-${Date.now()}`;
  const made: string[] = [];
  const clients = new Map<string, string>();
  try {
    await docker("network", "create", net);
    for (const client of scenarioRun.scenario.clients) {
      const id = (await docker("run", "-d", "--network", net, "--network-alias", client.name, images.tools, "sleep", "infinity")).stdout.trim();
      made.push(id);
      clients.set(client.name, id);
    }
    for (const backend of scenarioRun.scenario.backends) {
      made.push((await docker("run", "-d", "--network", net, "--network-alias", backend.name, images.candidate)).stdout.trim());
    }
    for (const observation of scenarioRun.observations) {
      const plan = scenarioRun.plan.sides.find((s) => s.side.id === observation.side.id)!;
      await floorSide(observation, plan, { net, dir, made, clients, tools: images.tools, certificates });
    }
  } finally {
    if (made.length) await docker("rm", "-f", ...made).catch(() => undefined);
    await removeNetwork(net);
    rmSync(dir, { recursive: true, force: true });
  }
}

interface FloorScope {
  net: string;
  dir: string;
  made: string[];
  clients: Map<string, string>;
  tools: string;
  certificates: FloorCertificates;
}

async function floorSide(observation: SideObservation, plan: SidePlan, scope: FloorScope): Promise<void> {
  const tree = join(scope.dir, observation.side.id);
  mkdirSync(join(tree, dirname(plan.config.path)), { recursive: true });
  writeFileSync(join(tree, plan.config.path), observation.renderedConfig);
  for (const file of plan.files) {
    // Every staged file, the run's certificates too (a TLS server without them would not start, and the floor
    // would do less than the harness did).
    const content = fileContent(file, scope.certificates);
    if (content === null) continue;
    mkdirSync(dirname(join(tree, file.path)), { recursive: true });
    writeFileSync(join(tree, file.path), content, { mode: file.mode ?? 0o644 });
  }
  const script = [...plan.setup, ...plan.prepare, "exec httpd-foreground"].join("\n");
  const publish = plan.ports.flatMap((port) => ["-p", `127.0.0.1::${port}`]);
  const id = (await docker("create", "--network", scope.net, "--network-alias", `server-${plan.side.id}`, ...publish, observation.server.image, "sh", "-c", script)).stdout.trim();
  scope.made.push(id);
  await docker("cp", `${tree}/.`, `${id}:/`);
  await docker("start", id);
  const ready = FAMILY_TRAITS[observation.server.version.family].readyLog;
  for (let i = 0; i < 100; i++) {
    if (ready.test((await docker("logs", id)).stderr)) break;
    if ((await docker("inspect", "-f", "{{.State.Running}}", id)).stdout.trim() !== "true") return;
    await sleep(100);
  }
  // The published ports, read once (a script reads them once per server, not once per request).
  const published = new Map<number, string>();
  for (const line of (await docker("port", id)).stdout.split("\n")) {
    const match = /^(\d+)\/tcp -> [\d.]+:(\d+)$/.exec(line.trim());
    if (match) published.set(Number(match[1]), match[2]!);
  }
  let local: string | null = null;
  for (const [index, request] of plan.requests.entries()) {
    const observed = observation.requests[index];
    if (observed === undefined || observed.outcome.kind === "not-run") continue;
    for (const outcome of [observed.outcome, observed.repeat]) {
      if (outcome === null) continue;
      if (request.loopback !== null && local === null && request.mode === "http") {
        local = (await docker("run", "-d", "--network", `container:${id}`, scope.tools, "sleep", "infinity")).stdout.trim();
        scope.made.push(local);
      }
      await floorRequest(request, observed, outcome, { server: id, side: plan.side.id, local, clients: scope.clients, published });
    }
  }
  await docker("logs", id).catch(() => undefined);
}

async function floorRequest(
  request: PlannedRequest,
  observed: RequestObservation,
  outcome: NonNullable<RequestObservation["repeat"]>,
  where: { server: string; side: string; local: string | null; clients: Map<string, string>; published: ReadonlyMap<number, string> },
): Promise<void> {
  if (request.mode === "exec") {
    await docker("exec", where.server, "/bin/sh", "-c", request.exec ?? "").catch(() => undefined);
    return;
  }
  if (request.mode === "raw") {
    await sleep("durationMs" in outcome ? outcome.durationMs : 0);
    return;
  }
  const port = request.port ?? (request.tls ? 443 : 80);
  const scheme = request.tls ? "https" : "http";
  const curl = ["-s", "-k", "--globoff", "-o", "/dev/null", "--max-time", String(Math.ceil(request.timeoutMs / 1000)), "-X", request.method];
  if (request.hostHeader) curl.push("-H", `Host: ${request.hostHeader}`);
  for (const [name, value] of request.headers) curl.push("-H", `${name}: ${value}`);
  if (request.auth) curl.push("-u", `${request.auth.user}:${request.auth.password}`);
  if (request.body !== null) curl.push("--data-binary", request.body);
  const path = request.path.replace(/\$\{[^}]+\}/g, "x");
  if (request.client === "host") {
    const published = where.published.get(port);
    if (!published) return;
    await run("curl", [...curl, `${scheme}://127.0.0.1:${published}${path}`]).catch(() => undefined);
    return;
  }
  const from = request.loopback !== null ? where.local : where.clients.get(observed.client);
  if (!from) return;
  const address = request.loopback !== null ? (request.loopback.includes(":") ? `[${request.loopback}]` : request.loopback) : `server-${where.side}`;
  await docker("exec", from, "curl", ...curl, `${scheme}://${address}:${port}${path}`).catch(() => undefined);
}

export async function benchCatalogue(paths: readonly string[] = []): Promise<void> {
  const scenarios = await loadScenarios(paths.length ? [...paths] : [CATALOGUE_DIR]);
  const images = await benchImages();
  let concurrency = "";
  const started = performance.now();
  const { runs } = await runHarness({
    scenarios,
    baselineImage: images.baseline,
    candidateImage: images.candidate,
    allowMissingBaseline: false,
    concurrency: null,
    learnNoise: true,
    onProgress: (event) => {
      if (event.kind === "note") concurrency = /^concurrency: (\d+) scenarios at once/.exec(event.message)?.[1] ?? concurrency;
    },
  });
  const harnessMs = performance.now() - started;
  const certificates = await runCertificates();
  const floorStarted = performance.now();
  for (const scenarioRun of runs) await floorScenario(scenarioRun, images, await floorCertificates(certificates, scenarioRun.plan));
  const floorMs = performance.now() - floorStarted;
  const errors = runs.filter((r) => r.error !== null).length;
  console.log(`catalogue: ${scenarios.length} scenarios; baseline ${images.baseline}, candidate ${images.candidate}`);
  console.log(`  harness, default concurrency (${concurrency} at once): ${(harnessMs / 1000).toFixed(1)} s${errors ? ` (${errors} scenario errors)` : ""}`);
  console.log(`  sequential docker-CLI floor, same boots and requests: ${(floorMs / 1000).toFixed(1)} s`);
  console.log(verdictLine("catalogue time / floor", harnessMs / floorMs, RATIO_TARGET, "≤", (v) => `${v.toFixed(2)}×`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchCatalogue(process.argv.slice(2));
