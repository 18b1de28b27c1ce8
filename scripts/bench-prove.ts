// npm run bench (BENCH_PROVE=0 skips it), or alone: node --import tsx scripts/bench-prove.ts
//
// Migrate and prove: how fast probes are generated (the 2.2 and 2.4 views of a generated tree of 1,000
// name-based vhosts, the tree as its own port: probes per second, target >= 10,000/s, median of 3), and `prove` on
// the configs/ sample with the most cells, migrate's port against the original on the real 2.2 image
// (HTTPD_BASELINE_IMAGE) and the local 2.4 image: without power (--no-power), then with it (the default), whose
// time is a ratio to the first one measured in the same run (target <= 3x) and at most 60 s; the mutants run per
// second of the power phase. Then the time per mutant (what the candidate's server took per variant reloaded into it
// and sent its requests: the proof's power duration over the mutants run) against a docker-CLI floor: one
// `docker run` of 2.4 with that mutant's config staged and its requests sent with curl, its logs read, the container
// removed (scripts/bench-floor.ts), measured on up to 3 of the reloadable mutants and averaged; target <= 0.1x.
// Prints figures; asserts nothing.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { proofProbes } from "../harness/judge/prove/proof-probes.ts";
import { proveTrees } from "../harness/cli/prove-trees.ts";
import { loadTree } from "../harness/conf/load-tree.ts";
import { DEFAULT_CANDIDATE_IMAGE } from "../harness/engine/default-images.ts";
import { connectEngine } from "../harness/engine/engine.ts";
import { imageExists } from "../harness/engine/images.ts";
import { proofVerdictLine } from "../harness/judge/prove/judge-proof.ts";
import { migrateTree } from "../harness/migrate/migrate-tree.ts";
import { generateProbes } from "../harness/plan/probes/generate-probes.ts";
import { runCertificates } from "../harness/observe/run-certificates.ts";
import type { PlannedFile } from "../harness/plan/scenario-plan.ts";
import { writeBenchTree } from "./bench-conf-tree.ts";
import { floorCertificates, floorSide, sentRequests } from "./bench-floor.ts";
import { verdictLine } from "./bench-images.ts";

const PROBES_PER_SECOND_TARGET = 10_000;
const PROVE_TARGET_MS = 60_000;
const POWER_RATIO_TARGET = 3;
const MUTANT_FLOOR_TARGET = 0.1;
const MUTANT_FLOOR_SAMPLE = 3;
const CONFIGS = fileURLToPath(new URL("../configs/", import.meta.url));

function verdict(ok: boolean): string {
  return ok ? "PASS" : "MISS";
}

