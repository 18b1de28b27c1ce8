// npm run bench (BENCH_LINT=0 skips it), or alone: node --import tsx scripts/bench-lint.ts
//
// The lint command as an operator runs it (bin/httpd-upgrade-harness.js, from the CLI's bundle), whole process,
// each figure against a floor measured in the same run on the same machine, back to back with it (absolute times
// differ twofold between machines of one kind):
//
//   10,000-vhost lint   `lint TREE --format json --output FILE` on the tree of scripts/bench-conf-tree.ts; floor: a
//                       Node process that reads every file of the tree and splits it into lines and words
//                       (scripts/bench-lint-floor.mjs). Target: time <= 4x the floor, peak RSS < 250 MiB.
//   small lint          `lint configs/name-vhosts` (text to a pipe); floor: `node -e ''`. Target: time <= 3x.
//
// Each run is a child process; its peak RSS and CPU time come from the child itself (scripts/bench-rusage.mjs,
// preloaded into figure and floor alike). Medians of BENCH_LINT_RUNS runs (5 unless set; the small lint 3x as
// many), the floor and the figure interleaved run by run so a slow minute of a shared machine touches both. CPU
// times are printed beside wall times: on a loaded machine they say more.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeBenchTree } from "./bench-conf-tree.ts";

const BIG_RATIO_TARGET = 4;
const BIG_RSS_TARGET_MIB = 250;
const SMALL_RATIO_TARGET = 3;
const SMALL_SAMPLE = "configs/name-vhosts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BIN = join(ROOT, "bin/httpd-upgrade-harness.js");
const RUSAGE = join(ROOT, "scripts/bench-rusage.mjs");
const FLOOR = join(ROOT, "scripts/bench-lint-floor.mjs");

interface Run {
  wallMs: number;
  cpuMs: number;
  maxRssMiB: number;
}

/** One child (node ARGS), its wall time from spawn to exit and what it says of its own resources. */
function runChild(args: string[], okStatuses: readonly number[], cwd = ROOT): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), "bench-lint-run-"));
  const file = join(dir, "rusage.jsonl");
  writeFileSync(file, "");
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const proc = spawn(process.execPath, ["--import", RUSAGE, ...args], { cwd, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, BENCH_RUSAGE_FILE: file } });
    let err = "";
    proc.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    proc.on("exit", (code) => {
      const wallMs = performance.now() - started;
      try {
        if (!okStatuses.includes(code ?? -1)) throw new Error(`node ${args.join(" ")} exited ${code}: ${err.slice(-2000)}`);
        const usage = JSON.parse(readFileSync(file, "utf8").trim()) as { maxRssMiB: number; cpuMs: number };
        resolve({ wallMs, ...usage });
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function verdict(ok: boolean): string {
  return ok ? "PASS" : "MISS";
}

/** Figure and floor, `runs` times each, interleaved. */
async function paired(runs: number, figure: () => Promise<Run>, floor: () => Promise<Run>): Promise<{ figure: Run[]; floor: Run[] }> {
  const measured = { figure: [] as Run[], floor: [] as Run[] };
  for (let run = 0; run < runs; run++) {
    measured.floor.push(await floor());
    measured.figure.push(await figure());
  }
  return measured;
}

function summary(runs: Run[]): Run {
  return { wallMs: median(runs.map((r) => r.wallMs)), cpuMs: median(runs.map((r) => r.cpuMs)), maxRssMiB: median(runs.map((r) => r.maxRssMiB)) };
}

/** Runs both figures against their floors and prints them; returns the number of misses. */
export async function benchLint(): Promise<number> {
  const runs = Number(process.env.BENCH_LINT_RUNS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), "bench-lint-"));
  let misses = 0;
  try {
    const tree = join(dir, "tree");
    const generated = writeBenchTree(tree);
    const out = join(dir, "lint.json");
    // 1: findings at --fail-on's level, as the tree has (the small sample too); anything else is the command failing.
    const bigLint = () => runChild([BIN, "lint", tree, "--format", "json", "--output", out], [1]);
    const smallLint = () => runChild([BIN, "lint", SMALL_SAMPLE], [0, 1]);
    // Once each, untimed: the CLI bundles its sources on a checkout's first run, and the files enter the page cache.
    await smallLint();
    await runChild([FLOOR, tree], [0]);
    await bigLint();

    const big = await paired(runs, bigLint, () => runChild([FLOOR, tree], [0]));
    const bigFigure = summary(big.figure);
    const bigFloor = summary(big.floor);
    const bigRatio = bigFigure.wallMs / bigFloor.wallMs;
    const bigOk = bigRatio <= BIG_RATIO_TARGET;
    const rssOk = bigFigure.maxRssMiB < BIG_RSS_TARGET_MIB;
    misses += (bigOk ? 0 : 1) + (rssOk ? 0 : 1);
    const written = readFileSync(out).length;

    const small = await paired(runs * 3, smallLint, () => runChild(["-e", ""], [0]));
    const smallFigure = summary(small.figure);
    const smallFloor = summary(small.floor);
    const smallRatio = smallFigure.wallMs / smallFloor.wallMs;
    const smallOk = smallRatio <= SMALL_RATIO_TARGET;
    misses += smallOk ? 0 : 1;

    const ms = (value: number) => `${value.toFixed(0)} ms`;
    console.log(`\nthe lint command, whole process (the CLI's bundle), against floors measured back to back in this run`);
    console.log(`(median of ${runs} runs, the small lint of ${runs * 3}; cpu: the child's user + system time)\n`);
    console.log(
      `lint of ${generated.vhosts.toLocaleString("en-US")} vhosts (${generated.files} files, ${(generated.bytes / 2 ** 20).toFixed(1)} MiB), --format json to a file ` +
        `(${(written / 2 ** 20).toFixed(1)} MiB): ${ms(bigFigure.wallMs)} (cpu ${ms(bigFigure.cpuMs)}); floor, read and split every file: ${ms(bigFloor.wallMs)} (cpu ${ms(bigFloor.cpuMs)})`,
    );
    console.log(`  time / floor: ${bigRatio.toFixed(2)}x (target <= ${BIG_RATIO_TARGET}x) ${verdict(bigOk)}   (cpu / floor's cpu: ${(bigFigure.cpuMs / bigFloor.cpuMs).toFixed(2)}x)`);
    console.log(`  peak RSS: ${bigFigure.maxRssMiB.toFixed(0)} MiB (target < ${BIG_RSS_TARGET_MIB} MiB) ${verdict(rssOk)}   (floor's: ${bigFloor.maxRssMiB.toFixed(0)} MiB)`);
    console.log(`lint of ${SMALL_SAMPLE}: ${ms(smallFigure.wallMs)} (cpu ${ms(smallFigure.cpuMs)}); floor, node -e '': ${ms(smallFloor.wallMs)} (cpu ${ms(smallFloor.cpuMs)})`);
    console.log(`  time / floor: ${smallRatio.toFixed(2)}x (target <= ${SMALL_RATIO_TARGET}x) ${verdict(smallOk)}   (cpu / floor's cpu: ${(smallFigure.cpuMs / smallFloor.cpuMs).toFixed(2)}x)`);
    console.log(`lint command: ${misses === 0 ? "all PASS" : `${misses} MISS`}`);
    return misses;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const entry = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (entry) await benchLint();
