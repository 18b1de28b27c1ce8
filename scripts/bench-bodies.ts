// npm run bench (its last part), or alone: node --import tsx scripts/bench-bodies.ts
//
// A 100 MB body from a real httpd through each client: host (undici), client container (curl in an exec),
// raw from the host, raw from a client container; static (Content-Length) and chunked (mod_include streams
// without a length). For each: the harness process's peak RSS (target < 200 MiB) and the request's time next
// to a plain transfer with curl to /dev/null from the same place (target <= about 2x).
//
// Each case is one harness run in a child process (this script with --child), candidate side only, so its peak
// RSS (resourceUsage().maxRSS) is the whole harness with one 100 MB body. The plain transfer is timed against a
// server started with the docker CLI from the config and prepare steps the harness rendered: curl on the host
// for the host clients, curl in a tools container on the same network for the container clients.
import { execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const MIB = 1024 * 1024;
const SIZE_MIB = 100;
const RSS_TARGET_MIB = 200;
const TIME_TARGET_RATIO = 2;

type Client = "host" | "container" | "raw-host" | "raw-container";
type Body = "static" | "chunked";
const CLIENTS: Client[] = ["host", "container", "raw-host", "raw-container"];
const BODIES: Body[] = ["static", "chunked"];
const PATHS: Record<Body, string> = { static: "/big.bin", chunked: "/big.shtml" };

function scenarioYaml(client: Client, body: Body): string {
  const from = client === "container" || client === "raw-container" ? ", client: c1" : "";
  const path = PATHS[body];
  const request = client.startsWith("raw")
    ? `{ name: big, raw: "GET ${path} HTTP/1.1\\r\\nHost: big.test\\r\\nConnection: close\\r\\n\\r\\n", repeat: false, timeoutMs: 120000${from} }`
    : `{ name: big, path: ${path}, repeat: false, timeoutMs: 120000${from} }`;
  return `
id: bench-body-${client}-${body}
title: a ${SIZE_MIB} MB ${body} body through the ${client} client
seed: [D3]
clients: [{ name: c1 }]
server:
  modules: [include]
  config: |
    AddOutputFilter INCLUDES .shtml
    AddType application/octet-stream .shtml
    <Directory "\${server.docroot}">
        Options +Includes
    </Directory>
  prepare:
    - dd if=/dev/zero of=\${server.docroot}${path} bs=1M count=${SIZE_MIB}
requests:
  - ${request}
`;
}

interface ChildResult {
  durationMs: number;
  bodyBytes: number;
  status: number;
  maxRssMiB: number;
  renderedConfig: string;
  prepare: string[];
  image: string;
  root: string;
}

/** In the child: one harness run of one case; prints its figures as JSON on the last line. */
async function child(client: Client, body: Body): Promise<void> {
  const { connectEngine } = await import("../harness/engine/engine.ts");
  const { ensureRecipeImage } = await import("../harness/engine/images.ts");
  const { runHarness } = await import("../harness/observe/run-harness.ts");
  const { parseScenario } = await import("../harness/scenario/load-scenario.ts");
  const engine = await connectEngine();
  const candidate = await ensureRecipeImage(engine, "httpd-2.4");
  const { runs } = await runHarness({
    scenarios: [parseScenario(scenarioYaml(client, body), `bench-${client}-${body}.scenario.yaml`)],
    // No baseline: one side, one body through this process.
    baselineImage: "harness-bench-no-baseline:none",
    candidateImage: candidate,
    allowMissingBaseline: true,
    concurrency: 1,
    learnNoise: false,
  });
  const run = runs[0]!;
  const observation = run.observations[0]!;
  const outcome = observation.requests[0]!.outcome;
  if (outcome.kind !== "response") throw new Error(`${client} ${body}: ${JSON.stringify(outcome)}`);
  const plan = run.plan.sides.find((s) => s.side.id === observation.side.id)!;
  const result: ChildResult = {
    durationMs: outcome.durationMs,
    bodyBytes: outcome.bodyBytes,
    status: outcome.status,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    renderedConfig: observation.renderedConfig,
    prepare: plan.prepare,
    image: observation.server.image,
    root: "/usr/local/apache2",
  };
  console.log(JSON.stringify(result));
}

const run = promisify(execFile);
const docker = (...args: string[]) => run("docker", args, { maxBuffer: 16 * MIB });

function runChild(client: Client, body: Body): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(import.meta.url);
    const proc = spawn(process.execPath, ["--import", "tsx", script, "--child", client, body], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    proc.on("exit", (code) => {
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0) reject(new Error(`child ${client} ${body} exited ${code}: ${out.slice(-2000)}`));
      else resolve(JSON.parse(last) as ChildResult);
    });
  });
}

