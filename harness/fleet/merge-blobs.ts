// Pure: the blobs of a sharded fleet run put back together, or refused. A merge must never turn a broken run
// green, so it refuses, listing every reason at once: a blob cut short or changed, blobs of different runs
// (inputs, images, tool version, shard count), a shard missing or given twice, an entry in the wrong shard or a
// config no shard reported. The result is the entries in the fleet's order, as a single run would have them.
import { HarnessError } from "../errors.ts";
import type { BlobEnd, BlobSides, FleetEntry, ParsedBlob } from "./blob.ts";
import { type FleetManifest, manifestDifferences } from "./manifest.ts";

export interface MergedFleet {
  manifest: FleetManifest;
  sides: BlobSides;
  /** One per config, in the manifest's order. */
  entries: FleetEntry[];
  durationMs: number;
  engines: BlobEnd["engines"];
}

export function mergeBlobs(blobs: readonly ParsedBlob[]): MergedFleet {
  if (blobs.length === 0) throw new HarnessError("HARNESS_USAGE", "merge-reports takes the blobs of every shard of one fleet run.");
  const problems: string[] = [];
  for (const blob of blobs) {
    if (!blob.end) problems.push(`${blob.path}: shard ${blob.manifest.shard.index}/${blob.manifest.shard.count} did not finish (${blob.entries.length} entries, no end line): rerun that shard`);
    else if (!blob.intact) problems.push(`${blob.path}: its entries do not match its end line (changed after it was written, or cut)`);
    if (!blob.sides) problems.push(`${blob.path}: no sides line (the shard stopped before its images were resolved)`);
  }
  // The run being merged is the one most blobs are of (the first given's, among as many): a stray blob of an
  // older run is named once, wherever it stands on the command line, and its shards and entries are not counted
  // in what follows.
  const runs: ParsedBlob[][] = [];
  for (const blob of blobs) {
    const run = runs.find((r) => manifestDifferences(r[0]!.manifest, blob.manifest).length === 0);
    if (run) run.push(blob);
    else runs.push([blob]);
  }
  const first = runs.reduce((most, run) => (run.length > most.length ? run : most))[0]!;
  const same: ParsedBlob[] = [first];
  for (const blob of blobs) {
    if (blob === first) continue;
    const differences = manifestDifferences(first.manifest, blob.manifest);
    if (differences.length > 0) {
      problems.push(`${blob.path} is of another run than ${first.path}: ${differences.join("; ")}`);
      continue;
    }
    same.push(blob);
    if (first.sides && blob.sides) {
      const ids = (sides: BlobSides): string => sides.sides.map((s) => `${s.id}=${s.imageId ?? "missing"}`).join(", ");
      if (ids(first.sides) !== ids(blob.sides)) problems.push(`${blob.path} ran other images than ${first.path} (${ids(blob.sides)} / ${ids(first.sides)})`);
    }
  }
  const count = first.manifest.shard.count;
  const byShard = new Map<number, ParsedBlob[]>();
  for (const blob of same) byShard.set(blob.manifest.shard.index, [...(byShard.get(blob.manifest.shard.index) ?? []), blob]);
  for (let index = 1; index <= count; index++) {
    const given = byShard.get(index) ?? [];
    if (given.length === 0) problems.push(`shard ${index}/${count} is missing`);
    if (given.length > 1) problems.push(`shard ${index}/${count} is given ${given.length} times (${given.map((b) => b.path).join(", ")})`);
  }
  const owner = new Map(first.manifest.configs.map((config) => [config.id, config]));
  const seen = new Map<string, FleetEntry>();
  // A shard given twice is named once above; the entries of its first blob count.
  for (const blob of same.filter((b) => byShard.get(b.manifest.shard.index)![0] === b)) {
    for (const entry of blob.entries) {
      const config = owner.get(entry.config);
      if (!config) problems.push(`${blob.path}: an entry for ${entry.config}, which is not a config of the run`);
      else if (config.shard !== blob.manifest.shard.index) problems.push(`${blob.path}: ${entry.config} belongs to shard ${config.shard}, not ${blob.manifest.shard.index}`);
      else if (seen.has(entry.config)) problems.push(`${blob.path}: ${entry.config} is reported twice`);
      else seen.set(entry.config, entry);
    }
  }
  const unreported = first.manifest.configs.filter((config) => !seen.has(config.id) && byShard.get(config.shard)?.length === 1 && byShard.get(config.shard)![0]!.end);
  if (unreported.length > 0) problems.push(`no shard reported ${unreported.map((c) => c.label).join(", ")}`);
  if (problems.length > 0) {
    throw new HarnessError("HARNESS_BLOB", `merge-reports refuses these blobs (${problems.length} problem${problems.length > 1 ? "s" : ""}):\n${problems.map((p) => `  ${p}`).join("\n")}`, {
      hint: "Merge the blobs of every shard of one fleet run, each as its shard wrote it; rerun a shard that did not finish.",
    });
  }
  const startedAt = blobs.map((b) => b.sides!.startedAt).sort()[0]!;
  return {
    manifest: { ...first.manifest, shard: { ...first.manifest.shard, index: 1 } },
    sides: { ...first.sides!, startedAt },
    entries: first.manifest.configs.map((config) => seen.get(config.id)!),
    durationMs: Math.max(...blobs.map((b) => b.end!.durationMs)),
    engines: mergeEngines(blobs.map((b) => b.end!.engines)),
  };
}

function mergeEngines(lists: ReadonlyArray<BlobEnd["engines"]>): BlobEnd["engines"] {
  if (lists.every((list) => list === null)) return null;
  const byName = new Map<string, NonNullable<BlobEnd["engines"]>[number]>();
  for (const list of lists) {
    for (const engine of list ?? []) {
      const known = byName.get(engine.name);
      byName.set(engine.name, known ? { ...known, scenarios: known.scenarios + engine.scenarios, lost: known.lost ?? engine.lost } : { ...engine });
    }
  }
  return [...byName.values()];
}
