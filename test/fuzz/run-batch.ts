// One batch of fragments on real servers, through run-trees.ts (prove's run path, in-process): the batch's config
// as a fragment (on each image's stock config) on the baseline (2.2), migrate's port of it on the candidate (2.4),
// and the unchanged 2.2 text reloaded into the same candidate server as a variant (what lint's 2.4 claims are
// about). Returns, per probe, the real outcome on each side with its witnesses, the proof's class of the migrated
// cell, and the prediction of rules/predict-cells.ts for the original on 2.2 and on 2.4.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTree } from "../../harness/conf/read-tree.ts";
import type { Migration } from "../../harness/migrate/migration.ts";
import type { ProbeSet } from "../../harness/plan/probes/probe.ts";
import { type CellRun, type Images, runTrees } from "./run-trees.ts";

export type { CellRun, Images } from "./run-trees.ts";

export interface BatchRun {
  text: string;
  migration: Migration;
  set: ProbeSet;
  cells: CellRun[];
  /** Why a side could not answer at all (a config test 2.4 refused, a server that did not start). */
  failures: string[];
  durationMs: number;
}

export async function runBatch(text: string, images: Images, signal?: AbortSignal): Promise<BatchRun> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "fuzz-batch-"));
  try {
    const file = join(dir, "fuzz.conf");
    writeFileSync(file, text);
    const tree = await readTree(file, "fragment", []);
    const [run] = await runTrees([{ id: "fuzz-batch", path: file, tree }], images, signal === undefined ? {} : { signal });
    const failures = [...run!.failures, ...(run!.unmigratedRefused === null ? [] : [run!.unmigratedRefused])];
    return { text, migration: run!.migration, set: run!.set, cells: run!.cells, failures, durationMs: Date.now() - started };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
