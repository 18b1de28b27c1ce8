// npm run bench (BENCH_FLEET=0 skips it), or alone: node --import tsx scripts/bench-fleet.ts [COUNT...]
//
// The fleet: the configs/ samples replicated to 100 configs, run by the real CLI (`fleet --max-probes 10`) in a
// child process, against the sequential docker-CLI floor for the same configs (scripts/bench-floor.ts: per config,
// the baseline's and the candidate's server run one after the other from the harness's own plan of that config,
// the same staged files and the same probes sent with curl, twice those the harness repeats to learn noise, the
// logs read, the containers removed). The floor is measured on one replica of each sample (9 configs, one after
// another, after the fleet) and scaled by how many replicas of each sample the 100 hold; it says so. Targets: the
// fleet in <= 0.15x the floor's time; <= 40 containers created per 100 configs (every container the run's session
// label names, counted from `docker events` while the fleet runs, by role); then at 1,000 configs the child's peak
// RSS (target < 150 MiB, the results streamed to the report rather than held). Each replica gets its own
// `ServerAdmin admin-<n>@example.test` in its main config file, a real directive, so the fleet's same-tree dedupe
// (which ignores comments) keeps every replica; every replica boots as its sample does. Prints figures; asserts
// nothing. BENCH_FLEET_COUNTS="20" (or the arguments) runs other sizes while developing.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadTree } from "../harness/conf/load-tree.ts";
import { DEFAULT_BASELINE_IMAGE } from "../harness/engine/default-images.ts";
import { connectEngine } from "../harness/engine/engine.ts";
import { ensureRecipeImage, imageExists } from "../harness/engine/images.ts";
import { LABEL_ROLE, LABEL_SESSION } from "../harness/engine/labels.ts";
import { RunScope } from "../harness/engine/run-scope.ts";
import { capProbes } from "../harness/fleet/run-fleet.ts";
import { proofProbes } from "../harness/judge/prove/proof-probes.ts";
import { runCertificates } from "../harness/observe/run-certificates.ts";
import { type PlannedSideInput, planScenario } from "../harness/plan/plan-scenario.ts";
import { withProbes } from "../harness/plan/probes/probe-scenario.ts";
import { BASELINE, runSides } from "../harness/plan/side.ts";
import { treeScenario, writtenFor } from "../harness/plan/tree/tree-scenario.ts";
import { inspectImage } from "../harness/server/inspect-image.ts";
import { floorCertificates, floorSide, sentRequests } from "./bench-floor.ts";
import { verdictLine } from "./bench-images.ts";

const CONFIGS = fileURLToPath(new URL("../configs/", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/httpd-upgrade-harness.js", import.meta.url));
const FLOOR_RATIO_TARGET = 0.15;
const CONTAINERS_TARGET = 40;
const RSS_TARGET_MIB = 150;
const MAX_PROBES = 10;

/** The file a replica's distinguishing directive goes in: the layout's main file, else the package's own
 * `etc/.../*.conf` (a fragment: its top level is the server's main context once included). */
function mainFile(tree: string): string {
  for (const main of ["apache2.conf", "httpd.conf", "conf/httpd.conf"]) if (existsSync(join(tree, main))) return join(tree, main);
  const stack = [join(tree, "etc")];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isFile() && entry.name.endsWith(".conf")) return join(dir, entry.name);
      if (entry.isDirectory()) stack.push(join(dir, entry.name));
    }
  }
  throw new Error(`no main config file in ${tree}`);
}

/** `count` configs under `dir`: the samples in turn, each replica distinct. */
export function writeFleet(dir: string, count: number): void {
  const samples = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (let n = 0; n < count; n++) {
    const sample = samples[n % samples.length]!;
    const tree = join(dir, `${String(n).padStart(4, "0")}-${sample}`);
    cpSync(join(CONFIGS, sample), tree, { recursive: true, verbatimSymlinks: true });
    appendFileSync(mainFile(tree), `\nServerAdmin admin-${n}@example.test\n`);
  }
}

/** BENCH_FLEET_ARGS: more CLI arguments, while developing (`--time-limit 1` runs the whole pipeline, reading,
 * planning, journal and reports, with hardly a container: every scenario is "not started"). */
function extraArgs(): string[] {
  return (process.env.BENCH_FLEET_ARGS ?? "").split(" ").filter((s) => s !== "");
}

interface ChildRun {
  seconds: number;
  maxRssMiB: number;
  status: number | null;
  configs: number;
  unique: number;
  /** Containers the run created, by role (its session's `docker events`). */
  created: Map<string, number>;
}

