// One fleet run (or one shard of it): every config read once, fingerprinted, given to its shard; the configs of
// this shard that are not the same tree as an earlier one run as tree scenarios (config test, probes or smoke
// requests, diff and triage) on one engine or several; each result is judged as it comes and written to the
// journal at once, with a copy for every config that is the same tree. An interrupted run keeps the journal and
// says what did not finish; `resume` goes on from it. The journal, once finished, is the shard's blob.
//
// Memory stays flat in the fleet's size: a tree is dropped once fingerprinted and read again when its scenario
// is planned and run (a few ms each), results go to the journal and not into a list, and the reports are
// written from the journal (cli/fleet-command.ts).
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { stat } from "node:fs/promises";
import type { ConfigTree } from "../conf/load-tree.ts";
import { loadUncheckedTree, readTree } from "../conf/read-tree.ts";
import { FLEET_CONFIGS_PER_CPU } from "../engine/engine-capacity.ts";
import { log } from "../engine/log.ts";
import type { Verdict } from "../judge/difference.ts";
import type { CandidateSummary } from "../judge/judge-run.ts";
import { HarnessError, isHarnessError } from "../errors.ts";
import { judgeScenario } from "../judge/judge-scenario.ts";
import { proofProbes } from "../judge/prove/proof-probes.ts";
import type { TriageInputs } from "../judge/triage.ts";
import { type HarnessRunOptions, runHarness, type RunSide, type ScenarioSource } from "../observe/run-harness.ts";
import { generateProbes } from "../plan/probes/generate-probes.ts";
import type { ProbeSet } from "../plan/probes/probe.ts";
import { withProbes } from "../plan/probes/probe-scenario.ts";
import { treeScenario, writtenFor } from "../plan/tree/tree-scenario.ts";
import { buildScenarioReportOf } from "../report/build-report.ts";
import type { ReportScenario } from "../report/report-model.ts";
import { RULES } from "../rules/all-rules.ts";
import type { LintFinding } from "../rules/finding.ts";
import { findingSubject, type IgnoreFile, ignoredBy, loadIgnoreFile } from "../rules/ignore-file.ts";
import type { LintContext } from "../rules/lint-context.ts";
import { lintTree } from "../rules/lint-tree.ts";
import { treeProbeOptions } from "../rules/tree-probes.ts";
import { defaultTargetModules, TARGET_PROFILES, type TargetModules } from "../rules/target-modules.ts";
import type { Scenario, TreeRef } from "../scenario/scenario.ts";
import { type BlobEnd, type BlobSides, BlobWriter, type FleetEntry, type JournalScan, scanJournal } from "./blob.ts";
import type { FleetConfig } from "./fleet-config.ts";
import type { PassedOver } from "./discover-configs.ts";
import { FLEET_FORMAT, FLEET_FORMAT_VERSION, type FleetManifest, inputsHash, manifestDifferences, type RunOptionsDigest } from "./manifest.ts";
import { assignShards, type ShardSpec } from "./shard.ts";
import { entriesAt } from "./journal-entries.ts";
import { treeFingerprint } from "./tree-fingerprint.ts";

/** What a fleet's run passes on to the harness's run as it is. */
type HarnessOptions = Pick<
  HarnessRunOptions,
  "baselineImage" | "candidateImage" | "moreCandidateImages" | "allowMissingBaseline" | "concurrency" | "engines" | "learnNoise" | "reuseServers" | "scenarioTimeLimitMs" | "runTimeLimitMs" | "signal"
>;

