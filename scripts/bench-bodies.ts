// npm run bench (its last part; BENCH_BODIES=0 skips it), or alone: node --import tsx scripts/bench-bodies.ts
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

function scenarioYaml(client: Client, body: Body, sizeMiB: number): string {
  const from = client === "container" || client === "raw-container" ? ", client: c1" : "";
  const path = PATHS[body];
  const request = client.startsWith("raw")
    ? `{ name: big\${n}, raw: "GET ${path} HTTP/1.1\\r\\nHost: big.test\\r\\nConnection: close\\r\\n\\r\\n", repeat: false, timeoutMs: 120000${from} }`
    : `{ name: big\${n}, path: ${path}, repeat: false, timeoutMs: 120000${from} }`;
  return `
id: bench-body-${client}-${body}
title: a ${sizeMiB} MB ${body} body through the ${client} client
seed: [D3]
clients: [{ name: c1 }]
server:
  modules: [include]
  config: |
    AddOutputFilter INCLUDES .shtml
    AddType application/octet-stream .shtml
    <Directory "{{server.docroot}}">
        Options +Includes
    </Directory>
  prepare:
    - dd if=/dev/zero of={{server.docroot}}${path} bs=1M count=${sizeMiB}
requests:
${[1, 2, 3].map((n) => `  - ${request.replace("\${n}", String(n))}`).join("\n")}
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
async function child(client: Client, body: Body, sizeMiB: number): Promise<void> {
  const { connectEngine } = await import("../harness/engine/engine.ts");
  const { ensureRecipeImage } = await import("../harness/engine/images.ts");
  const { runHarness } = await import("../harness/observe/run-harness.ts");
  const { parseScenario } = await import("../harness/scenario/load-scenario.ts");
  const engine = await connectEngine();
  const candidate = await ensureRecipeImage(engine, "httpd-2.4");
  const { runs } = await runHarness({
    scenarios: [parseScenario(scenarioYaml(client, body, sizeMiB), `bench-${client}-${body}.scenario.yaml`)],
    // No baseline: one side, one body through this process.
    baselineImage: "harness-bench-no-baseline:none",
    candidateImage: candidate,
    allowMissingBaseline: true,
    concurrency: 1,
    learnNoise: false,
  });
  const run = runs[0]!;
  const observation = run.observations[0]!;
  // The same request three times, one after the other: the median time (this machine is shared and noisy).
  const outcomes = observation.requests.map((request) => request.outcome);
  const responses = outcomes.flatMap((outcome) => (outcome.kind === "response" ? [outcome] : []));
  if (responses.length !== outcomes.length) throw new Error(`${client} ${body}: ${JSON.stringify(outcomes).slice(0, 1000)}`);
  const outcome = [...responses].sort((a, b) => a.durationMs - b.durationMs)[1]!;
  const wrong = responses.find((r) => r.bodyBytes !== outcome.bodyBytes);
  if (wrong) throw new Error(`${client} ${body}: bodies of ${wrong.bodyBytes} and ${outcome.bodyBytes} bytes`);
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

function runChild(client: Client, body: Body, sizeMiB = SIZE_MIB): Promise<ChildResult> {
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

/** A server like the harness's, started with the docker CLI from the config the harness rendered, both files
 * made in it, and a tools container beside it: plain transfers measured next to each harness run (this
 * machine is shared, so a floor measured minutes apart from its case says little). */
interface Floor {
  /** Median of three: curl -o /dev/null on the host, curl -o /dev/null in the tools container, and curl's
   * output through docker's exec stream into this process (counted and dropped). */
  measure(body: Body): Promise<{ host: number; container: number; exec: number }>;
  stop(): Promise<void>;
}

async function startFloor(reference: ChildResult, tools: string): Promise<Floor> {
  const { connectEngine } = await import("../harness/engine/engine.ts");
  const { ExecDemuxer } = await import("../harness/engine/exec-demuxer.ts");
  const engine = await connectEngine();
  const dir = mkdtempSync(join(tmpdir(), "bench-bodies-"));
  const net = `bench-bodies-${process.pid}-${Date.now()}`;
  const made: string[] = [];
  const stop = async () => {
    if (made.length) await docker("rm", "-f", ...made).catch(() => undefined);
    await docker("network", "rm", net).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
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
    const port = (await docker("port", id, "80/tcp")).stdout.trim().split("\n")[0]!.split(":").pop()!;
    // Ready when both files answer in full (dd runs before httpd starts).
    for (let i = 0; ; i++) {
      const ready = await Promise.all(
        Object.values(PATHS).map((path) =>
          run("curl", ["-s", "-o", "/dev/null", "-w", "%{size_download}", `http://127.0.0.1:${port}${path}`]).then(
            (r) => Number(r.stdout) === SIZE_MIB * MIB,
            () => false,
          ),
        ),
      );
      if (ready.every(Boolean)) break;
      if (i >= 600) throw new Error(`the floor server did not answer in 60 s: ${(await docker("logs", id)).stderr.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const toolsId = (await docker("run", "-d", "--network", net, tools, "sleep", "infinity")).stdout.trim();
    made.push(toolsId);
    const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
    const throughExec = async (url: string): Promise<number> => {
      const started = performance.now();
      const exec = await engine.docker.getContainer(toolsId).exec({ Cmd: ["curl", "-s", "-i", "--raw", url], AttachStdout: true, AttachStderr: true });
      const stream = await exec.start({ hijack: true, stdin: false });
      let bytes = 0;
      const demuxer = new ExecDemuxer(
        (chunk) => (bytes += chunk.length),
        () => undefined,
      );
      await new Promise<void>((resolve, reject) => {
        stream.on("data", (chunk: Buffer) => demuxer.push(chunk));
        stream.on("end", () => resolve());
        stream.on("error", reject);
      });
      if (bytes < SIZE_MIB * MIB) throw new Error(`only ${bytes} bytes through exec from ${url}`);
      return performance.now() - started;
    };
    const measure = async (body: Body) => {
      const host: number[] = [];
      const container: number[] = [];
      const exec: number[] = [];
      for (let i = 0; i < 3; i++) {
        const fromHost = await run("curl", ["-s", "-o", "/dev/null", "-w", "%{time_total}", `http://127.0.0.1:${port}${PATHS[body]}`]);
        host.push(Number(fromHost.stdout) * 1000);
        const fromContainer = await docker("exec", toolsId, "curl", "-s", "-o", "/dev/null", "-w", "%{time_total}", `http://srv${PATHS[body]}`);
        container.push(Number(fromContainer.stdout) * 1000);
        exec.push(await throughExec(`http://srv${PATHS[body]}`));
      }
      return { host: median(host), container: median(container), exec: median(exec) };
    };
    return { measure, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs every case and prints the figures with their targets; returns the number of misses. */
export async function benchBodies(): Promise<number> {
  const { connectEngine } = await import("../harness/engine/engine.ts");
  const { ensureRecipeImage } = await import("../harness/engine/images.ts");
  const engine = await connectEngine();
  const tools = await ensureRecipeImage(engine, "tools");
  const results = new Map<string, ChildResult>();
  const fixed = new Map<Client, number>();
  const plain = new Map<string, { host: number; container: number; exec: number }>();
  // The same run with a 1 MiB body: what the harness takes before any body (modules, engine, inspection).
  const reference = await runChild("host", "static", 1);
  fixed.set("host", reference.maxRssMiB);
  const floor = await startFloor(reference, tools);
  try {
    for (const client of CLIENTS) {
      if (!fixed.has(client)) fixed.set(client, (await runChild(client, "static", 1)).maxRssMiB);
      for (const body of BODIES) {
        // Plain transfers just before and just after the case; the smaller median of the two.
        const before = await floor.measure(body);
        results.set(`${client}/${body}`, await runChild(client, body));
        const after = await floor.measure(body);
        plain.set(`${client}/${body}`, {
          host: Math.min(before.host, after.host),
          container: Math.min(before.container, after.container),
          exec: Math.min(before.exec, after.exec),
        });
      }
    }
  } finally {
    await floor.stop();
  }

  console.log(`\n${SIZE_MIB} MB bodies, one harness run per case (candidate side only, the request sent 3 times: median time): peak RSS of the whole harness process`);
  console.log(`(the same run with a 1 MiB body in brackets), the request's time, and a plain transfer measured just before and`);
  console.log(`after the case: curl -o /dev/null from the same place (the host, or a tools container on the scenario's network)\n`);
  const header = ["case", "bytes", "peak RSS MiB (1 MiB body)", `target <${RSS_TARGET_MIB}`, "harness ms", "plain ms", "ratio", `target <=${TIME_TARGET_RATIO}`, "exec-stream ms", "ratio"];
  const rows: string[][] = [];
  let misses = 0;
  for (const client of CLIENTS) {
    for (const body of BODIES) {
      const result = results.get(`${client}/${body}`)!;
      const inContainer = client === "container" || client === "raw-container";
      const measured = plain.get(`${client}/${body}`)!;
      const floor = inContainer ? measured.container : measured.host;
      const execFloor = inContainer ? measured.exec : null;
      const ratio = result.durationMs / floor;
      const rssOk = result.maxRssMiB < RSS_TARGET_MIB && result.bodyBytes === SIZE_MIB * MIB;
      const timeOk = ratio <= TIME_TARGET_RATIO;
      misses += (rssOk ? 0 : 1) + (timeOk ? 0 : 1);
      rows.push([
        `${client} ${body}`,
        result.bodyBytes === SIZE_MIB * MIB ? String(result.bodyBytes) : `${result.bodyBytes} (WRONG)`,
        `${result.maxRssMiB.toFixed(0)} (${fixed.get(client)!.toFixed(0)})`,
        rssOk ? "PASS" : "MISS",
        result.durationMs.toFixed(0),
        floor.toFixed(0),
        ratio.toFixed(2),
        timeOk ? "PASS" : "MISS",
        execFloor === null ? "" : execFloor.toFixed(0),
        execFloor === null ? "" : (result.durationMs / execFloor).toFixed(2),
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log(`\nexec-stream: curl -i --raw in the tools container, its stdout through docker's exec stream into a Node process`);
  console.log(`and dropped: the transport every byte of a client container's answer crosses (no target; for reading the ratio)`);
  console.log(`big bodies: ${misses === 0 ? "all PASS" : `${misses} MISS`}`);
  return misses;
}

const entry = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (entry && process.argv[2] === "--child") await child(process.argv[3] as Client, process.argv[4] as Body, Number(process.argv[5] ?? SIZE_MIB));
else if (entry) await benchBodies();
