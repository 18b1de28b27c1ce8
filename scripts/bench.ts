// npm run bench [SCENARIO_FILES_OR_DIRS...]: every speed and memory figure of the project against its target,
// each printed with PASS or MISS, measured side by side in one run. Asserts nothing; a part can be left out with
// its switch (BENCH_CATALOGUE=0, BENCH_FLEET=0, BENCH_CONF=0, BENCH_LINT=0, BENCH_BODIES=0, BENCH_PROVE=0, BENCH_FUZZ=0,
// BENCH_DETERMINISM=0).
// Absolute times differ by 2x between machines of the same kind, so every time target is a ratio to a floor measured
// in the same run on the same machine and printed beside its figure; counts and memory are absolute. Give the real
// 2.2 (HTTPD_BASELINE_IMAGE=local/httpd:2.2.34): without it 2.4 stands in for the baseline, and the figures flatter.
//
//   catalogue   the whole catalogue at the default concurrency / a sequential docker-CLI floor doing the same
//               boots and requests (scripts/bench-catalogue.ts): ≤ 0.12×
//   conf        the configuration model and lint on a 10,000-vhost tree (scripts/bench-conf.ts)
//   lint        the lint command, whole process: the 10,000-vhost tree with JSON written (<= 4x a Node process
//               that reads and splits every file, < 250 MiB), one small config (<= 3x `node -e ''`)
//   bodies      100 MB bodies through each client (memory and time)
//   prove       probes generated per second; prove on the sample with the most cells, with power against without
//               (<= 3x, < 60 s); time per mutant / one `docker run` of 2.4 with that mutant's config and its
//               requests by curl (scripts/bench-floor.ts, 3 mutants sampled): ≤ 0.1×
//   fuzz        the differential fuzzer: fragments per second against real servers (>= 0.5), fixed seed, 40 fragments
//   determinism fleet configs/ ten times in a row: the same verdicts, causes and cell classes every time
//   fleet       the CLI's fleet of 100 configs (configs/ replicated, --max-probes 10) / the sequential docker-CLI
//               floor for the same configs (both images run from the harness's plan of each config, the probes by
//               curl, logs read, containers removed, one config after another; measured on one replica of each
//               sample and scaled by the replicas, scripts/bench-floor.ts): ≤ 0.15×; containers created per 100
//               configs (docker events of the run's session): ≤ 40; peak RSS at 1,000 configs: < 150 MiB. Long.
const parts: Array<[string, () => Promise<unknown>]> = [
  ["BENCH_CATALOGUE", async () => (await import("./bench-catalogue.ts")).benchCatalogue(process.argv.slice(2))],
  ["BENCH_BODIES", async () => (await import("./bench-bodies.ts")).benchBodies()],
  ["BENCH_CONF", async () => (await import("./bench-conf.ts")).benchConf()],
  ["BENCH_LINT", async () => (await import("./bench-lint.ts")).benchLint()],
  ["BENCH_PROVE", async () => (await import("./bench-prove.ts")).benchProve()],
  ["BENCH_FUZZ", async () => (await import("./bench-fuzz.ts")).benchFuzz()],
  ["BENCH_DETERMINISM", async () => (await import("./bench-determinism.ts")).benchDeterminism()],
  ["BENCH_FLEET", async () => (await import("./bench-fleet.ts")).benchFleet()],
];
// A part that fails (a run that could not finish on a shared, busy engine) says so and its targets are MISS; the
// other parts still run, and the bench exits 1 at the end.
let failed = 0;
for (const [flag, part] of parts) {
  if (process.env[flag] === "0") continue;
  try {
    await part();
  } catch (error) {
    failed++;
    const message = error instanceof Error ? `${error.message}${"code" in error ? ` (${String(error.code)})` : ""}` : String(error);
    console.log(`\n${flag.replace(/^BENCH_/, "").toLowerCase()}: failed, its remaining targets not measured: MISS\n  ${message.split("\n").join("\n  ")}`);
  }
  console.log("");
}
if (failed > 0) process.exitCode = 1;