export interface FleetRunOptions extends HarnessOptions {
  /** Every config of the fleet, in its order (every shard is given all of them). */
  configs: readonly FleetConfig[];
  /** What discovery found under the fleet's directories and did not take, with why (fleet/discover-configs.ts). */
  passed?: readonly PassedOver[];
  shard: ShardSpec;
  /** An earlier run's durations by config label, to balance shards; null: by path. */
  durations: ReadonlyMap<string, number> | null;
  requests: "probes" | "smoke";
  /** At most this many probes per config (spread over its cells); null: all. */
  maxProbes: number | null;
  /** `--target-modules`: the 2.4 installation lint reads each config for, whose modules the candidate also loads
   * around a fragment; absent: each config's layout's own, and the image's stock config alone. */
  targetModules?: { lint: TargetModules; candidate: NonNullable<TreeRef["targetModules"]> } | null;
  /** A version matrix's labels and axes for the sides as resolved (the command's --matrix or --candidate). */
  labelSides?: (sides: RunSide[]) => RunSide[];
  /** The fleet's ignore file (a config's own, from fleet.yaml, wins for its findings). */
  ignore: IgnoreFile | null;
  /** Where journals are kept (one per inputs and shard). */
  stateDir: string;
  /** Go on from this shard's journal when there is one of the same inputs. */
  resume: boolean;
  toolVersion: string;
  onProgress?: (event: FleetProgress) => void;
}

export type FleetProgress =
  | { kind: "note"; message: string }
  /** `done` of `total` configs of this shard have their entry (copies and unreadable trees included). */
  | { kind: "config-done"; config: FleetConfig; entry: FleetEntry; done: number; total: number; sinceStart: number; fromJournal: number };

export interface FleetRunResult {
  manifest: FleetManifest;
  sides: BlobSides;
  /** This shard's config ids in the fleet's order: the order of the report's entries (the journal holds them in
   * the order they finished). */
  order: string[];
  durationMs: number;
  engines: BlobEnd["engines"];
  /** The finished journal: the shard's blob. */
  journal: string;
  /** Entries kept from an earlier run of the same inputs (--resume). */
  resumed: number;
  /** Containers the run created on its engines (HarnessRunResult.containersCreated). */
  containersCreated: number;
}

/** What the run keeps of a config once its tree is fingerprinted: not the tree. */
interface ReadConfig {
  config: FleetConfig;
  error: HarnessError | null;
  fingerprint: string;
  ignore: IgnoreFile | null;
  ignoreHash: string | null;
}

function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Probes spread over the whole set when capped: every k-th in the generator's order (which walks the cells). The
 * bench's docker-CLI floor plans a config's probes with it too (scripts/bench-fleet.ts). */
export function capProbes(set: ProbeSet, max: number | null): ProbeSet {
  if (max === null || set.probes.length <= max) return set;
  const step = set.probes.length / max;
  const probes = Array.from({ length: max }, (_, index) => set.probes[Math.floor(index * step)]!);
  // The world plants only what the kept probes ask for.
  const asked = new Set(probes.map((p) => p.path.split("?")[0]!));
  return { ...set, probes, world: { ...set.world, objects: set.world.objects.filter((o) => asked.has(o.url)) } };
}

/** A config's findings when its tree could not be read: the scenario is an error naming every problem. */
function unreadableScenario(config: FleetConfig, error: HarnessError): ReportScenario {
  const notRun = { ok: false, stated: false, failures: [], skipped: "not run: the tree could not be read" };
  return {
    id: config.id,
    title: `tree ${config.label} (cannot be read)`,
    file: config.label,
    seed: [],
    verdict: "error",
    coverage: "both",
    durationMs: 0,
    error: { code: error.code, message: error.message },
    engine: null,
    findings: [],
    ignored: { byRule: {}, differences: [] },
    expectations: { baseline: notRun, candidate: notRun },
    guide: { claim: null, holds: null, notes: [], failures: [] },
    configTest: { baseline: null, candidate: null },
    servers: { baseline: null, candidate: null },
    differences: [],
    requests: [],
    matrix: null,
    probes: null,
  };
}

/** The entry of a config that is the same tree as one that ran: that run's result under this config's name. */
function copyEntry(entry: FleetEntry, from: FleetConfig, to: FleetConfig): FleetEntry {
  const rename = (text: string): string => text.split(from.path).join(to.path).split(from.label).join(to.label);
  const server = (s: ReportScenario["servers"]["baseline"]): ReportScenario["servers"]["baseline"] => (s?.tree ? { ...s, tree: { ...s.tree, origin: to.path } } : s);
  return {
    config: to.id,
    scenario: {
      ...entry.scenario,
      id: to.id,
      title: rename(entry.scenario.title),
      file: to.label,
      servers: { baseline: server(entry.scenario.servers.baseline), candidate: server(entry.scenario.servers.candidate) },
    },
    lint: entry.lint ? { tree: { ...entry.lint.tree, path: to.label, root: rootOf(to, entry.lint.tree.root, from) }, findings: entry.lint.findings } : null,
  };
}

