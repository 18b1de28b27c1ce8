// npm run bench [SCENARIO_FILES_OR_DIRS...]: time per scenario through the harness, next to a plain
// docker-CLI script doing the same boots and requests (the floor), and the ratio. Prints figures; asserts
// nothing. Both run one scenario at a time on the same engine.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { CATALOGUE_DIR } from "../harness/cli/catalogue-dir.ts";
import { DEFAULT_BASELINE_IMAGE } from "../harness/engine/default-images.ts";
import { connectEngine } from "../harness/engine/engine.ts";
import { ensureRecipeImage, imageExists } from "../harness/engine/images.ts";
import { runHarness } from "../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../harness/observe/scenario-run.ts";
import { loadScenarios } from "../harness/scenario/load-scenario.ts";
import { FAMILY_TRAITS } from "../harness/server/family-traits.ts";

const run = promisify(execFile);
const docker = (...args: string[]) => run("docker", args, { maxBuffer: 64 * 1024 * 1024 });

const paths = process.argv.slice(2);
const scenarios = await loadScenarios(paths.length ? paths : [CATALOGUE_DIR]);
const engine = await connectEngine();
const candidate = await ensureRecipeImage(engine, "httpd-2.4");
const tools = await ensureRecipeImage(engine, "tools");
const baselineWanted = process.env.HTTPD_BASELINE_IMAGE ?? DEFAULT_BASELINE_IMAGE;
const baseline = (await imageExists(engine, baselineWanted)) ? baselineWanted : candidate;

/** One harness run over all scenarios, one at a time: each scenario's own time, and the run's fixed cost
 * (engine, image inspection, certificate authority) apart. */
async function harnessTime(): Promise<{ perScenario: Map<string, { ms: number; run: ScenarioRun }>; fixedMs: number }> {
  const started = performance.now();
  const { runs } = await runHarness({
    scenarios,
    baselineImage: baseline,
    candidateImage: candidate,
    allowMissingBaseline: false,
    concurrency: 1,
    learnNoise: false,
  });
  const total = performance.now() - started;
  const perScenario = new Map(runs.map((r) => [r.scenario.id, { ms: r.durationMs, run: r }]));
  return { perScenario, fixedMs: total - runs.reduce((acc, r) => acc + r.durationMs, 0) };
}

/** The same work with the docker CLI and curl: network, helper containers, both servers with the config the
 * harness rendered, the scenario's files and prepare commands, wait until ready (or exited), each request
 * once, remove everything. */
async function floorTime(run: ScenarioRun): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "bench-"));
  const started = performance.now();
  const net = `bench-${process.pid}-${Date.now()}`;
  const made: string[] = [];
  try {
    await docker("network", "create", net);
    const helpers = [
      ...run.scenario.clients.map((c) => ["run", "-d", "--network", net, "--network-alias", c.name, tools, "sleep", "infinity"]),
      ...run.scenario.backends.map((b) => ["run", "-d", "--network", net, "--network-alias", b.name, candidate]),
    ];
    made.push(...(await Promise.all(helpers.map(async (args) => (await docker(...args)).stdout.trim()))));
    await Promise.all(
      run.observations.map(async (observation) => {
        // The plan says what the side staged and ran; the observation holds its config with addresses bound.
        const plan = run.plan.sides.find((s) => s.side.id === observation.side.id)!;
        const root = "/usr/local/apache2";
        const tree = join(dir, observation.side.id);
        mkdirSync(join(tree, "usr/local/apache2/conf"), { recursive: true });
        writeFileSync(join(tree, "usr/local/apache2/conf/httpd.conf"), observation.renderedConfig);
        for (const file of plan.files) {
          if (!("text" in file.content)) continue;
          mkdirSync(dirname(join(tree, file.path)), { recursive: true });
          writeFileSync(join(tree, file.path), file.content.text);
        }
        const script = [...plan.prepare, "exec httpd-foreground"].join("\n");
        const id = (await docker("create", "--network", net, "-p", "127.0.0.1::80", observation.server.image, "sh", "-c", `cd ${root}\n${script}`)).stdout.trim();
        made.push(id);
        await docker("cp", `${tree}/.`, `${id}:/`);
        await docker("start", id);
        for (let i = 0; i < 100; i++) {
          const logs = await docker("logs", id);
          if (FAMILY_TRAITS[observation.server.version.family].readyLog.test(logs.stderr)) break;
          if ((await docker("inspect", "-f", "{{.State.Running}}", id)).stdout.trim() !== "true") return;
          await new Promise((r) => setTimeout(r, 100));
        }
        const port = (await docker("port", id, "80/tcp").catch(() => ({ stdout: "" }))).stdout.trim().split(":").pop();
        if (!port) return;
        for (const request of plan.requests) {
          if (request.mode !== "http") continue;
          await curl(port, request.path, request.method).catch(() => undefined);
        }
      }),
    );
  } finally {
    if (made.length) await docker("rm", "-f", ...made).catch(() => undefined);
    await docker("network", "rm", net).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  return performance.now() - started;
}

