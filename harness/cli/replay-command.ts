// `replay ACCESS_LOG --config PATH`: an access log's requests, de-duplicated, sent to both versions booted from
// the tree, and triaged like any run. The log is read once, as a stream (cli/access-log-input.ts); turning its
// records into requests, identities and scenarios is pure planning (plan/replay/). Bad lines are counted and the
// first ones shown, never fatal; a log with no line to replay at all is bad input (HARNESS_ACCESS_LOG, exit 2).
import { basename } from "node:path";
import pc from "picocolors";
import { DEFAULT_BASELINE_IMAGE, DEFAULT_CANDIDATE_IMAGE } from "../engine/default-images.ts";
import { HarnessError } from "../errors.ts";
import { judgeRun } from "../judge/judge-run.ts";
import type { TriageInputs } from "../judge/triage.ts";
import { runHarness } from "../observe/run-harness.ts";
import { formatCandidates, knownNicknames, logOrigin, namedFormat } from "../plan/replay/replay-formats.ts";
import { identityResolver, replayIdentities, replayUsers, treeAccessForms } from "../plan/replay/replay-identities.ts";
import { replayScenarios } from "../plan/replay/replay-scenario.ts";
import { replayServers } from "../plan/replay/replay-targets.ts";
import { buildReport } from "../report/build-report.ts";
import { renderTerminalTable } from "../report/terminal-table.ts";
import { renderTreeNotes } from "../report/tree-notes.ts";
import { RULES } from "../rules/all-rules.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { type AccessLogInput, readAccessLog } from "./access-log-input.ts";
import { EXIT, runExitStatus } from "./exit-status.ts";
import { ignoreFileFor } from "./ignore-option.ts";
import { interruptible } from "./interrupts.ts";
import { printProgress, timingOptions } from "./run-progress.ts";
import { parseOptions, USAGE } from "./parse-options.ts";
import { proofConfigs } from "../judge/prove/proof-probes.ts";
import { parseReportTarget, type ReportTarget, writeReports } from "./report-targets.ts";
import { toolVersion } from "./tool-version.ts";
import { treeLint, treeScenarios } from "./tree-inputs.ts";

/** Distinct requests sent when --limit is not given: enough for a day of a small site, bounded for a large one. */
export const DEFAULT_REPLAY_LIMIT = 500;

export async function runReplayCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    config: { type: "string" },
    "candidate-config": { type: "string" },
    layout: { type: "string" },
    define: { type: "string", short: "D", multiple: true, default: [] },
    "log-format": { type: "string" },
    limit: { type: "string" },
    baseline: { type: "string" },
    candidate: { type: "string" },
    report: { type: "string", multiple: true, default: [] },
    "allow-missing-baseline": { type: "boolean", default: false },
    concurrency: { type: "string" },
    "no-noise": { type: "boolean", default: false },
    "scenario-time-limit": { type: "string" },
    "time-limit": { type: "string" },
    ignore: { type: "string" },
    "dry-run": { type: "boolean", default: false },
    color: { type: "boolean", default: process.stdout.isTTY === true },
  });
  if (positionals.length !== 1) {
    throw new HarnessError("HARNESS_USAGE", positionals.length === 0 ? "replay needs an access log" : `replay takes one access log, not ${positionals.length}`, { hint: USAGE });
  }
  const logFile = positionals[0]!;
  if (values.config === undefined) throw new HarnessError("HARNESS_USAGE", "replay needs --config PATH: the tree the log's server ran", { hint: USAGE });
  const limit = wholeNumber(values.limit, "--limit") ?? DEFAULT_REPLAY_LIMIT;
  const concurrency = wholeNumber(values.concurrency, "--concurrency");
  const targets: ReportTarget[] = (values.report as string[]).map(parseReportTarget);

  // The tree is read (and refused when unreadable) before the log, and the log before any engine is asked.
  const fromTree = await treeScenarios({
    configs: [values.config],
    candidateConfigs: values["candidate-config"] === undefined ? [] : [values["candidate-config"]],
    layout: values.layout,
    defines: values.define as string[],
  });
  const base = fromTree.scenarios[0]!;
  const refs = base.server.tree!;
  const original = fromTree.trees.get(refs.baseline.path)!;
  const port = fromTree.trees.get(refs.candidate.path)!;
  const configs = proofConfigs(original, port, refs.baseline.defines);

  const formats = values["log-format"] === undefined ? { candidates: formatCandidates(configs.baseline, basename(logFile)) } : { named: namedOrRefused(configs.baseline, values["log-format"]) };
  const identities = replayIdentities([configs.baseline, configs.candidate], [original, port].flatMap(treeAccessForms));
  // A fragment is read into the image's stock config, which listens on 80.
  const fragment = original.layout === "fragment" || port.layout === "fragment";
  const extraTargets = fragment ? [{ host: null, port: 80, tls: false, client: "host" as const }] : [];
  // The virtual host whose own log the file is (found by its name) names the Host and port of lines that do not.
  const origin = logOrigin(configs.baseline, basename(logFile));
  const servers = replayServers([configs.baseline, configs.candidate], extraTargets, origin?.server ? { config: configs.baseline, server: origin.server } : null);
  const input = await readAccessLog(logFile, formats, { servers, identityOf: identityResolver(identities) });
  const { result } = input;
  process.stdout.write(`${summary(logFile, input, limit)}\n`);
  if (result.entries.length === 0) {
    throw new HarnessError("HARNESS_ACCESS_LOG", `not one line of ${logFile} can be replayed (${result.lines} lines, ${result.bad.count} bad)`, {
      ...(result.bad.samples[0] ? { position: { file: logFile, line: result.bad.samples[0].line, column: 1 } } : {}),
      hint: "The bad lines above say why; name the log's format with --log-format FORMAT_STRING_OR_NICKNAME when the tree's does not fit.",
    });
  }

  const entries = result.entries.slice(0, limit);
  const users = [...new Set(entries.flatMap((entry) => (entry.request.user === null ? [] : [entry.request.user])))];
  // The logged users are the world's identities, in every store of both sides (their own lines replaced).
  const world = { users: replayUsers(users), digestRealms: [], objects: [] };
  const trees = fromTree.trees;
  const sent = entries.length < result.entries.length ? `, the ${entries.length} most frequent sent` : "";
  const counted = `${result.lines} lines: ${result.entries.length} distinct requests${sent}, ${result.bad.count} bad lines`;
  const scenarios: Scenario[] = replayScenarios({ base, entries, clients: identities.clients, logFile }).map((s) => ({ ...s, title: `${s.title} (${counted})`, server: { ...s.server, world } }));

  if (values["dry-run"] === true) {
    process.stdout.write(`${dryRun(scenarios)}\n`);
    return EXIT.ok;
  }

  const triage: TriageInputs = { rules: RULES, lint: treeLint(scenarios, trees), ignore: await ignoreFileFor(values.ignore) };
  if (triage.ignore) process.stderr.write(`ignore file: ${triage.ignore.path} (${triage.ignore.entries.length} ${triage.ignore.entries.length === 1 ? "entry" : "entries"})\n`);
  const baselineImage = values.baseline ?? (process.env.HTTPD_BASELINE_IMAGE || DEFAULT_BASELINE_IMAGE);
  const candidateImage = values.candidate ?? (process.env.HTTPD_CANDIDATE_IMAGE || DEFAULT_CANDIDATE_IMAGE);
  return interruptible(async (signal) => {
    const run = await runHarness({
      scenarios,
      trees,
      baselineImage,
      candidateImage,
      allowMissingBaseline: values["allow-missing-baseline"] === true,
      concurrency,
      ...timingOptions(values),
      signal,
      onProgress: printProgress(triage),
    });
    const report = buildReport(judgeRun(run, triage), toolVersion());
    if (report.baseline.missing) {
      process.stdout.write(`\nThe baseline image ${baselineImage} is not on this engine and could not be pulled: only the candidate ran.\n\n`);
    }
    process.stdout.write(`${renderTerminalTable(report, { color: values.color === true })}\n`);
    const treeNotes = renderTreeNotes(report);
    if (treeNotes) process.stdout.write(`\n${treeNotes}\n`);
    writeReports(report, targets);
    for (const target of targets) process.stderr.write(`wrote ${target.format} report: ${target.path}\n`);
    return runExitStatus(report);
  });
}

