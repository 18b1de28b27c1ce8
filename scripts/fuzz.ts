// npm run fuzz [-- --runs N --seed S --batch-size B --batch K --no-shrink]: the differential fuzzer (test/fuzz/).
// Generated 2.2 fragments run on the real 2.2 image (HTTPD_BASELINE_IMAGE, default local/httpd:2.2.34) and the 2.4
// candidate (HTTPD_CANDIDATE_IMAGE, default the local one) through prove's run path; every cell's real answer is
// compared with lint's per-cell prediction on both sides and with migrate's port. New kinds of disagreement are
// shrunk and saved under test/fixtures/fuzz/. The seed is printed; `--seed S` replays the run, `--batch K` one
// batch of it. Exit 0 when no unexplained disagreement was found, 1 otherwise, 3 when an image is missing.
import { parseArgs } from "node:util";
import { DEFAULT_CANDIDATE_IMAGE } from "../harness/engine/default-images.ts";
import { fuzz, summaryLines } from "../test/fuzz/fuzz.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "100" },
    seed: { type: "string" },
    "batch-size": { type: "string", default: "10" },
    batch: { type: "string" },
    "no-shrink": { type: "boolean", default: false },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const images = {
  baseline: process.env.HTTPD_BASELINE_IMAGE || "local/httpd:2.2.34",
  candidate: process.env.HTTPD_CANDIDATE_IMAGE || DEFAULT_CANDIDATE_IMAGE,
};
console.log(`fuzz: seed ${seed} (replay: npm run fuzz -- --seed ${seed} --runs ${values.runs}), ${values.runs} fragments, baseline ${images.baseline}, candidate ${images.candidate}`);
// Ctrl-C (or TERM) stops after the running batch has cleaned up its containers and networks; the summary covers
// the batches that ran.
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
const summary = await fuzz({
  signal: stop.signal,
  runs: Number(values.runs),
  seed,
  batchSize: Number(values["batch-size"]),
  images,
  shrink: values["no-shrink"] !== true,
  ...(values.batch === undefined ? {} : { only: Number(values.batch) }),
  log: (line) => console.log(line),
});
for (const line of summaryLines(summary)) console.log(line);
process.exitCode = summary.failures.some((f) => /image|not found|no such image/i.test(f)) ? 3 : summary.unexplained.length > 0 || summary.failures.length > 0 ? 1 : 0;
