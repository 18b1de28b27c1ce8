// A fleet run's parts for the blob, merge and report tests: configs (one a copy of another) with their shards,
// the manifest each shard writes, the sides, the entries, and blobs written with the real BlobWriter.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readTree } from "../../../harness/conf/read-tree.ts";
import { type BlobSides, BlobWriter, type FleetEntry } from "../../../harness/fleet/blob.ts";
import { FLEET_FORMAT, FLEET_FORMAT_VERSION, type FleetManifest, inputsHash, type ManifestConfig, type RunOptionsDigest } from "../../../harness/fleet/manifest.ts";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { RULES } from "../../../harness/rules/all-rules.ts";
import { lintTree } from "../../../harness/rules/lint-tree.ts";
import { defaultTargetModules, TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";

export const OPTIONS: RunOptionsDigest = { requests: "probes", maxProbes: null, learnNoise: true, ignore: null };

export const SIDES: BlobSides = {
  sides: [
    { id: "baseline", role: "baseline", image: "httpd:2.2.34", version: "2.2.34", missing: false, imageId: "sha256:2222" },
    { id: "candidate", role: "candidate", image: "httpd-upgrade-harness/httpd-2.4:2.4.62", version: "2.4.62", missing: false, imageId: "sha256:2424" },
  ],
  startedAt: "2026-11-21T22:40:58.000Z",
};

export interface FleetFixture {
  /** The configs as the manifest lists them, in the fleet's order, with their shard of `count`. */
  configs: ManifestConfig[];
  count: number;
  /** One per config, in the fleet's order. */
  entries: FleetEntry[];
}

/** Config i is `fleet/site-<i+1>` (id `site-<i+1>`), reported by scenario i renamed to it, on shard (i mod
 * count) + 1; with `copy`, one more config is the same tree as the first, on its shard. */
export function fleetFixture(scenarios: readonly ReportScenario[], count: number, options: { copy?: boolean; lint?: ReadonlyMap<number, FleetEntry["lint"]> } = {}): FleetFixture {
  const configs: ManifestConfig[] = scenarios.map((_, i) => ({ id: `site-${i + 1}`, label: `fleet/site-${i + 1}`, fingerprint: `fp-${i + 1}`, shard: (i % count) + 1, sameAs: null }));
  const entries: FleetEntry[] = scenarios.map((scenario, i) => ({ config: configs[i]!.id, scenario: { ...structuredClone(scenario), id: configs[i]!.id, file: configs[i]!.label }, lint: options.lint?.get(i) ?? null }));
  if (options.copy) {
    const first = configs[0]!;
    configs.push({ id: "site-copy", label: "fleet/site-copy", fingerprint: first.fingerprint, shard: first.shard, sameAs: first.id });
    // As run-fleet's copyEntry makes it: the first one's result under the copy's id and label.
    const lint = entries[0]!.lint ? { ...structuredClone(entries[0]!.lint), tree: { ...structuredClone(entries[0]!.lint.tree), path: "fleet/site-copy" } } : null;
    entries.push({ config: "site-copy", scenario: { ...structuredClone(entries[0]!.scenario), id: "site-copy", file: "fleet/site-copy" }, lint });
  }
  return { configs, count, entries };
}

/** The manifest shard `index` of the fixture writes; `change` edits a copy. */
export function manifestOf(fixture: FleetFixture, index: number, change: (manifest: FleetManifest) => void = () => {}): FleetManifest {
  const manifest: FleetManifest = {
    format: FLEET_FORMAT,
    formatVersion: FLEET_FORMAT_VERSION,
    tool: "0.1.0",
    inputsHash: inputsHash(
      fixture.configs.map((c) => ({ label: c.label, fingerprint: c.fingerprint, layout: null, defines: [], ignore: null })),
      OPTIONS,
    ),
    options: OPTIONS,
    images: { baseline: SIDES.sides[0]!.image, candidates: [SIDES.sides[1]!.image] },
    configs: structuredClone(fixture.configs),
    shard: { index, count: fixture.count, assignment: "path" },
  };
  change(manifest);
  return manifest;
}

export function entriesOfShard(fixture: FleetFixture, index: number): FleetEntry[] {
  return fixture.entries.filter((entry) => fixture.configs.find((c) => c.id === entry.config)!.shard === index);
}

export function tempDir(prefix = "fleet-blob-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a blob as a shard does: manifest, sides, its entries, the end line (unless `finish` is false). */
export function writeBlob(path: string, parts: { manifest: FleetManifest; sides?: BlobSides | null; entries: readonly FleetEntry[]; durationMs?: number; finish?: boolean }): string {
  const writer = BlobWriter.create(path, parts.manifest);
  if (parts.sides !== null) writer.writeSides(parts.sides ?? SIDES);
  for (const entry of parts.entries) writer.writeEntry(entry);
  if (parts.finish === false) writer.close();
  else writer.finish({ durationMs: parts.durationMs ?? 42_000, engines: null });
  return path;
}

/** Every shard's blob of the fixture, in shard order. */
export function writeShardBlobs(fixture: FleetFixture, dir: string = tempDir()): string[] {
  return Array.from({ length: fixture.count }, (_, i) =>
    writeBlob(join(dir, `shard-${i + 1}.blob`), { manifest: manifestOf(fixture, i + 1), entries: entriesOfShard(fixture, i + 1) }),
  );
}

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));

/** Lint's result on a sample tree of configs/, as a fleet entry carries it (run-fleet.ts). */
export async function sampleLint(name: string, label: string): Promise<NonNullable<FleetEntry["lint"]>> {
  const root = join(CONFIGS, name);
  const tree = await readTree(root, null, []);
  const linted = lintTree(tree, { defines: [], target: TARGET_PROFILES[defaultTargetModules(tree.layout)] }, RULES);
  return { tree: { path: label, root, layout: tree.layout, targetModules: defaultTargetModules(tree.layout), files: linted.files }, findings: linted.findings };
}
