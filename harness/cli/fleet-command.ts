// `fleet DIR...`: every config tree of a fleet through config test, probes, diff and triage, one report for the
// fleet; `--shard k/n` runs one shard and `--report blob:PATH` keeps it for `merge-reports`; `--resume` goes on
// from an interrupted run's journal. `merge-reports BLOB...` puts shards back together with the same reports a
// single run writes.
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import type { ParseArgsConfig } from "node:util";
import { resolve } from "node:path";
import { HarnessError } from "../errors.ts";
import { parseBlob, readBlob } from "../fleet/blob.ts";
import { mergeBlobs } from "../fleet/merge-blobs.ts";
import { runFleet } from "../fleet/run-fleet.ts";
import { parseShard, type ShardSpec } from "../fleet/shard.ts";
import { renderFleetProgress, renderFleetText, renderPassedOver } from "../report/fleet-text.ts";
import type { Report } from "../report/report-model.ts";
import { enginesOption } from "./engines-option.ts";
import { runExitStatus } from "./exit-status.ts";
import { fleetConfigs } from "./fleet-inputs.ts";
import { ignoreFileFor } from "./ignore-option.ts";
import { interruptible } from "./interrupts.ts";
import { labelSides, runImages } from "./matrix-option.ts";
import { runTargetModules } from "./target-modules-option.ts";
import { parseOptions, seconds } from "./parse-options.ts";
import { fleetReportsFromJournal, fleetReportsOf, writeFleetReports } from "./fleet-reports.ts";
import { FLEET_FORMATS, type FleetFormat, parseTargetOf, REPORT_FORMATS } from "./report-targets.ts";
import { toolVersion } from "./tool-version.ts";
import { parseLayout } from "./tree-inputs.ts";

type OptionSpec = NonNullable<ParseArgsConfig["options"]>[string];

const FORMATS: readonly FleetFormat[] = [...REPORT_FORMATS, ...FLEET_FORMATS];

/** Where journals live unless --state says otherwise. */
export const DEFAULT_STATE_DIR = ".httpd-upgrade-fleet";

export const FLEET_OPTIONS = {
  report: { type: "string", multiple: true, default: [] as string[] },
  shard: { type: "string" },
  "shard-durations": { type: "string", multiple: true, default: [] as string[] },
  resume: { type: "boolean", default: false },
  state: { type: "string" },
  baseline: { type: "string" },
  candidate: { type: "string", multiple: true },
  matrix: { type: "string" },
  "allow-missing-baseline": { type: "boolean", default: false },
  engines: { type: "string" },
  concurrency: { type: "string" },
  requests: { type: "string", default: "probes" },
  "max-probes": { type: "string" },
  layout: { type: "string" },
  define: { type: "string", short: "D", multiple: true, default: [] as string[] },
  exclude: { type: "string", multiple: true, default: [] as string[] },
  ignore: { type: "string" },
  "no-noise": { type: "boolean", default: false },
  "no-reuse": { type: "boolean", default: false },
  "scenario-time-limit": { type: "string" },
  "time-limit": { type: "string" },
  "target-modules": { type: "string" },
  color: { type: "boolean", default: process.stderr.isTTY === true },
} satisfies Record<string, OptionSpec>;

export const MERGE_OPTIONS = {
  report: { type: "string", multiple: true, default: [] as string[] },
  color: { type: "boolean", default: process.stdout.isTTY === true },
} satisfies Record<string, OptionSpec>;

function positiveInteger(value: string | undefined, flag: string): number | null {
  if (value === undefined) return null;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new HarnessError("HARNESS_USAGE", `${flag} ${JSON.stringify(value)} is not a positive whole number.`);
  return parsed;
}

/** Durations by config label, from earlier reports (JSON) or blobs: what `--shard-durations` balances by. */
function readDurations(files: readonly string[]): Map<string, number> | null {
  if (files.length === 0) return null;
  const durations = new Map<string, number>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (cause) {
      throw new HarnessError("HARNESS_USAGE", `--shard-durations ${file}: ${(cause as Error).message}`, { cause });
    }
    if (text.startsWith("{\"kind\":\"manifest\"")) {
      for (const entry of parseBlob(text, file).entries) durations.set(entry.scenario.file, entry.scenario.durationMs);
      continue;
    }
    let report: Partial<Report>;
    try {
      report = JSON.parse(text) as Partial<Report>;
    } catch {
      throw new HarnessError("HARNESS_USAGE", `--shard-durations ${file} is neither a JSON report nor a fleet blob.`);
    }
    for (const config of report.fleet?.configs ?? []) if (config.sameAs === null) durations.set(config.path, config.durationMs);
  }
  return durations;
}

function shardOption(value: string | undefined): ShardSpec {
  if (value === undefined) return { index: 1, count: 1 };
  const shard = parseShard(value);
  if (typeof shard === "string") throw new HarnessError("HARNESS_USAGE", `--shard ${shard}.`);
  return shard;
}