function curl(port: string, path: string, method: string): Promise<unknown> {
  return run("curl", ["-s", "-o", "/dev/null", "-X", method, `http://127.0.0.1:${port}${path.replace(/\$\{[^}]+\}/g, "x")}`]);
}

const harness = await harnessTime();
const rows: Array<[string, number, number]> = [];
for (const scenario of scenarios) {
  const measured = harness.perScenario.get(scenario.id)!;
  rows.push([scenario.id, measured.ms, await floorTime(measured.run)]);
}
// The floor replays plain HTTP requests from the host only; raw (slow clients), exec, TLS and client-container
// requests are the harness's alone, so those scenarios' ratios overstate its cost.
const partial = new Set(
  scenarios.filter((s) => s.requests.some((r) => r.mode !== "http" || r.tls || r.client !== "host")).map((s) => s.id),
);
const width = Math.max(...rows.map(([id]) => id.length), 8) + 2;
console.log(`baseline ${baseline}, candidate ${candidate}; one scenario at a time; harness without noise learning\n`);
console.log(`${"scenario".padEnd(width)}  harness ms  docker-CLI ms  ratio`);
for (const [id, h, f] of rows) {
  const name = partial.has(id) ? `${id} *` : id;
  console.log(`${name.padEnd(width)}  ${h.toFixed(0).padStart(10)}  ${f.toFixed(0).padStart(13)}  ${(h / f).toFixed(2).padStart(5)}`);
}
const total = rows.reduce((acc, [, h, f]) => [acc[0]! + h, acc[1]! + f], [0, 0]);
console.log(`${"total".padEnd(width)}  ${total[0]!.toFixed(0).padStart(10)}  ${total[1]!.toFixed(0).padStart(13)}  ${(total[0]! / total[1]!).toFixed(2).padStart(5)}`);
const comparable = rows.filter(([id]) => !partial.has(id)).map(([, h, f]) => h / f).sort((a, b) => a - b);
const median = comparable[Math.floor(comparable.length / 2)] ?? Number.NaN;
console.log(`\n* the floor replays only plain HTTP requests from the host; raw, exec, TLS and client-container requests are the harness's alone`);
console.log(`median ratio over the ${comparable.length} scenarios the floor replays fully: ${median.toFixed(2)}`);
console.log(`harness fixed cost per run (engine, image inspection, certificate authority): ${harness.fixedMs.toFixed(0)} ms`);
console.log(`harness process: peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);

// Big bodies: memory and time of a 100 MB body through each client, with their targets (scripts/bench-bodies.ts).
if (process.env.BENCH_BODIES !== "0") {
  const { benchBodies } = await import("./bench-bodies.ts");
  await benchBodies();
}
// The configuration model on 10,000 vhosts: time and memory with their targets (scripts/bench-conf.ts).
if (process.env.BENCH_CONF !== "0") {
  const { benchConf } = await import("./bench-conf.ts");
  await benchConf();
}
// Migrate and prove: probes generated per second, and prove's wall time on the largest sample (scripts/bench-prove.ts).
if (process.env.BENCH_PROVE !== "0") {
  const { benchProve } = await import("./bench-prove.ts");
  await benchProve();
}
// The fleet: configs per second at 100 configs and the CLI's peak RSS at 1,000 (scripts/bench-fleet.ts); minutes.
if (process.env.BENCH_FLEET !== "0") {
  const { benchFleet } = await import("./bench-fleet.ts");
  await benchFleet();
}