export async function benchProve(): Promise<void> {
  console.log("\nmigrate and prove");
  const dir = mkdtempSync(join(tmpdir(), "bench-prove-"));
  try {
    writeBenchTree(dir, { siteFiles: 100, vhostsPerFile: 10 });
    const tree = await loadTree(dir);
    const { configs } = proofProbes(tree, tree, []);
    const rates: number[] = [];
    let count = 0;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      count = generateProbes([configs.baseline], [configs.candidate]).probes.length;
      rates.push(count / ((performance.now() - started) / 1000));
    }
    const rate = rates.sort((a, b) => a - b)[1]!;
    console.log(`  probes generated: ${count} probes from 1,000 vhosts, ${rate.toFixed(0)} probes/s (target >= ${PROBES_PER_SECOND_TARGET}): ${verdict(rate >= PROBES_PER_SECOND_TARGET)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const baseline = process.env.HTTPD_BASELINE_IMAGE;
  const engine = await connectEngine();
  if (!baseline || !(await imageExists(engine, baseline))) {
    console.log(`  prove wall time: not measured (no 2.2 image: set HTTPD_BASELINE_IMAGE)`);
    return;
  }
  const samples = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  const sized = await Promise.all(samples.map(async (name) => {
    const original = await loadTree(`${CONFIGS}${name}`);
    const port = migrateTree(original, { defines: [], annotate: false, rollback: new Set() }).migrated;
    const { set } = proofProbes(original, port, []);
    return { name, original, port, probes: set.probes.length, cells: set.cells.length };
  }));
  const largest = sized.sort((a, b) => b.cells - a.cells || b.probes - a.probes)[0]!;
  const prove = async (power: boolean) => {
    const started = performance.now();
    const result = await proveTrees({
      original: largest.original,
      originalPath: `${CONFIGS}${largest.name}`,
      port: largest.port,
      portPath: `${CONFIGS}${largest.name} (migrated)`,
      defines: [],
      baselineImage: baseline,
      candidateImage: process.env.HTTPD_CANDIDATE_IMAGE || DEFAULT_CANDIDATE_IMAGE,
      ignore: null,
      power,
    });
    return { proof: result.proof, run: result.run, ms: performance.now() - started };
  };
  const plain = await prove(false);
  console.log(`  prove --no-power, ${largest.name} (${largest.cells} cells, ${largest.probes} probes, the most of any sample): ${(plain.ms / 1000).toFixed(1)} s, ${proofVerdictLine(plain.proof)} (target < ${PROVE_TARGET_MS / 1000} s): ${verdict(plain.ms < PROVE_TARGET_MS)}`);
  const powered = await prove(true);
  const ratio = powered.ms / plain.ms;
  const power = powered.proof.power;
  console.log(`  prove with power, ${largest.name}: ${(powered.ms / 1000).toFixed(1)} s, ${ratio.toFixed(2)}x the time without (target <= ${POWER_RATIO_TARGET}x, < ${PROVE_TARGET_MS / 1000} s): ${verdict(ratio <= POWER_RATIO_TARGET && powered.ms < PROVE_TARGET_MS)}`);
  if (power) {
    const run = power.mutants + power.uncounted.length;
    const rate = run / (power.durationMs / 1000);
    console.log(`  mutants: ${run} run (${power.mutants} counted, ${power.killed} killed, ${power.survivors.length} surviving) in ${(power.durationMs / 1000).toFixed(1)} s: ${rate.toFixed(1)} mutants/s`);
    // The floor: each sampled mutant as a server of its own, the way a script without reloads would run it.
    const side = powered.run.plan.sides.find((s) => s.side.role === "candidate")!;
    const sample = side.variants.filter((v) => v.unreloadable === null).slice(0, MUTANT_FLOOR_SAMPLE);
    const certificates = await floorCertificates(await runCertificates(), powered.run.plan);
    const floors: number[] = [];
    for (const variant of sample) {
      const changed = new Map(variant.files.map((f) => [f.path, f]));
      const removed = new Set(variant.removed);
      const files: PlannedFile[] = [...side.files.filter((f) => !changed.has(f.path) && !removed.has(f.path)), ...changed.values()];
      // The main config file is staged from side.config; a variant that changes it carries it among its files.
      const config = changed.get(side.config.path);
      const plan = config && "text" in config.content ? { ...side, config: { path: side.config.path, text: config.content.text } } : side;
      const started = performance.now();
      await floorSide({ plan, files: files.filter((f) => f.path !== side.config.path), requests: sentRequests(side, false, new Set(variant.requests)), certificates });
      floors.push(performance.now() - started);
    }
    if (run > 0 && floors.length > 0) {
      const perMutant = power.durationMs / run;
      const floor = floors.reduce((a, b) => a + b, 0) / floors.length;
      const marginal = (powered.ms - plain.ms) / run;
      console.log(`  one docker run of 2.4 per mutant (floor): ${floors.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(", ")} for ${floors.length} of the ${sample.length === side.variants.length ? "" : "reloadable "}mutants, mean ${(floor / 1000).toFixed(2)} s`);
      console.log(verdictLine(`  time per mutant / floor (${(perMutant / 1000).toFixed(3)} s / ${(floor / 1000).toFixed(2)} s; the whole command's extra time per mutant, with power against without: ${(marginal / 1000).toFixed(3)} s)`, perMutant / floor, MUTANT_FLOOR_TARGET, "≤", (v) => `${v.toFixed(3)}×`));
    } else {
      console.log(`  time per mutant / floor: not measured (${run} mutants run, ${sample.length} reloadable)`);
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchProve();
