// npm run bench (its last part; BENCH_CONF=0 skips it), or alone: node --import tsx scripts/bench-conf.ts
//
// The configuration model on a large tree: 10,000 name-based vhosts in 1,000 site files of a Debian-style
// /etc/apache2 (scripts/bench-conf-tree.ts). For each case, the time of each phase — loadTree (reading the
// files), evaluateTree (parsing and evaluating, for one version), then the queries a tree's plan runs on the
// result (virtualHosts, listeners, logTargets) — and the process's peak RSS. Targets: load + evaluate of one
// version < 2 s, peak RSS < 200 MiB. Then lint on the same tree: the lint context (the tree evaluated for 2.2
// and for the 2.4 target) is built first, and every rule's detect face (lintContextFindings) is timed on it
// alone. Target: < 1 s after parsing. Last, the lint command itself on that tree, as an operator runs it
// (bin/httpd-upgrade-harness.js lint, from the CLI's bundle), timed by the command from reading the tree to its
// last rule (loadTree, the target's modules, lintTree: read, evaluate for both versions, every rule), before it
// renders: target < 2 s.
//
// Each run is a child process (this script with --child, or the CLI), so its peak RSS (resourceUsage().maxRSS) is the
// model's and not this script's; the median of BENCH_CONF_RUNS runs (5 unless set). One case per version read
// alone, and one reading both in turn, as a tree's plan does (the second version's parse comes from the cache).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCH_TREE_SHAPE, writeBenchTree } from "./bench-conf-tree.ts";

const TIME_TARGET_MS = 2_000;
const LINT_TARGET_MS = 1_000;
const PIPELINE_TARGET_MS = 2_000;
const RSS_TARGET_MIB = 200;
const VERSIONS = ["2.2.34", "2.4.68"];
/** What <IfModule> sees before the tree's LoadModule lines, as the config command passes it. */
const BUILTIN_MODULES = ["core.c", "http_core.c", "mod_so.c"];

interface VersionFigures {
  version: string;
  evaluateMs: number;
  /** CPU time (user + system, GC threads included) of the evaluation: less swayed by a shared machine. */
  evaluateCpuMs: number;
  virtualHostsMs: number;
  listenersMs: number;
  logTargetsMs: number;
  vhosts: number;
  listeners: number;
  /** Servers with log targets (the main server and each vhost). */
  logServers: number;
  problems: number;
}

interface ChildResult {
  loadMs: number;
  loadCpuMs: number;
  /** RSS once the modules are imported, before the tree is read: what the process costs without the model. */
  baseRssMiB: number;
  versions: VersionFigures[];
  maxRssMiB: number;
}

interface LintChildResult {
  /** lintContext: the tree evaluated for 2.2 and for the 2.4 target (parsing included). */
  contextMs: number;
  /** lintContextFindings on that context: every rule's detect face and the invalid-command pass. */
  findingsMs: number;
  findingsCpuMs: number;
  findings: number;
}

/** What the lint command reports of itself (harness/cli/lint-timing.ts LintTimes). */
interface PipelineChildResult {
  /** loadTree + targetModules + lintTree, as the lint command runs them on one tree. */
  totalMs: number;
  cpuMs: number;
  /** Time in GC pauses on the main thread (performance entries of type "gc"). */
  gcMs: number;
  findings: number;
  maxRssMiB: number;
}

/** In the child, `--lint`: load the tree, build its lint context, then time the rules on it; JSON on the last line. */
async function lintChild(dir: string): Promise<void> {
  const { loadTree } = await import("../harness/conf/load-tree.ts");
  const { lintContext } = await import("../harness/rules/lint-context.ts");
  const { lintContextFindings } = await import("../harness/rules/lint-tree.ts");
  const { TARGET_PROFILES } = await import("../harness/rules/target-modules.ts");
  const tree = await loadTree(dir);
  let started = performance.now();
  const context = lintContext(tree, { defines: [], target: TARGET_PROFILES.debian });
  const contextMs = performance.now() - started;
  started = performance.now();
  const cpu = process.cpuUsage();
  const findings = lintContextFindings(context);
  const findingsMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const result: LintChildResult = { contextMs, findingsMs, findingsCpuMs: (used.user + used.system) / 1000, findings: findings.length };
  console.log(JSON.stringify(result));
}