function rootOf(config: FleetConfig, fromRoot: string, from: FleetConfig): string {
  return fromRoot === from.path ? config.path : dirname(config.path);
}

export function journalPath(stateDir: string, manifest: Pick<FleetManifest, "inputsHash" | "shard">): string {
  return join(stateDir, `${manifest.inputsHash.slice(0, 16)}-shard-${manifest.shard.index}-of-${manifest.shard.count}.jsonl`);
}

export async function runFleet(options: FleetRunOptions): Promise<FleetRunResult> {
  const started = Date.now();
  log("fleet: %d configs found (profile)", options.configs.length);
  const note = (message: string): void => options.onProgress?.({ kind: "note", message });
  const fleetIgnoreHash = options.ignore ? sha256(await readFile(options.ignore.path)) : null;

  // 1. Every config read once, fingerprinted. A tree that cannot be read is the config's result (an error),
  //    not the end of the fleet.
  const read: ReadConfig[] = [];
  for (const config of options.configs) {
    const ignore = config.ignoreFile ? await loadIgnoreFile(config.ignoreFile) : null;
    const ignoreHash = config.ignoreFile ? sha256(await readFile(config.ignoreFile)) : null;
    try {
      const tree = await readTree(config.path, config.layout, config.defines);
      read.push({ config, error: null, fingerprint: treeFingerprint(tree, config.defines), ignore, ignoreHash });
    } catch (error) {
      if (!isHarnessError(error) || error.code !== "HARNESS_CONFIG_FILE") throw error;
      read.push({ config, error, fingerprint: `unreadable:${sha256(error.message)}`, ignore, ignoreHash });
    }
  }

  log("fleet: %d trees read and fingerprinted (profile)", read.length);
  // 2. The same tree (with the same ignore file) runs once: the first config of each, in the fleet's order.
  const firstOf = new Map<string, ReadConfig>();
  const sameAs = new Map<string, ReadConfig>();
  for (const item of read) {
    if (item.error) continue;
    const key = `${item.fingerprint}\u0000${item.ignoreHash ?? ""}`;
    const first = firstOf.get(key);
    if (first) sameAs.set(item.config.id, first);
    else firstOf.set(key, item);
  }

  // 3. Shards: a tree and its copies are one unit, placed by the first one's label.
  const unitOf = (item: ReadConfig): string => (sameAs.get(item.config.id) ?? item).config.label;
  const units = unitsOf(read.map(unitOf));
  const assignment = assignShards(units, options.shard.count, options.durations ?? undefined);
  const runOptions: RunOptionsDigest = {
    requests: options.requests,
    maxProbes: options.requests === "probes" ? options.maxProbes : null,
    learnNoise: options.learnNoise,
    ignore: fleetIgnoreHash,
    // Another module set around the fragments is another run: a journal of the other is not resumed.
    ...(options.targetModules ? { targetModules: options.targetModules.lint.name } : {}),
  };
  const manifest: FleetManifest = {
    format: FLEET_FORMAT,
    formatVersion: FLEET_FORMAT_VERSION,
    tool: options.toolVersion,
    inputsHash: inputsHash(
      read.map((item) => ({ label: item.config.label, fingerprint: item.fingerprint, layout: item.config.layout, defines: item.config.defines, ignore: item.ignoreHash })),
      runOptions,
    ),
    options: runOptions,
    images: { baseline: options.baselineImage, candidates: [options.candidateImage, ...(options.moreCandidateImages ?? [])] },
    configs: read.map((item) => ({
      id: item.config.id,
      label: item.config.label,
      fingerprint: item.fingerprint,
      shard: assignment.get(unitOf(item))!,
      sameAs: sameAs.get(item.config.id)?.config.id ?? null,
    })),
    shard: { ...options.shard, assignment: options.durations && options.durations.size > 0 ? "durations" : "path" },
    passed: [...(options.passed ?? [])],
  };
  const mine = read.filter((item) => assignment.get(unitOf(item)) === options.shard.index);

  // 4. The journal: this shard's results so far, when resuming one of the same inputs.
  const path = journalPath(options.stateDir, manifest);
  let earlier: JournalScan | null = null;
  if (options.resume) {
    try {
      earlier = scanJournal(path);
    } catch (error) {
      if (!isHarnessError(error) || !error.message.includes("no such file")) throw error;
      note(`resume: no journal of these inputs at ${path}; starting from the beginning`);
    }
    if (earlier) {
      const differences = manifestDifferences(earlier.manifest, manifest);
      if (differences.length > 0) {
        throw new HarnessError("HARNESS_BLOB", `the journal ${path} is of another run: ${differences.join("; ")}`, { hint: "Run without --resume to start over." });
      }
    }
  }
  const done = new Set<string>(earlier?.places.keys() ?? []);
  if (earlier) note(`resume: ${done.size} of ${mine.length} configs of this shard kept from ${path}`);
  const writer = earlier ? BlobWriter.resume(earlier) : BlobWriter.create(path, manifest);
  let sides: BlobSides | null = earlier?.sides ?? null;
  // The configs with an entry in the journal: ids only, the entries are on disk.
  const finished = new Set<string>(done);
  const total = mine.length;
  const record = (item: ReadConfig, entry: FleetEntry): void => {
    if (finished.has(item.config.id)) return;
    writer.writeEntry(entry);
    finished.add(item.config.id);
    options.onProgress?.({ kind: "config-done", config: item.config, entry, done: finished.size, total, sinceStart: Date.now() - started, fromJournal: done.size });
  };
  const copies = copiesByOriginal(mine, sameAs);
  const copiesOf = (original: ReadConfig): readonly ReadConfig[] => copies.get(original.config.id) ?? [];

  try {
    // 5. What this shard still has to run: one tree scenario per unit, probes or smoke requests, made from its
    //    tree read again when the run plans it (and when it runs it); its lint waits here for its result.
    const pending = mine.filter((item) => !item.error && !sameAs.has(item.config.id) && !done.has(item.config.id));
    const linted = new Map<string, { item: ReadConfig; lint: NonNullable<FleetEntry["lint"]>; findings: LintFinding[] }>();
    const source: ScenarioSource = {
      count: pending.length,
      load: async (index, purpose) => {
        const item = pending[index]!;
        const built = await buildConfigScenario(item, options, purpose);
        if (built.linted) linted.set(item.config.id, { item, ...built.linted });
        return { scenario: built.scenario, trees: new Map([[item.config.path, built.tree]]) };
      },
    };

    // Unreadable trees and copies whose original is already journalled are entries at once.
    for (const item of mine) {
      if (item.error) record(item, { config: item.config.id, scenario: unreadableScenario(item.config, item.error), lint: null });
    }
    if (earlier) {
      for (const original of mine) {
        const place = earlier.places.get(original.config.id);
        const copies = copiesOf(original).filter((copy) => !finished.has(copy.config.id));
        if (place === undefined || copies.length === 0) continue;
        // The original's entry, read back from the journal for its copies only.
        for (const entry of entriesAt(path, [place])) for (const copy of copies) record(copy, copyEntry(entry, original.config, copy.config));
      }
      earlier = null;
    }

    // 6. Run. Each result is judged with its own config's lint and ignore file and written at once.
    // A matrix's columns are labelled as the command named them (buildScenarioReportOf).
    let candidates: CandidateSummary[] = [];
    const result = await runHarness({
      scenarios: source,
      keepRuns: false,
      baselineImage: options.baselineImage,
      candidateImage: options.candidateImage,
      moreCandidateImages: options.moreCandidateImages,
      allowMissingBaseline: options.allowMissingBaseline,
      concurrency: options.concurrency,
      scenariosPerCpu: FLEET_CONFIGS_PER_CPU,
      engines: options.engines,
      learnNoise: options.learnNoise,
      ...(options.reuseServers === undefined ? {} : { reuseServers: options.reuseServers }),
      scenarioTimeLimitMs: options.scenarioTimeLimitMs,
      runTimeLimitMs: options.runTimeLimitMs,
      signal: options.signal,
      onProgress: (event) => {
        if (event.kind === "note") note(event.message);
        else if (event.kind === "sides") {
          const labelled = options.labelSides ? options.labelSides(event.sides) : event.sides;
          candidates = labelled
            .filter((s) => s.side.role === "candidate")
            .map((s) => ({ side: s.side, label: s.label ?? s.image, axis: s.axis ?? null, image: s.image, version: s.version, byVerdict: emptyVerdicts() }));
          const now: BlobSides = { sides: blobSides(labelled), startedAt: sides?.startedAt ?? new Date(started).toISOString() };
          if (sides) {
            const was = sides.sides.map((s) => `${s.id}=${s.imageId}`).join(", ");
            const is = now.sides.map((s) => `${s.id}=${s.imageId}`).join(", ");
            if (was !== is) {
              throw new HarnessError("HARNESS_BLOB", `the journal ${path} was written with other images (${was}) than this run resolved (${is})`, { hint: "Run without --resume to start over with these images." });
            }
          } else {
            sides = now;
            writer.writeSides(now);
          }
        } else {
          // A scenario that ended because of the interrupt says nothing of its config: it runs again on --resume.
          if (options.signal?.aborted) return;
          const planned = linted.get(event.run.scenario.id)!;
          linted.delete(event.run.scenario.id);
          const triage: TriageInputs = {
            rules: RULES,
            lint: new Map([[event.run.scenario.id, { baseline: planned.findings, candidate: planned.findings }]]),
            ignore: planned.item.ignore ?? options.ignore,
          };
          const scenario = { ...buildScenarioReportOf(judgeScenario(event.run, triage), candidates), file: planned.item.config.label };
          const entry: FleetEntry = { config: planned.item.config.id, scenario, lint: planned.lint };
          record(planned.item, entry);
          for (const copy of copiesOf(planned.item)) record(copy, copyEntry(entry, planned.item.config, copy.config));
        }
      },
    });
    const engines = result.engines && result.engines.length > 1 ? result.engines : null;
    writer.finish({ durationMs: Date.now() - started, engines });
    return { manifest, sides: sides!, order: mine.map((item) => item.config.id), durationMs: Date.now() - started, engines, journal: path, resumed: done.size, containersCreated: result.containersCreated ?? 0 };
  } catch (error) {
    writer.close();
    if (isHarnessError(error) && error.code === "HARNESS_INTERRUPTED") {
      const unfinished = mine.filter((item) => !finished.has(item.config.id)).map((item) => item.config.label);
      throw new HarnessError(
        "HARNESS_INTERRUPTED",
        `Interrupted: ${finished.size} of ${mine.length} configs finished and are kept in ${path}; not finished: ${unfinished.slice(0, 20).join(", ")}${unfinished.length > 20 ? `, and ${unfinished.length - 20} more` : ""}.`,
        { hint: "Run the same command with --resume to go on from there; every container and network of the run was removed." },
      );
    }
    throw error;
  }
}

