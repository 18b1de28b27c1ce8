// npm run bench (BENCH_DETERMINISM=0 skips it), or alone: node --import tsx scripts/bench-determinism.ts [RUNS]
//
// The same input gives the same answers: `fleet configs/` run RUNS times in a row (default 10) by the real CLI with
// its defaults (the probe world, the default concurrency, a fresh journal each time), each run's verdicts, causes and
// cell classes per config compared with the first run's after normalising (test/helpers/fleet-digest.ts). Target:
// every run identical. Against HTTPD_BASELINE_IMAGE when it is on the engine, else the local 2.4.67 image (the
// samples 2.4 refuses then fail on both sides, and fewer cells are compared). Prints figures; asserts nothing.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectEngine } from "../harness/engine/engine.ts";
import { ensureRecipeImage, imageExists } from "../harness/engine/images.ts";
import type { Report } from "../harness/report/report-model.ts";
import { digestDifferences, fleetDigest } from "../test/helpers/fleet-digest.ts";

const CONFIGS = fileURLToPath(new URL("../configs/", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/httpd-upgrade-harness.js", import.meta.url));

function runFleet(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, CI: "true" } });
    let tail = "";
    child.stderr.on("data", (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000)));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0 && code !== 1) process.stderr.write(tail);
      resolve(code);
    });
  });
}

export async function benchDeterminism(runs = Number(process.env.BENCH_DETERMINISM_RUNS ?? 10)): Promise<void> {
  console.log("\nthe same answers every time");
  const engine = await connectEngine();
  const candidate = await ensureRecipeImage(engine, "httpd-2.4");
  const wanted = process.env.HTTPD_BASELINE_IMAGE;
  const baseline = wanted && (await imageExists(engine, wanted)) ? wanted : await ensureRecipeImage(engine, "httpd-2.4.67");
  const dir = mkdtempSync(join(tmpdir(), "bench-determinism-"));
  try {
    const samples = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    for (const name of samples) cpSync(join(CONFIGS, name), join(dir, "configs", name), { recursive: true, verbatimSymlinks: true });
    console.log(`  fleet configs/ (${samples.length} configs), ${runs} runs in a row, baseline ${baseline}, candidate ${candidate}, the CLI's defaults`);
    let first: ReturnType<typeof fleetDigest> | null = null;
    let same = 0;
    let cells = 0;
    const seconds: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const out = join(dir, `run-${run}.json`);
      const started = performance.now();
      const status = await runFleet(["fleet", join(dir, "configs"), "--baseline", baseline, "--candidate", candidate, "--state", join(dir, "state"), "--report", `json:${out}`]);
      seconds.push((performance.now() - started) / 1000);
      if (status !== 0 && status !== 1) {
        console.log(`  run ${run}: exit ${status}, no report`);
        continue;
      }
      const digest = fleetDigest(JSON.parse(readFileSync(out, "utf8")) as Report);
      if (first === null) {
        first = digest;
        cells = Object.values(digest).reduce((sum, c) => sum + c.cells.length, 0);
        same++;
        continue;
      }
      const differences = digestDifferences(first, digest);
      if (differences.length === 0) same++;
      else for (const line of differences) console.log(`  run ${run} against run 1: ${line}`);
    }
    const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)] ?? 0;
    console.log(`  ${same} of ${runs} runs identical to the first in verdicts, causes and ${cells} cells' classes (median ${median.toFixed(1)} s a run) (target: all): ${same === runs ? "PASS" : "MISS"}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const given = Number(process.argv[2]);
  await benchDeterminism(Number.isInteger(given) && given > 0 ? given : undefined);
}