/** In the child: load the tree, then per version evaluate it and run the queries; prints JSON on the last line.
 * Each version's results stay referenced while the next is read, as a plan keeps each side's. */
async function child(dir: string, versions: string[]): Promise<void> {
  const { loadTree } = await import("../harness/conf/load-tree.ts");
  const { evaluateTree } = await import("../harness/conf/evaluate-tree.ts");
  const { virtualHosts } = await import("../harness/conf/queries/virtual-hosts.ts");
  const { listeners } = await import("../harness/conf/queries/listeners.ts");
  const { logTargets } = await import("../harness/conf/queries/log-targets.ts");
  const { httpdVersion } = await import("../harness/versions/httpd-version.ts");
  const cpuMs = (since: NodeJS.CpuUsage): number => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  const time = <T>(work: () => T): [T, number, number] => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = work();
    return [result, performance.now() - started, cpuMs(cpu)];
  };
  const baseRssMiB = process.memoryUsage().rss / 1024 / 1024;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const tree = await loadTree(dir);
  const loadMs = performance.now() - started;
  const loadCpuMs = cpuMs(cpu);
  const kept: unknown[] = [];
  const figures: VersionFigures[] = [];
  for (const version of versions) {
    const [config, evaluateMs, evaluateCpuMs] = time(() => evaluateTree(tree, { version: httpdVersion(version), defines: [], environment: {}, builtinModules: BUILTIN_MODULES }));
    const [hosts, virtualHostsMs] = time(() => virtualHosts(config));
    const [listens, listenersMs] = time(() => listeners(config));
    const [logs, logTargetsMs] = time(() => logTargets(config));
    kept.push(config, hosts, listens, logs);
    figures.push({
      version,
      evaluateMs,
      evaluateCpuMs,
      virtualHostsMs,
      listenersMs,
      logTargetsMs,
      vhosts: hosts.length,
      listeners: listens.length,
      logServers: logs.length,
      problems: config.problems.length,
    });
  }
  const result: ChildResult = { loadMs, loadCpuMs, baseRssMiB, versions: figures, maxRssMiB: process.resourceUsage().maxRSS / 1024 };
  console.log(JSON.stringify(result));
}

function runChild(dir: string, versions: ["--lint"]): Promise<LintChildResult>;
function runChild(dir: string, versions: string[]): Promise<ChildResult>;
function runChild(dir: string, versions: string[]): Promise<ChildResult | LintChildResult> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(import.meta.url);
    const proc = spawn(process.execPath, [...(process.env.BENCH_CONF_NODE_ARGS?.split(" ").filter(Boolean) ?? []), "--import", "tsx", script, "--child", dir, ...versions], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    proc.on("exit", (code) => {
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0) reject(new Error(`child ${versions.join(" ")} exited ${code}: ${out.slice(-2000)}`));
      else resolve(JSON.parse(last) as ChildResult | LintChildResult);
    });
  });
}

/** The lint command itself, as an operator runs it (bin/httpd-upgrade-harness.js, from the CLI's bundle), its JSON
 * report thrown away; the command times itself from reading the tree to the last rule, before rendering
 * (harness/cli/lint-timing.ts, HARNESS_LINT_TIMING). */