/** Counts the containers created with the session's label while it runs: `docker events` streamed live (the
 * engine replays only its last 256 events, too few for a fleet's). */
function countCreates(session: string): { ready: Promise<void>; stop: () => Promise<Map<string, number>> } {
  const events = spawn("docker", ["events", "--filter", "type=container", "--filter", "event=create", "--filter", `label=${LABEL_SESSION}=${session}`, "--format", `{{index .Actor.Attributes "${LABEL_ROLE}"}}`], { stdio: ["ignore", "pipe", "ignore"] });
  const created = new Map<string, number>();
  let rest = "";
  events.stdout.on("data", (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split("\n");
    rest = lines.pop() ?? "";
    for (const role of lines) created.set(role || "?", (created.get(role || "?") ?? 0) + 1);
  });
  // The stream is open once the CLI has connected; half a second is plenty, and costs nothing in the fleet's figure.
  const ready = new Promise<void>((resolve) => setTimeout(resolve, 500));
  const closed = new Promise((resolve) => events.once("close", resolve));
  let stopping: Promise<Map<string, number>> | null = null;
  const stop = (): Promise<Map<string, number>> =>
    (stopping ??= (async () => {
      // The last creates reach the stream a moment after the CLI exits.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      events.kill();
      await closed;
      return created;
    })());
  return { ready, stop };
}

