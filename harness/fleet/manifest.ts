// Pure: a fleet run's manifest, which every blob and journal carries so that results of different runs are never
// mixed: the tool version, a hash of the inputs (every config's tree fingerprint, layout, defines and ignore file,
// the fleet's ignore file, how requests are made), the images as named, the configs with their shard, and the
// shard this blob is. Image ids are known once the engine resolved them; blobs carry them beside (blob.ts).
import { createHash } from "node:crypto";
import type { ShardAssignment, ShardSpec } from "./shard.ts";

export const FLEET_FORMAT = "httpd-upgrade-harness/fleet-blob" as const;
export const FLEET_FORMAT_VERSION = 1;

export interface ManifestConfig {
  id: string;
  label: string;
  /** The tree fingerprint (tree-fingerprint.ts), or "unreadable:<sha256 of the error>" for a tree that could not be read. */
  fingerprint: string;
  /** The shard that reports it (1-based). */
  shard: number;
  /** The config whose run it reuses (the same tree), or null when it is run itself. */
  sameAs: string | null;
}

export interface RunOptionsDigest {
  /** "probes" (generated from each tree, at most maxProbes) or "smoke" (GET / per virtual host). */
  requests: "probes" | "smoke";
  maxProbes: number | null;
  learnNoise: boolean;
  /** sha256 of the fleet's ignore file, or null. */
  ignore: string | null;
  /** `--target-modules`, when given: the module set the candidate loads around fragments. */
  targetModules?: string;
}

export interface FleetManifest {
  format: typeof FLEET_FORMAT;
  formatVersion: number;
  tool: string;
  inputsHash: string;
  options: RunOptionsDigest;
  /** As named (null: no baseline, candidates alone). */
  images: { baseline: string | null; candidates: string[] };
  configs: ManifestConfig[];
  shard: ShardSpec & { assignment: ShardAssignment };
  /** What discovery found and did not take, with why (the same for every shard of a run; absent in older blobs). */
  passed?: Array<{ label: string; reason: string }>;
}

/** The hash of everything that decides a fleet's results but the images: configs and options. */
export function inputsHash(configs: ReadonlyArray<{ label: string; fingerprint: string; layout: string | null; defines: readonly string[]; ignore: string | null }>, options: RunOptionsDigest): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(options));
  for (const config of configs) hash.update("\u0000").update(JSON.stringify([config.label, config.fingerprint, config.layout, [...config.defines], config.ignore]));
  return hash.digest("hex");
}

/** What makes two manifests of one run (they may differ only in the shard index); the fields that differ, by name. */
export function manifestDifferences(a: FleetManifest, b: FleetManifest): string[] {
  const differences: string[] = [];
  if (a.format !== b.format || a.formatVersion !== b.formatVersion) differences.push(`blob format (${a.format} ${a.formatVersion} / ${b.format} ${b.formatVersion})`);
  if (a.tool !== b.tool) differences.push(`tool version (${a.tool} / ${b.tool})`);
  if (a.inputsHash !== b.inputsHash) differences.push(`inputs (configs or options; hash ${a.inputsHash.slice(0, 12)} / ${b.inputsHash.slice(0, 12)})`);
  if (JSON.stringify(a.images) !== JSON.stringify(b.images)) differences.push(`images (${describeImages(a)} / ${describeImages(b)})`);
  if (a.shard.count !== b.shard.count) differences.push(`shard count (${a.shard.count} / ${b.shard.count})`);
  if (a.shard.assignment !== b.shard.assignment || JSON.stringify(a.configs) !== JSON.stringify(b.configs)) differences.push("the assignment of configs to shards");
  return differences;
}

function describeImages(manifest: FleetManifest): string {
  return [manifest.images.baseline, ...manifest.images.candidates].join(", ");
}