/** A server like the harness's, started with the docker CLI, both files made in it; the plain transfers. */
async function plainTransfers(reference: ChildResult, tools: string): Promise<Map<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), "bench-bodies-"));
  const net = `bench-bodies-${process.pid}-${Date.now()}`;
  const made: string[] = [];
  const times = new Map<string, number>();
  try {
    await docker("network", "create", net);
    const tree = join(dir, "tree");
    mkdirSync(join(tree, "usr/local/apache2/conf"), { recursive: true });
    writeFileSync(join(tree, "usr/local/apache2/conf/httpd.conf"), reference.renderedConfig);
    const prepare = Object.values(PATHS).map((path) => `dd if=/dev/zero of=${reference.root}/htdocs${path} bs=1M count=${SIZE_MIB} 2>/dev/null`);
    const script = [...prepare, "exec httpd-foreground"].join("\n");
    const id = (
      await docker("create", "--network", net, "--network-alias", "srv", "-p", "127.0.0.1::80", reference.image, "sh", "-c", `cd ${reference.root}\n${script}`)
    ).stdout.trim();
    made.push(id);
    await docker("cp", `${tree}/.`, `${id}:/`);
    await docker("start", id);
    for (let i = 0; i < 300; i++) {
      if (/resuming normal operations/.test((await docker("logs", id)).stderr)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const port = (await docker("port", id, "80/tcp")).stdout.trim().split("\n")[0]!.split(":").pop()!;
    const toolsId = (await docker("run", "-d", "--network", net, tools, "sleep", "infinity")).stdout.trim();
    made.push(toolsId);
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    for (const body of BODIES) {
      const host: number[] = [];
      const container: number[] = [];
      for (let i = 0; i < 3; i++) {
        const fromHost = await run("curl", ["-s", "-o", "/dev/null", "-w", "%{time_total}", `http://127.0.0.1:${port}${PATHS[body]}`]);
        host.push(Number(fromHost.stdout) * 1000);
        const fromContainer = await docker("exec", toolsId, "curl", "-s", "-o", "/dev/null", "-w", "%{time_total}", `http://srv${PATHS[body]}`);
        container.push(Number(fromContainer.stdout) * 1000);
      }
      times.set(`host/${body}`, median(host));
      times.set(`container/${body}`, median(container));
    }
  } finally {
    if (made.length) await docker("rm", "-f", ...made).catch(() => undefined);
    await docker("network", "rm", net).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  return times;
}

async function main(): Promise<void> {
  const { connectEngine } = await import("../harness/engine/engine.ts");
  const { ensureRecipeImage } = await import("../harness/engine/images.ts");
  const engine = await connectEngine();
  const tools = await ensureRecipeImage(engine, "tools");
  const results = new Map<string, ChildResult>();
  for (const client of CLIENTS) for (const body of BODIES) results.set(`${client}/${body}`, await runChild(client, body));
  const plain = await plainTransfers(results.get("host/static")!, tools);

  console.log(`\n${SIZE_MIB} MB bodies, one harness run per case (candidate side only), peak RSS of the whole harness process`);
  console.log(`plain transfer: curl -o /dev/null from the same place (host, or a tools container on the scenario's network)\n`);
  const header = ["case", "bytes", "peak RSS MiB", `target <${RSS_TARGET_MIB}`, "harness ms", "plain ms", "ratio", `target <=${TIME_TARGET_RATIO}`];
  const rows: string[][] = [];
  let misses = 0;
  for (const client of CLIENTS) {
    for (const body of BODIES) {
      const result = results.get(`${client}/${body}`)!;
      const from = client === "host" || client === "raw-host" ? "host" : "container";
      const floor = plain.get(`${from}/${body}`)!;
      const ratio = result.durationMs / floor;
      const rssOk = result.maxRssMiB < RSS_TARGET_MIB && result.bodyBytes === SIZE_MIB * MIB;
      const timeOk = ratio <= TIME_TARGET_RATIO;
      misses += (rssOk ? 0 : 1) + (timeOk ? 0 : 1);
      rows.push([
        `${client} ${body}`,
        result.bodyBytes === SIZE_MIB * MIB ? String(result.bodyBytes) : `${result.bodyBytes} (WRONG)`,
        result.maxRssMiB.toFixed(0),
        rssOk ? "PASS" : "MISS",
        result.durationMs.toFixed(0),
        floor.toFixed(0),
        ratio.toFixed(2),
        timeOk ? "PASS" : "MISS",
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(`\nbig bodies: ${misses === 0 ? "all PASS" : `${misses} MISS`}`);
}

if (process.argv[2] === "--child") await child(process.argv[3] as Client, process.argv[4] as Body);
else await main();