/** A config's tree scenario, built from its tree read again: lint (as `lint PATH` reads it, for the 2.4
 * installation of its own layout), the scenario with its probes or smoke requests, and the tree as staged. A tree
 * that changed since the run fingerprinted it stops the run: its result would not be of the inputs the journal
 * names. */
/** The config's scenario (its tree, probes or smoke requests) and, to run it, its lint: the check before the run
 * (every config planned before any runs) needs the scenario only. */
async function buildConfigScenario(
  item: ReadConfig,
  options: Pick<FleetRunOptions, "ignore" | "requests" | "maxProbes" | "targetModules">,
  purpose: "check" | "run",
): Promise<{ scenario: Scenario; tree: ConfigTree; linted: { lint: NonNullable<FleetEntry["lint"]>; findings: LintFinding[]; context: LintContext } | null }> {
  const { config } = item;
  // Not checked again: the fingerprint covers all the check reads, and the run checked this tree at its start.
  const tree = await loadUncheckedTree(config.path, config.layout);
  if (treeFingerprint(tree, config.defines) !== item.fingerprint) {
    throw new HarnessError("HARNESS_CONFIG_FILE", `${config.label} changed during the fleet run (its tree is not the one the run read at its start).`, {
      hint: "Run the fleet again once the configs stay put.",
    });
  }
  const linted = purpose === "run" ? await lintOf(item, tree, options) : null;
  const at = { file: config.label, line: 1, column: 1 };
  const ref = { at, path: config.path, layout: config.layout, defines: config.defines, writtenFor: writtenFor(tree, config.defines) };
  const target = options.targetModules?.candidate;
  let scenario = treeScenario({ id: config.id, baseline: { tree, ref }, candidate: { tree, ref: target ? { ...ref, targetModules: target } : ref } });
  if (options.requests === "probes") {
    scenario = withProbes(scenario, capProbes(configProbes(tree, config.defines, linted?.context ?? null), options.maxProbes));
  }
  return { scenario, tree, linted };
}