function runLintCommand(dir: string): Promise<PipelineChildResult> {
  const bin = fileURLToPath(new URL("../bin/httpd-upgrade-harness.js", import.meta.url));
  const times = join(mkdtempSync(join(tmpdir(), "bench-lint-")), "times.jsonl");
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...(process.env.BENCH_CONF_NODE_ARGS?.split(" ").filter(Boolean) ?? []), bin, "lint", dir, "--format", "json", "--output", "/dev/null"], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, HARNESS_LINT_TIMING: times },
    });
    let err = "";
    proc.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    proc.on("exit", (code) => {
      try {
        // 1: findings at --fail-on's level, as this tree has; anything else is the command failing.
        if (code !== 0 && code !== 1) throw new Error(`lint ${dir} exited ${code}: ${err.slice(-2000)}`);
        resolve(JSON.parse(readFileSync(times, "utf8").trim()) as PipelineChildResult);
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dirname(times), { recursive: true, force: true });
      }
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Generates the tree, runs every case, prints the figures with their targets; returns the number of misses. */
export async function benchConf(): Promise<number> {
  const runs = Number(process.env.BENCH_CONF_RUNS ?? 5);
  const dir = mkdtempSync(join(tmpdir(), "bench-conf-"));
  try {
    const generated = writeBenchTree(dir);
    const cases = [...VERSIONS.map((version) => [version]), VERSIONS];
    const results = new Map<string, ChildResult[]>(cases.map((versions) => [versions.join(" then "), []]));
    // Cases interleaved run by run: this machine is shared, so a slow minute touches every case alike.
    for (let run = 0; run < runs; run++) {
      for (const versions of cases) results.get(versions.join(" then "))!.push(await runChild(dir, versions));
    }

    const expectedVhosts = BENCH_TREE_SHAPE.siteFiles * BENCH_TREE_SHAPE.vhostsPerFile;
    console.log(`\nconfiguration model: ${generated.vhosts} vhosts in ${BENCH_TREE_SHAPE.siteFiles} site files of a Debian-style tree`);
    console.log(`(${generated.files} files, ${(generated.bytes / 1024 / 1024).toFixed(1)} MiB); each run a fresh child process, median of ${runs} runs: each phase's time,`);
    console.log(`load + evaluate of one version (evaluate parses too; the second version of a case reuses the parse), peak RSS\n`);
    const header = [
      "case",
      "version",
      "vhosts",
      "load ms",
      "evaluate ms",
      "load+eval ms",
      `target <${TIME_TARGET_MS}`,
      "(cpu ms)",
      "virtualHosts ms",
      "listeners ms",
      "logTargets ms",
      "peak RSS MiB",
      `target <${RSS_TARGET_MIB}`,
      "(before load)",
    ];
    const rows: string[][] = [];
    let misses = 0;
    for (const [name, measured] of results) {
      const rss = median(measured.map((r) => r.maxRssMiB));
      const rssOk = rss < RSS_TARGET_MIB;
      misses += rssOk ? 0 : 1;
      const load = median(measured.map((r) => r.loadMs));
      const loadCpu = median(measured.map((r) => r.loadCpuMs));
      measured[0]!.versions.forEach((first, i) => {
        const at = (pick: (v: VersionFigures) => number) => median(measured.map((r) => pick(r.versions[i]!)));
        const evaluate = at((v) => v.evaluateMs);
        // The time target is for one version read cold: the first of each case.
        const timed = i === 0;
        const total = load + evaluate;
        const timeOk = total < TIME_TARGET_MS;
        if (timed) misses += timeOk ? 0 : 1;
        const found = Math.min(...measured.map((r) => r.versions[i]!.vhosts));
        rows.push([
          i === 0 ? name : "",
          first.version,
          found === expectedVhosts ? String(found) : `${found} (WRONG)`,
          i === 0 ? load.toFixed(0) : "",
          evaluate.toFixed(0),
          timed ? total.toFixed(0) : "",
          timed ? (timeOk ? "PASS" : "MISS") : "",
          timed ? (loadCpu + at((v) => v.evaluateCpuMs)).toFixed(0) : "",
          at((v) => v.virtualHostsMs).toFixed(0),
          at((v) => v.listenersMs).toFixed(1),
          at((v) => v.logTargetsMs).toFixed(0),
          i === 0 ? rss.toFixed(0) : "",
          i === 0 ? (rssOk ? "PASS" : "MISS") : "",
          i === 0 ? median(measured.map((r) => r.baseRssMiB)).toFixed(0) : "",
        ]);
        if (found !== expectedVhosts) misses++;
      });
    }
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i <= 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
    console.log(line(header));
    for (const row of rows) console.log(line(row));
    const problems = [...results.values()].flatMap((measured) => measured[0]!.versions.map((v) => `${v.version}: ${v.problems}`));
    console.log(`\ncpu ms: user + system time of load + evaluate, GC threads included: less swayed than wall time by a shared machine`);
    console.log(`before load: the child's RSS with the harness's modules imported (node and tsx), before the tree is read`);
    console.log(`problems the evaluator reported (none expected): ${[...new Set(problems)].join(", ")}`);
    console.log(`configuration model: ${misses === 0 ? "all PASS" : `${misses} MISS`}`);
    misses += await benchLint(dir, runs, generated.vhosts);
    return misses + (await benchPipeline(dir, runs, generated.vhosts));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** lint on the generated tree: the rules' time once the tree is parsed and evaluated; returns the misses. */
async function benchLint(dir: string, runs: number, vhosts: number): Promise<number> {
  const measured: LintChildResult[] = [];
  for (let run = 0; run < runs; run++) measured.push(await runChild(dir, ["--lint"]));
  const findingsMs = median(measured.map((r) => r.findingsMs));
  const ok = findingsMs < LINT_TARGET_MS;
  const header = ["case", "vhosts", "context ms", "findings ms", `target <${LINT_TARGET_MS}`, "(cpu ms)", "findings"];
  const row = [
    "lint (2.4 target debian)",
    String(vhosts),
    median(measured.map((r) => r.contextMs)).toFixed(0),
    findingsMs.toFixed(0),
    ok ? "PASS" : "MISS",
    median(measured.map((r) => r.findingsCpuMs)).toFixed(0),
    String(measured[0]!.findings),
  ];
  const widths = header.map((h, i) => Math.max(h.length, row[i]!.length));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(`\nlint: every rule on the same tree, median of ${runs} runs; context: the tree evaluated for 2.2 and the 2.4 target`);
  console.log(`(parsing included, not timed against the target); findings: lintContextFindings on that context\n`);
  console.log(line(header));
  console.log(line(row));
  console.log(`lint: ${ok ? "all PASS" : "1 MISS"}`);
  return ok ? 0 : 1;
}

/** The lint command's whole work on the generated tree, one figure against its target; returns the misses. */
async function benchPipeline(dir: string, runs: number, vhosts: number): Promise<number> {
  const measured: PipelineChildResult[] = [];
  // Once first, untimed: the CLI bundles its sources on a checkout's first run.
  await runLintCommand(dir);
  for (let run = 0; run < runs; run++) measured.push(await runLintCommand(dir));
  const totalMs = median(measured.map((r) => r.totalMs));
  const ok = totalMs < PIPELINE_TARGET_MS;
  console.log(`\nthe lint command as an operator runs it (the CLI's bundle), timed from reading the tree to its last rule (loadTree,`);
  console.log(`target modules, lintTree: read, evaluate for 2.2 and 2.4, every rule), before it renders; median of ${runs} runs:`);
  console.log(
    `parse + evaluate + lint, ${vhosts.toLocaleString("en-US")} vhosts: ${totalMs.toFixed(0)} ms (target < ${PIPELINE_TARGET_MS} ms) ${ok ? "PASS" : "MISS"}` +
      ` (cpu ${median(measured.map((r) => r.cpuMs)).toFixed(0)} ms, GC pauses ${median(measured.map((r) => r.gcMs)).toFixed(0)} ms,` +
      ` peak RSS ${median(measured.map((r) => r.maxRssMiB)).toFixed(0)} MiB, ${measured[0]!.findings} findings)`,
  );
  return ok ? 0 : 1;
}

const entry = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (entry && process.argv[2] === "--child" && process.argv[4] === "--lint") await lintChild(process.argv[3]!);
else if (entry && process.argv[2] === "--child") await child(process.argv[3]!, process.argv.slice(4));
else if (entry) await benchConf();
