// npm run bench (BENCH_FLEET=0 skips it), or alone: node --import tsx scripts/bench-fleet.ts [COUNT...]
//
// The fleet: the configs/ samples replicated to 100 configs, run by the real CLI (`fleet --max-probes 10`) in a
// child process: configs per second (target >= 2 per version pair); then to 1,000 configs: the child's peak RSS
// (target < 200 MiB, the results streamed to the report rather than held). Each replica gets its own
// `ServerAdmin admin-<n>@example.test` in its main config file, a real directive, so the fleet's same-tree dedupe
// (which ignores comments) keeps every replica; every replica boots as its sample does. Prints figures; asserts
// nothing. BENCH_FLEET_COUNTS="20" (or the arguments) runs other sizes while developing.
import { spawn } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_BASELINE_IMAGE } from "../harness/engine/default-images.ts";
import { connectEngine } from "../harness/engine/engine.ts";
import { ensureRecipeImage, imageExists } from "../harness/engine/images.ts";

const CONFIGS = fileURLToPath(new URL("../configs/", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/httpd-upgrade-harness.js", import.meta.url));
const RATE_TARGET = 2;
const RSS_TARGET_MIB = 200;
const MAX_PROBES = 10;

function verdict(ok: boolean): string {
  return ok ? "PASS" : "MISS";
}

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
}

/** One fleet run of the CLI in a child process; its peak RSS is what the child's own resourceUsage() says on exit. */
async function runFleetChild(count: number, baseline: string, candidate: string): Promise<ChildRun> {
  const dir = mkdtempSync(join(tmpdir(), "bench-fleet-"));
  try {
    writeFleet(join(dir, "fleet"), count);
    const rssFile = join(dir, "maxrss");
    const wrapper = join(dir, "maxrss.mjs");
    writeFileSync(wrapper, `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`);
    const report = join(dir, "fleet.json");
    const args = ["--import", wrapper, BIN, "fleet", join(dir, "fleet"), "--max-probes", String(MAX_PROBES), "--report", `json:${report}`, "--state", join(dir, "state"), "--baseline", baseline, "--candidate", candidate, ...extraArgs()];
    const started = performance.now();
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, CI: "true" } });
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
    return { seconds, maxRssMiB, status, configs, unique };
  } finally {
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
  if (baseline === candidate) console.log(`  no 2.2 image (${wanted}; set HTTPD_BASELINE_IMAGE): the candidate stands in for it, and the rate is higher than against a real 2.2`);
  for (const count of counts) {
    const run = await runFleetChild(count, baseline, candidate);
    const rate = run.configs / run.seconds;
    console.log(`  ${count} configs: ${run.unique} unique trees of ${run.configs} reported, exit ${run.status}, ${run.seconds.toFixed(0)} s, peak RSS ${run.maxRssMiB.toFixed(0)} MiB`);
    // Three places: 1.996 printed as "2.00" beside MISS read as a wrong verdict.
    if (count === 100) console.log(`  fleet rate at 100 configs: ${rate.toFixed(3)} configs/s (target >= ${RATE_TARGET}): ${verdict(run.configs === count && rate >= RATE_TARGET)}`);
    if (count === 1000) console.log(`  fleet peak RSS at 1,000 configs: ${run.maxRssMiB.toFixed(0)} MiB (target < ${RSS_TARGET_MIB} MiB): ${verdict(run.configs === count && run.maxRssMiB < RSS_TARGET_MIB)}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const given = process.argv.slice(2).map(Number);
  await benchFleet(given.length > 0 ? given : undefined);
}