async function lintOf(
  item: ReadConfig,
  tree: ConfigTree,
  options: Pick<FleetRunOptions, "ignore" | "targetModules">,
): Promise<{ lint: NonNullable<FleetEntry["lint"]>; findings: LintFinding[]; context: LintContext }> {
  const { config } = item;
  const target = options.targetModules?.lint ?? TARGET_PROFILES[defaultTargetModules(tree.layout)];
  const linted = lintTree(tree, { defines: config.defines, target }, RULES);
  const root = (await stat(config.path)).isDirectory() ? config.path : dirname(config.path);
  // The entry keeps what the ignore file lets through, as `lint` reports it; triage reads them all.
  const ignore = item.ignore ?? options.ignore;
  const kept = linted.findings.filter((finding) => ignoredBy(ignore, findingSubject(finding)) === undefined);
  return { lint: { tree: { path: config.label, root, layout: tree.layout, targetModules: target.name, files: linted.files }, findings: kept }, findings: linted.findings, context: linted.context };
}

/** A config's probes, as prove generates them for a tree and its unchanged port (judge/prove/proof-probes.ts
 * proofProbes(tree, tree)): from the views of the config's lint when it was linted for the 2.4 installation prove
 * reads (its layout's own), which are the views proofProbes evaluates again (proofConfigs: lintContext of the tree
 * with its defines and that installation; the 2.2 view does not depend on the installation); else, or before
 * lint ran (the run's check), proofProbes itself. The views were built twice per config, as lint's and as the
 * probes'. `linted`: the context of lintTree(tree, { defines, target }), with these defines. */