/** One fleet run of the CLI in a child process; its peak RSS is what the child's own resourceUsage() says on exit. */
async function runFleetChild(count: number, baseline: string, candidate: string): Promise<ChildRun> {
  const dir = mkdtempSync(join(tmpdir(), "bench-fleet-"));
  const session = `bench-fleet-${randomBytes(4).toString("hex")}`;
  const creates = countCreates(session);
  try {
    writeFleet(join(dir, "fleet"), count);
    const rssFile = join(dir, "maxrss");
    const wrapper = join(dir, "maxrss.mjs");
    writeFileSync(wrapper, `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`);
    const report = join(dir, "fleet.json");
    const args = ["--import", wrapper, BIN, "fleet", join(dir, "fleet"), "--max-probes", String(MAX_PROBES), "--report", `json:${report}`, "--state", join(dir, "state"), "--baseline", baseline, "--candidate", candidate, ...extraArgs()];
    await creates.ready;
    const started = performance.now();
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, CI: "true", HARNESS_SESSION: session } });
      let tail = "";
      child.stderr.on("data", (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000)));
      child.on("error", reject);
      child.on("close", (code) => {
        if (code !== 0 && code !== 1) process.stderr.write(tail);
        resolve(code);
      });
    });
    const seconds = (performance.now() - started) / 1000;
    const maxRssMiB = existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8")) / 1024 : Number.NaN;
    let configs = 0;
    let unique = 0;
    if (existsSync(report)) {
      const parsed = JSON.parse(readFileSync(report, "utf8")) as { fleet: { configs: Array<{ sameAs: string | null }> } };
      configs = parsed.fleet.configs.length;
      unique = parsed.fleet.configs.filter((c) => c.sameAs === null).length;
    }
    return { seconds, maxRssMiB, status, configs, unique, created: await creates.stop() };
  } finally {
    await creates.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The sequential docker-CLI floor of `count` fleet configs: one replica of each sample run by the floor's script
 * (both sides, one config after another), each sample's time counted as many times as the fleet holds replicas of
 * it. */
async function fleetFloor(count: number, baseline: string, candidate: string): Promise<{ seconds: number; measured: number; seconds9: number; perSample: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-fleet-floor-"));
  const engine = await connectEngine();
  const scope = new RunScope(engine);
  try {
    const samples = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    writeFleet(dir, samples.length);
    const [ids, baselineInspection, candidateInspection, certificates] = [runSides(1), await inspectImage(scope, baseline), await inspectImage(scope, candidate), await runCertificates()];
    const sides: PlannedSideInput[] = [
      { side: BASELINE, inspection: baselineInspection },
      { side: ids[1]!, inspection: candidateInspection },
    ];
    let seconds = 0;
    let measured = 0;
    const perSample: string[] = [];
    for (const [n, sample] of samples.entries()) {
      const path = join(dir, `${String(n).padStart(4, "0")}-${sample}`);
      // The config's scenario as the fleet builds it (run-fleet.ts buildConfigScenario): the tree, its probes capped.
      const tree = await loadTree(path);
      const at = { file: path, line: 1, column: 1 };
      const ref = { at, path, layout: tree.layout, defines: [], writtenFor: writtenFor(tree, []) };
      const scenario = withProbes(treeScenario({ id: sample, baseline: { tree, ref }, candidate: { tree, ref } }), capProbes(proofProbes(tree, tree, []).set, MAX_PROBES));
      const plan = planScenario(scenario, sides, new Map([[path, tree]]));
      const staged = await floorCertificates(certificates, plan);
      const started = performance.now();
      const answered: boolean[] = [];
      for (const side of plan.sides) answered.push(await floorSide({ plan: side, files: side.files, requests: sentRequests(side, true), certificates: staged }));
      const ms = performance.now() - started;
      measured += ms;
      const replicas = Math.floor(count / samples.length) + (n < count % samples.length ? 1 : 0);
      seconds += (replicas * ms) / 1000;
      perSample.push(`${sample} ${(ms / 1000).toFixed(1)} s${answered.every(Boolean) ? "" : ` (${plan.sides.filter((_, i) => !answered[i]).map((s) => s.side.id).join(", ")} did not start)`} ×${replicas}`);
    }
    return { seconds, measured: samples.length, seconds9: measured / 1000, perSample };
  } finally {
    await scope.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** BENCH_FLEET_COUNTS="100": other sizes, also under `npm run bench` (the 1,000-config run takes longest). */
function countsFromEnv(): number[] | null {
  const given = (process.env.BENCH_FLEET_COUNTS ?? "").split(/[ ,]+/).filter((s) => s !== "").map(Number);
  return given.length > 0 ? given : null;
}

export async function benchFleet(counts: readonly number[] = countsFromEnv() ?? [100, 1000]): Promise<void> {
  console.log("\nfleet");
  const engine = await connectEngine();
  const candidate = await ensureRecipeImage(engine, "httpd-2.4");
  const wanted = process.env.HTTPD_BASELINE_IMAGE ?? DEFAULT_BASELINE_IMAGE;
  const baseline = (await imageExists(engine, wanted)) ? wanted : candidate;
  console.log(`  baseline ${baseline}, candidate ${candidate}; --max-probes ${MAX_PROBES}, the CLI's default concurrency (sized from the engine)`);
  // The same 2.4 on both sides flatters the rate: a config 2.4 refuses then runs no requests on either side, and
  // 2.2's slower start (mod_unique_id's sleep in its stock config) is missing.
  if (baseline === candidate) console.log(`  no 2.2 image (${wanted}; set HTTPD_BASELINE_IMAGE): the candidate stands in for it, and the figures are better than against a real 2.2`);
  for (const count of counts) {
    const run = await runFleetChild(count, baseline, candidate);
    const complete = run.configs === count;
    const created = [...run.created.values()].reduce((a, b) => a + b, 0);
    const roles = [...run.created].sort((a, b) => b[1] - a[1]).map(([role, n]) => `${n} ${role}`).join(", ");
    console.log(`  ${count} configs: ${run.unique} unique trees of ${run.configs} reported, exit ${run.status}, ${run.seconds.toFixed(1)} s (${(run.configs / run.seconds).toFixed(2)} configs/s), peak RSS ${run.maxRssMiB.toFixed(0)} MiB, ${created} containers created (${roles || "none seen"})`);
    if (count < 1000) {
      const floor = await fleetFloor(count, baseline, candidate);
      console.log(`  sequential docker-CLI floor: ${floor.measured} configs measured (one replica of each sample, ${floor.seconds9.toFixed(1)} s), scaled to ${count} by each sample's replicas: ${floor.seconds.toFixed(1)} s`);
      console.log(`    per sample: ${floor.perSample.join("; ")}`);
      const ratio = verdictLine(`  fleet of ${count} time / floor (${run.seconds.toFixed(1)} s / ${floor.seconds.toFixed(1)} s)`, run.seconds / floor.seconds, FLOOR_RATIO_TARGET, "≤", (v) => `${v.toFixed(3)}×`);
      console.log(complete ? ratio : `${ratio.replace(/ (PASS|MISS)$/, "")} MISS (${run.configs} of ${count} configs reported)`);
      console.log(verdictLine(`  containers created per 100 configs`, (created * 100) / count, CONTAINERS_TARGET, "≤", (v) => v.toFixed(0)));
    }
    if (count === 1000) {
      const rss = verdictLine(`  fleet peak RSS at 1,000 configs`, run.maxRssMiB, RSS_TARGET_MIB, "<", (v) => `${v.toFixed(0)} MiB`);
      console.log(complete ? rss : `${rss.replace(/ (PASS|MISS)$/, "")} MISS (${run.configs} of ${count} configs reported)`);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const given = process.argv.slice(2).map(Number);
  await benchFleet(given.length > 0 ? given : undefined);
}
