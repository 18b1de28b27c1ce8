// npm run bench [SCENARIO_FILES_OR_DIRS...]: every speed and memory figure of the project against its target,
// each printed with PASS or MISS, measured side by side in one run. Asserts nothing; a part can be left out with
// its switch (BENCH_CATALOGUE=0, BENCH_FLEET=0, BENCH_CONF=0, BENCH_BODIES=0, BENCH_PROVE=0, BENCH_FUZZ=0, BENCH_DETERMINISM=0).
//
//   catalogue   the whole catalogue at the default concurrency, against a sequential docker-CLI floor (≤ 0.25×)
//   conf        the configuration model and lint on a 10,000-vhost tree (parse + evaluate + lint < 2 s)
//   bodies      100 MB bodies through each client (memory and time)
//   prove       probes generated per second; prove on the sample with the most cells, with power against without
//               (<= 3x, < 60 s), and the mutants per second
//   fuzz        the differential fuzzer: fragments per second against real servers (>= 0.5), fixed seed, 40 fragments
//   determinism fleet configs/ ten times in a row: the same verdicts, causes and cell classes every time
//   fleet       the CLI's fleet: configs per second at 100 configs (>= 2), peak RSS at 1,000 (< 200 MiB); long
const parts: Array<[string, () => Promise<unknown>]> = [
  ["BENCH_CATALOGUE", async () => (await import("./bench-catalogue.ts")).benchCatalogue(process.argv.slice(2))],
  ["BENCH_BODIES", async () => (await import("./bench-bodies.ts")).benchBodies()],
  ["BENCH_CONF", async () => (await import("./bench-conf.ts")).benchConf()],
  ["BENCH_PROVE", async () => (await import("./bench-prove.ts")).benchProve()],
  ["BENCH_FUZZ", async () => (await import("./bench-fuzz.ts")).benchFuzz()],
  ["BENCH_DETERMINISM", async () => (await import("./bench-determinism.ts")).benchDeterminism()],
  ["BENCH_FLEET", async () => (await import("./bench-fleet.ts")).benchFleet()],
];
for (const [flag, part] of parts) {
  if (process.env[flag] === "0") continue;
  await part();
  console.log("");
}