export function configProbes(tree: ConfigTree, defines: readonly string[], linted: LintContext | null): ProbeSet {
  if (linted === null || linted.tree !== tree || linted.targetModules !== TARGET_PROFILES[defaultTargetModules(tree.layout)]) return proofProbes(tree, tree, defines).set;
  return generateProbes([linted.source], [linted.target], treeProbeOptions([tree, tree]));
}

/** Shards' units: a tree and its copies, keyed by the first one's label, with their size, in first-seen order;
 * one pass (the fleet may have thousands of configs). */
export function unitsOf(keys: readonly string[]): Array<{ key: string; configs: number }> {
  const sizes = new Map<string, number>();
  for (const key of keys) sizes.set(key, (sizes.get(key) ?? 0) + 1);
  return [...sizes].map(([key, configs]) => ({ key, configs }));
}

/** The copies of each original among `items`, by the original's id, in the items' order; one pass. */
export function copiesByOriginal<T extends { config: { id: string } }>(items: readonly T[], sameAs: ReadonlyMap<string, { config: { id: string } }>): Map<string, T[]> {
  const copies = new Map<string, T[]>();
  for (const item of items) {
    const original = sameAs.get(item.config.id);
    if (!original) continue;
    const list = copies.get(original.config.id);
    if (list) list.push(item);
    else copies.set(original.config.id, [item]);
  }
  return copies;
}

function blobSides(sides: readonly RunSide[]): BlobSides["sides"] {
  return sides.map((s) => ({
    id: s.side.id,
    role: s.side.role,
    image: s.image,
    version: s.version,
    missing: s.missing,
    imageId: s.imageId ?? null,
    ...(s.label !== undefined ? { label: s.label, axis: s.axis ?? null } : {}),
  }));
}

function emptyVerdicts(): Record<Verdict, number> {
  return { same: 0, "expected-change": 0, regression: 0, noise: 0, error: 0, unverified: 0, "broken-on-both": 0 };
}