export async function runFleetCommand(args: string[]): Promise<number> {
  // A fleet run allocates far more than it keeps (every tree read, planned and dropped, thousands of results
  // through the journal): V8 otherwise grows the heap to several times what is live before it collects, and the
  // process's memory with it (282 MiB against 135 MiB at 1,000 configs, scripts/bench-fleet.ts). The heap's
  // growth heuristics read this flag as they go, so setting it here holds for this run.
  setFlagsFromString("--optimize-for-size");
  const { values, positionals } = parseOptions(args, FLEET_OPTIONS);
  const targets = values.report.map((value) => parseTargetOf(value, FORMATS));
  const shard = shardOption(values.shard);
  if (targets.some((t) => t.format === "blob") && targets.some((t) => t.format !== "blob") && shard.count > 1) {
    process.stderr.write(`note: the reports other than the blob show shard ${shard.index}/${shard.count} alone; merge-reports gives the fleet's\n`);
  }
  const requests = values.requests;
  if (requests !== "probes" && requests !== "smoke") throw new HarnessError("HARNESS_USAGE", `--requests ${JSON.stringify(requests)}: use probes or smoke.`);
  const concurrency = positiveInteger(values.concurrency, "--concurrency");
  // The images first: a broken matrix file costs nothing.
  const images = await runImages(values);
  const [first, ...more] = images.candidates;
  const { configs, passed } = await fleetConfigs(positionals, { cwd: process.cwd(), layout: parseLayout(values.layout), defines: values.define.filter((d) => d !== ""), exclude: values.exclude });
  if (passed.length > 0) process.stderr.write(`${renderPassedOver(passed)}\n`);
  const ignore = await ignoreFileFor(values.ignore);
  // lint's option: what each config is read for, and what the candidate loads around a fragment.
  const targetModules = await runTargetModules(values["target-modules"]);
  const color = values.color === true;
  return interruptible(async (signal) => {
    const result = await runFleet({
      configs,
      passed,
      shard,
      durations: readDurations(values["shard-durations"]),
      requests,
      maxProbes: positiveInteger(values["max-probes"], "--max-probes"),
      targetModules,
      baselineImage: images.baseline.image,
      candidateImage: first!.image,
      moreCandidateImages: more.map((candidate) => candidate.image),
      labelSides: (sides) => labelSides(sides, images),
      allowMissingBaseline: values["allow-missing-baseline"] === true,
      concurrency,
      engines: enginesOption(values.engines),
      learnNoise: values["no-noise"] !== true,
      ...(values["no-reuse"] === true ? { reuseServers: false } : {}),
      scenarioTimeLimitMs: seconds(values["scenario-time-limit"], "--scenario-time-limit") ?? undefined,
      runTimeLimitMs: seconds(values["time-limit"], "--time-limit"),
      ignore,
      stateDir: resolve(values.state ?? DEFAULT_STATE_DIR),
      resume: values.resume === true,
      toolVersion: toolVersion(),
      signal,
      onProgress: (event) => {
        if (event.kind === "note") process.stderr.write(`${event.message}\n`);
        else {
          const progress = { done: event.done, total: event.total, fromJournal: event.fromJournal, label: event.config.label, verdict: event.entry.scenario.verdict, sinceStartMs: event.sinceStart };
          process.stderr.write(`${renderFleetProgress(progress, { color })}\n`);
        }
      },
    });
    if (result.resumed > 0) process.stderr.write(`resumed: ${result.resumed} configs came from the journal ${result.journal}\n`);
    return withYoungGenerationHeld(() => {
      const reports = fleetReportsFromJournal({ ...result, toolVersion: toolVersion() }, result.journal, result.order);
      process.stdout.write(`${renderFleetText(reports.frame, { color: process.stdout.isTTY === true && color })}\n`);
      writeFleetReports(reports, result.journal, targets);
      return runExitStatus(reports.frame);
    });
  }, "keeping what finished, removing the run's containers and networks");
}

/** V8's default growth factor of the young generation (--semi-space-growth-factor). */
const SEMI_SPACE_GROWTH_FACTOR = 2;

/** `work` (the reports' pass) with the young generation kept at the size it has. The pass parses every config's
 * entry twice, some 90 KB of JSON each at a thousand configs, and keeps an outline of each: so many objects live
 * through a scavenge that V8 doubled the young generation to its 2 x 16 MB, which stayed resident to the end, the
 * process's peak (scripts/bench-fleet.ts). Held, the pass takes some 2 s more CPU at 1,000 configs (more
 * scavenges, and more promoted to the old generation) and about 30 MiB less memory. Its size cannot be capped at
 * run time (--max-semi-space-size is read when the heap is made); its growth can, and the flag is read as it goes. */
function withYoungGenerationHeld<T>(work: () => T): T {
  setFlagsFromString("--semi-space-growth-factor=1");
  try {
    return work();
  } finally {
    setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
  }
}

export async function runMergeReportsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, MERGE_OPTIONS);
  if (positionals.length === 0) {
    throw new HarnessError("HARNESS_USAGE", "merge-reports takes the blob of every shard of one fleet run.", {
      hint: "httpd-upgrade-harness merge-reports blobs/*.blob --report junit:reports/junit.xml --report html:reports/fleet.html",
    });
  }
  const targets = values.report.map((value) => parseTargetOf(value, FORMATS.filter((f) => f !== "blob")));
  const merged = mergeBlobs(positionals.map((path) => readBlob(path)));
  process.stderr.write(`merged ${merged.manifest.shard.count} shard${merged.manifest.shard.count === 1 ? "" : "s"} of ${merged.entries.length} configs (inputs ${merged.manifest.inputsHash.slice(0, 16)})\n`);
  const reports = fleetReportsOf({ ...merged, toolVersion: merged.manifest.tool });
  process.stdout.write(`${renderFleetText(reports.frame, { color: values.color === true })}\n`);
  writeFleetReports(reports, null, targets);
  return runExitStatus(reports.frame);
}
