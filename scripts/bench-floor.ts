// The sequential docker-CLI floor of `npm run bench`: what a shell script does with the docker client and curl to
// run one side of a plan the harness made, one server after another, nothing at once. The fleet's and the proof's
// floors use it (scripts/bench-fleet.ts, scripts/bench-prove.ts); the catalogue's has its own, which also starts
// clients and backends (scripts/bench-catalogue.ts).
//
// One side, from the harness's own plan (so the same config, the same staged files, the same requests):
//   - the staged tree (the rendered main file, every planned file, the run's certificates where the plan has them
//     generated) written to a directory on the host;
//   - `docker create` of the side's image running the harness's own start script (server/start-script.ts: the
//     tree's setup lines, prepare, `httpd -t`, `httpd -DFOREGROUND` with the tree's arguments and environment),
//     the plan's ports published on 127.0.0.1, then `docker cp` of the tree into it and `docker start`;
//   - ready when curl from the host gets an answer on the first port (every 100 ms, the container's state looked
//     at every fifth try; at most 30 s, as the harness waits): a server that exits is not sent anything, as the
//     harness sends nothing to a server that did not start;
//   - each request with curl from the host through the published port, twice when the harness sends it again to
//     learn noise; an exec request with `docker exec`;
//   - the logs read: `docker logs`, and the log files the plan follows with one `docker exec cat`;
//   - `docker rm -f`.
// Where a script could do less than the harness it does less (curl from the host instead of from client
// containers at the clients' addresses, no network per config, no second look at the port): the floor errs low,
// which only makes a ratio to it harder to meet.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { PemPair } from "../harness/backends/certificate-factory.ts";
import type { ObserveContext } from "../harness/observe/observe-context.ts";
import type { PlannedFile, PlannedRequest, ScenarioPlan, SidePlan } from "../harness/plan/scenario-plan.ts";
import { PROFILES } from "../harness/server/httpd-profile.ts";
import { startScript } from "../harness/server/start-script.ts";