function namedOrRefused(config: Parameters<typeof namedFormat>[0], value: string): NonNullable<ReturnType<typeof namedFormat>> {
  const named = namedFormat(config, value);
  if (named !== null) return named;
  throw new HarnessError("HARNESS_USAGE", `--log-format ${JSON.stringify(value)} is neither a format string (it holds no %) nor a nickname the tree or the stock httpd.conf defines`, {
    hint: `Nicknames: ${knownNicknames(config).join(", ")}.`,
  });
}

/** What the log gave: its format, the lines, the requests, the bad lines by kind and the first of them. */
export function summary(logFile: string, input: AccessLogInput, limit: number): string {
  const { result } = input;
  const lines: string[] = [];
  const sample = input.sample === null ? "named with --log-format" : `read ${input.sample.read} of the first ${input.sample.lines} lines`;
  lines.push(`access log ${logFile}: format ${input.format.label}, ${sample}`);
  lines.push(
    `${result.lines} lines: ${result.replayed} replayable as ${result.entries.length} distinct requests, ${result.bad.count} bad${result.blank > 0 ? `, ${result.blank} blank` : ""}`,
  );
  if (result.bad.count > 0) {
    lines.push(`bad lines (${result.bad.byKind.map((k) => `${k.count} ${k.kind}`).join(", ")})${result.bad.count > result.bad.samples.length ? `, the first ${result.bad.samples.length}` : ""}:`);
    for (const bad of result.bad.samples) lines.push(`  ${logFile}:${bad.line}: ${bad.reason}: ${bad.text}`);
  }
  if (result.entries.length > limit) {
    const kept = result.entries.slice(0, limit).reduce((sum, entry) => sum + entry.count, 0);
    lines.push(`sending the ${limit} most frequent of ${result.entries.length} distinct requests (--limit ${limit}), standing for ${kept} of ${result.replayed} lines`);
  }
  return lines.join("\n");
}

function dryRun(scenarios: readonly Scenario[]): string {
  const lines: string[] = [];
  for (const scenario of scenarios) {
    lines.push(`${pc.bold(scenario.id)}: ${scenario.title}`);
    for (const client of scenario.clients) lines.push(`  client ${client.name}: ${client.address ?? "(engine's address)"}${client.domain ? ` named ${client.domain}` : ""}`);
    for (const request of scenario.requests) lines.push(`  ${request.name}`);
  }
  return lines.join("\n");
}

function wholeNumber(value: string | undefined, flag: string): number | null {
  if (value === undefined) return null;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new HarnessError("HARNESS_USAGE", `${flag} ${JSON.stringify(value)} is not a positive whole number.`);
  return parsed;
}
