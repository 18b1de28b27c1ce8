// The differential fuzzer: generated 2.2 fragments (fragment-generator.ts), in batches, on real 2.2 and 2.4 through
// prove's run path (run-batch.ts); every cell's real answer against the per-cell prediction and migrate's port
// (disagreements.ts). Each new kind of disagreement is shrunk (shrink.ts) and saved as a fixture; one whose
// signature a saved fixture explains is counted as explained. Seeded: the same seed gives the same batches.
import fc from "fast-check";
import { batchArbitrary, type FuzzBatch, renderBatch } from "./fragment-generator.ts";
import { batchDisagreements, type Disagreement, signature } from "./disagreements.ts";
import { fixtureCells, fixtureId, type FuzzFixture, loadFixtures, saveFixture } from "./fuzz-fixtures.ts";
import { runBatch, type Images } from "./run-batch.ts";
import { shrinkFragment } from "./shrink.ts";

export interface FuzzOptions {
  runs: number;
  seed: number;
  batchSize: number;
  images: Images;
  /** Shrink and save each new kind of disagreement (default true). */
  shrink: boolean;
  /** Only this batch of the seed's sequence (a replay). */
  only?: number;
  log?: (line: string) => void;
  /** Stops between batches, and lets the running one clean up its containers and networks. */
  signal?: AbortSignal;
}

export interface FuzzSummary {
  seed: number;
  fragments: number;
  cells: number;
  /** Cells whose prediction was "unpredicted" on either side. */
  unpredicted: number;
  disagreements: Disagreement[];
  /** Signatures: explained by a fixture, or not. */
  explained: string[];
  unexplained: string[];
  /** Fixtures marked fixed (their disagreement no longer occurs: the unit test holds them). */
  fixed: number;
  saved: string[];
  /** Batches that did not run (a server that did not start): each is an unexplained disagreement too. */
  failures: string[];
  seconds: number;
  fragmentsPerSecond: number;
}

export function batchesOf(seed: number, runs: number, batchSize: number): FuzzBatch[] {
  const count = Math.ceil(runs / batchSize);
  return fc.sample(batchArbitrary(batchSize), { seed, numRuns: count }).map((batch, i) => (i === count - 1 && runs % batchSize !== 0 ? { ...batch, fragments: batch.fragments.slice(0, runs % batchSize) } : batch));
}

export async function fuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const fixtures = loadFixtures();
  const known = new Map(fixtures.map((f) => [f.fixture.signature, f.fixture]));
  const batches = batchesOf(options.seed, options.runs, options.batchSize);
  const summary: FuzzSummary = { seed: options.seed, fragments: 0, cells: 0, unpredicted: 0, disagreements: [], explained: [], unexplained: [], fixed: fixtures.filter((f) => f.fixture.status === "fixed").length, saved: [], failures: [], seconds: 0, fragmentsPerSecond: 0 };
  let runSeconds = 0;
  for (const [index, batch] of batches.entries()) {
    if (options.only !== undefined && index !== options.only) continue;
    if (options.signal?.aborted) break;
    const text = renderBatch(batch);
    const run = await runBatch(text, options.images, options.signal);
    runSeconds += run.durationMs / 1000;
    summary.fragments += batch.fragments.length;
    summary.cells += run.cells.length;
    summary.unpredicted += run.cells.filter((c) => c.prediction["2.2"].outcome === "unpredicted" || c.prediction["2.4"].outcome === "unpredicted").length;
    if (run.failures.length > 0) summary.failures.push(...run.failures.map((f) => `batch ${index}: ${f}`));
    const found = batchDisagreements(run);
    summary.disagreements.push(...found);
    log(`batch ${index} (seed ${options.seed}): ${batch.fragments.length} fragments, ${run.cells.length} cells, ${found.length} disagreements, ${(run.durationMs / 1000).toFixed(1)} s${run.failures.length > 0 ? `; ${run.failures.join("; ")}` : ""}`);
    for (const d of found) {
      const sig = signature(d);
      const fixture = known.get(sig);
      if (fixture?.status === "explained") {
        if (!summary.explained.includes(sig)) summary.explained.push(sig);
        continue;
      }
      if (summary.unexplained.includes(sig)) continue;
      summary.unexplained.push(sig);
      if (!options.shrink || fixture !== undefined || d.fragment === null) continue;
      const fragment = batch.fragments[Number(d.fragment.slice(2))]!;
      log(`  shrinking ${d.fragment} (${sig})`);
      const shrunk = await shrinkFragment(fragment, batch.modules, d, options.images);
      const minimal = renderBatch({ modules: shrunk.modules, fragments: [shrunk.fragment] });
      const again = await runBatch(minimal, options.images);
      const record: FuzzFixture = {
        id: fixtureId(d.kind, minimal),
        signature: sig,
        kind: d.kind,
        found: { seed: options.seed, batch: index, fragment: d.fragment },
        status: "open",
        explanation: null,
        changes: again.migration.changes.map((c) => ({ rule: c.rule, status: c.status, line: c.span.line, after: c.after })),
        cells: fixtureCells(again),
      };
      const dir = saveFixture(record, minimal);
      known.set(sig, record);
      summary.saved.push(dir);
      log(`  saved ${dir} after ${shrunk.rounds} rounds`);
    }
  }
  summary.seconds = (Date.now() - started) / 1000;
  summary.fragmentsPerSecond = runSeconds === 0 ? 0 : summary.fragments / runSeconds;
  return summary;
}

export function summaryLines(summary: FuzzSummary): string[] {
  return [
    `seed ${summary.seed}: ${summary.fragments} fragments, ${summary.cells} cells (${summary.unpredicted} with a side unpredicted)`,
    `disagreements: ${summary.disagreements.length} cells; ${summary.unexplained.length} unexplained kinds, ${summary.explained.length} explained kinds; fixtures fixed: ${summary.fixed}`,
    ...summary.unexplained.map((sig) => `  unexplained: ${sig}`),
    ...summary.explained.map((sig) => `  explained: ${sig}`),
    ...summary.failures.map((f) => `  did not run: ${f}`),
    ...summary.saved.map((dir) => `  saved: ${dir}`),
    `${summary.fragmentsPerSecond.toFixed(2)} fragments per second against real servers (${summary.seconds.toFixed(0)} s in all)`,
  ];
}
