// npm run bench (BENCH_FUZZ=0 skips it), or alone: node --import tsx scripts/bench-fuzz.ts
//
// The differential fuzzer against real servers: a fixed-seed run of 40 generated fragments in batches of 20 on the
// real 2.2 image (HTTPD_BASELINE_IMAGE) and the local 2.4 image, as `npm run fuzz` runs them (without shrinking):
// fragments per second of batch time (each batch: both servers booted once, the unmigrated text reloaded into the
// 2.4 server, every probe sent to all three). Floor: >= 0.5 fragments/s (500 fragments in under 17 minutes).
// Prints figures; asserts nothing.
import { fileURLToPath } from "node:url";
import { DEFAULT_CANDIDATE_IMAGE } from "../harness/engine/default-images.ts";
import { connectEngine } from "../harness/engine/engine.ts";
import { imageExists } from "../harness/engine/images.ts";
import { fuzz } from "../test/fuzz/fuzz.ts";

const FRAGMENTS_PER_SECOND_FLOOR = 0.5;

export async function benchFuzz(): Promise<void> {
  console.log("\ndifferential fuzzer");
  const baseline = process.env.HTTPD_BASELINE_IMAGE;
  const engine = await connectEngine();
  if (!baseline || !(await imageExists(engine, baseline))) {
    console.log("  fragments per second: not measured (no 2.2 image: set HTTPD_BASELINE_IMAGE)");
    return;
  }
  const candidate = process.env.HTTPD_CANDIDATE_IMAGE || DEFAULT_CANDIDATE_IMAGE;
  const summary = await fuzz({ runs: 40, seed: 20261207, batchSize: 20, images: { baseline, candidate }, shrink: false });
  const rate = summary.fragmentsPerSecond;
  console.log(`  fragments per second against real servers: ${rate.toFixed(2)} (${summary.fragments} fragments, ${summary.cells} cells, ${summary.seconds.toFixed(0)} s) (target >= ${FRAGMENTS_PER_SECOND_FLOOR}): ${rate >= FRAGMENTS_PER_SECOND_FLOOR ? "PASS" : "MISS"}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchFuzz();