const run = promisify(execFile);
const docker = (...args: string[]) => run("docker", args, { maxBuffer: 64 * 1024 * 1024 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The certificates a floor stages where the plan has them generated: the run's, made once by the bench. */
export interface FloorCertificates {
  run: ObserveContext["certificates"];
  /** The plan's server certificate, issued by the run's CA, or null when the plan asks for none. */
  server: PemPair | null;
}

export async function floorCertificates(run: ObserveContext["certificates"], plan: ScenarioPlan): Promise<FloorCertificates> {
  return { run, server: plan.serverCertificate ? await run.server(plan.serverCertificate.kind, plan.serverCertificate.subject) : null };
}

/** A planned file's bytes; null for a generated one the plan has no certificate for. */
export function fileContent(file: PlannedFile, certificates: FloorCertificates): string | Buffer | null {
  if ("text" in file.content) return file.content.text;
  if ("base64" in file.content) return Buffer.from(file.content.base64, "base64");
  switch (file.content.generated) {
    case "ca-certificate":
      return certificates.run.ca.certificate;
    case "ca-crl":
      return certificates.run.crl;
    case "server-certificate":
      return certificates.server?.certificate ?? null;
    case "server-key":
      return certificates.server?.privateKey ?? null;
  }
}

export interface FloorSide {
  plan: SidePlan;
  /** The files staged: the plan's, or a variant's set (prove's mutants). */
  files: readonly PlannedFile[];
  /** The requests sent, each as many times as the harness sends it. */
  requests: ReadonlyArray<{ request: PlannedRequest; times: number }>;
  certificates: FloorCertificates;
}

/** The requests of a side as the harness sends them: twice those it repeats to learn noise. */
export function sentRequests(plan: SidePlan, learnNoise: boolean, names?: ReadonlySet<string>): Array<{ request: PlannedRequest; times: number }> {
  return plan.requests.filter((r) => names === undefined || names.has(r.name)).map((request) => ({ request, times: request.repeat && learnNoise ? 2 : 1 }));
}

/** One side by the floor's script; whether its server answered (and so was sent its requests). */
export async function floorSide(side: FloorSide): Promise<boolean> {
  const { plan } = side;
  const profile = PROFILES.find((p) => p.id === plan.server.profile);
  if (profile === undefined) throw new Error(`no profile ${plan.server.profile}`);
  const dir = mkdtempSync(join(tmpdir(), "bench-floor-"));
  let id: string | null = null;
  try {
    for (const file of [{ path: plan.config.path, content: { text: plan.config.text } } as PlannedFile, ...side.files]) {
      const content = fileContent(file, side.certificates);
      if (content === null) continue;
      mkdirSync(join(dir, dirname(file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), content, { mode: file.mode ?? 0o644 });
    }
    const script = startScript(profile, plan.prepare, { args: plan.httpd.args, environment: plan.httpd.environment, setup: plan.setup });
    const ports = [...new Set([...plan.ports, ...side.requests.map(({ request }) => request.port ?? (request.tls ? 443 : 80))])];
    const publish = ports.flatMap((port) => ["-p", `127.0.0.1::${port}`]);
    id = (await docker("create", ...publish, "--entrypoint", "/bin/sh", plan.server.image, "-c", script)).stdout.trim();
    await docker("cp", `${dir}/.`, `${id}:/`);
    await docker("start", id);
    const published = new Map<number, string>();
    for (const line of (await docker("port", id)).stdout.split("\n")) {
      const match = /^(\d+)\/tcp -> [\d.]+:(\d+)$/.exec(line.trim());
      if (match) published.set(Number(match[1]), match[2]!);
    }
    const first = plan.ports[0] ?? 80;
    const ready = await waitReady(id, published.get(first), first === 443 || (plan.listenTls && first !== 80));
    if (!ready) {
      // BENCH_FLOOR_DEBUG=1: what a server that never answered said.
      if (process.env.BENCH_FLOOR_DEBUG) console.error(`  [floor] ${plan.side.id} ${plan.server.image} did not answer:\n${(await docker("logs", "--tail", "15", id).catch(() => ({ stderr: "" }))).stderr}`);
      return false;
    }
    for (const { request, times } of side.requests) for (let n = 0; n < times; n++) await floorRequest(id, request, published);
    await docker("logs", id).catch(() => undefined);
    const files = plan.logs ? [...plan.logs.error, ...plan.logs.access] : [];
    if (files.length > 0) await docker("exec", id, "cat", ...files).catch(() => undefined);
    return true;
  } finally {
    if (id !== null) await docker("rm", "-f", id).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitReady(id: string, port: string | undefined, tls: boolean): Promise<boolean> {
  if (port === undefined) return false;
  const deadline = Date.now() + 30_000;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    const answered = await run("curl", ["-s", "-k", "-o", "/dev/null", "--max-time", "2", `${tls ? "https" : "http"}://127.0.0.1:${port}/`]).then(() => true, () => false);
    if (answered) return true;
    if (attempt % 5 === 4 && (await docker("inspect", "-f", "{{.State.Running}}", id).catch(() => ({ stdout: "gone" }))).stdout.trim() !== "true") return false;
    await sleep(100);
  }
  return false;
}

async function floorRequest(id: string, request: PlannedRequest, published: ReadonlyMap<number, string>): Promise<void> {
  if (request.mode === "exec") {
    await docker("exec", id, "/bin/sh", "-c", request.exec ?? "").catch(() => undefined);
    return;
  }
  const port = request.port ?? (request.tls ? 443 : 80);
  const hostPort = published.get(port);
  if (hostPort === undefined) return;
  const curl = ["-s", "-k", "--globoff", "-o", "/dev/null", "--max-time", String(Math.ceil(request.timeoutMs / 1000)), "-X", request.method];
  if (request.hostHeader) curl.push("-H", `Host: ${request.hostHeader}`);
  for (const [name, value] of request.headers) curl.push("-H", `${name}: ${value}`);
  if (request.auth) curl.push(request.auth.scheme === "digest" ? "--digest" : "--basic", "-u", `${request.auth.user}:${request.auth.password}`);
  if (request.body !== null) curl.push("--data-binary", request.body);
  const path = request.path.replace(/\$\{[^}]+\}/g, "x");
  await run("curl", [...curl, `${request.tls ? "https" : "http"}://127.0.0.1:${hostPort}${path}`]).catch(() => undefined);
}
