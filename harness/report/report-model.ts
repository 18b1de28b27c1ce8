// The JSON report: the contract other tools read (design.md, "Contracts"), documented by
// schema/report.schema.json. Additive changes keep schemaVersion's major number; anything else bumps it.
// 2.0: sides as a list, structured expectation failures, full-body length and digest, start failures,
// trailing log and the config test's syntax error. 2.2: findings, the differences told by cause (per scenario
// and across the run), and what the ignore file silenced, by rule. 2.3 (additive): `fleet`, a fleet run's configs
// with their verdicts and causes, its manifest and the engines that ran it; which engine ran each scenario; and a
// version matrix: the run's candidates with label, axis and verdict counts (`candidates`), and per scenario each
// candidate side by side (`matrix`: its own verdict, expectations, config test and per request its status and
// differences; null for a one-candidate run). Readers of 2.2 ignore them and read the baseline and the first
// candidate as before. 2.4 (additive): a probe run's cells (`probes`: each probe request's cell with its class and
// both sides' outcome and witnesses, and the count per class), the causes `access-widened`, `source-exposed` and
// `access-narrowed` where no rule claims an access or handler change, and the stubs and adaptations of the probe
// world (`probe-object`, `dbm-file`, `probe-identity`).
import type { Difference, Verdict } from "../judge/difference.ts";
import type { FindingSeverity, IgnoredDifferences, RunFinding } from "../judge/run-finding.ts";
import type { FailureKind } from "../judge/expectation-failure.ts";
import type { RunSummary } from "../judge/judge-run.ts";
import type { RunCellClass } from "../judge/outcome/probe-cells.ts";
import type { SideWitness } from "../judge/outcome/probe-outcome.ts";

export const REPORT_SCHEMA_VERSION = "2.4" as const;

/** A cause and what it explains (judge/run-finding.ts): rule, severity, security flag, config lines, requests
 * affected, evidence, and the per-request differences it folds. */
export type ReportFinding = RunFinding;
export type ReportIgnored = IgnoredDifferences;

/** One unmet expectation: what was looked at, wanted and seen, and where the scenario states it. */
export interface ReportFailure {
  kind: FailureKind;
  request: string | null;
  field: string;
  expected: string;
  actual: string;
  /** "file:line:column" of the scenario line, or null. */
  at: string | null;
  /** The same in one sentence. */
  message: string;
}

export interface ReportErrorLogLine {
  code: string | null;
  level: string | null;
  module: string | null;
  message: string;
  event: string | null;
  raw: string;
}

export interface ReportSideRequest {
  outcome: "response" | "transport-error" | "exec" | "not-run";
  status: number | null;
  /** "1.1" or "1.0", as the response's status line said. */
  httpVersion: string | null;
  headers: Array<[string, string]>;
  /** The start of the body as text (at most 4 KiB here). */
  body: string | null;
  /** The whole body's length and SHA-256: what bodies are compared by. */
  bodyBytes: number | null;
  bodySha256: string | null;
  transportError: string | null;
  exec: { exitCode: number; stdout: string; stderr: string } | null;
  errorLog: ReportErrorLogLine[];
}

export interface ReportRequest {
  name: string;
  client: string;
  /** What was sent, as a person reads it: "GET /server-status", "raw: GET / HTTP/1.0", "exec: htpasswd -nb u p". */
  sent: string;
  baseline: ReportSideRequest | null;
  candidate: ReportSideRequest | null;
  differences: Difference[];
}

export interface ReportExpectationResult {
  ok: boolean;
  /** Whether the scenario states expectations for this side's version at all. */
  stated: boolean;
  failures: ReportFailure[];
  /** Why expectations were not checked (no image for this side). */
  skipped: string | null;
}

export interface ReportConfigTest {
  ok: boolean;
  exitCode: number;
  messages: string[];
  /** The line httpd named as wrong ("Syntax error on line N of FILE"), or null. */
  syntaxError: { file: string; line: number; reason: string } | null;
}

export interface ReportSideServer {
  image: string;
  version: string;
  family: string;
  started: boolean;
  /** Exit status and last lines when the config test passed but httpd did not come up. */
  startFailure: { exitCode: number | null; logTail: string[] } | null;
  missingModules: string[];
  startupLog: ReportErrorLogLine[];
  /** Error-log lines after the last request. */
  trailingLog: ReportErrorLogLine[];
  renderedConfig: string;
  /** Set when the scenario ran an operator's configuration tree (schema 2.1). */
  tree: ReportTree | null;
}

/** How a configuration tree ran on one side: where it was staged, the lines the harness changed to let this
 * version start (each with its reason), what it made up for what the tree lacks, and what the model found. */
export interface ReportTree {
  origin: string;
  layout: string;
  mount: string;
  mainFile: string;
  defines: string[];
  files: string[];
  adaptations: Array<{ kind: string; file: string | null; line: number | null; was: string | null; now: string; reason: string }>;
  stubs: Array<{ kind: string; target: string; file: string; line: number; note: string }>;
  problems: Array<{ severity: string; file: string; line: number; column: number; message: string; hint: string | null }>;
}

export interface ReportScenario {
  id: string;
  title: string;
  file: string;
  seed: string[];
  verdict: Verdict;
  /** "both" normally; "candidate-only" when the baseline image is missing (--allow-missing-baseline). */
  coverage: "both" | "candidate-only";
  durationMs: number;
  /** The engine that ran it, as DOCKER_HOST names it, in a run over several (`--engines`); else null (2.3). */
  engine: string | null;
  error: { code: string; message: string } | null;
  /** The scenario's differences by cause, worst first (schema 2.2). */
  findings: ReportFinding[];
  /** What the ignore file silenced: listed here and under their requests as noise, counted by rule (2.2). */
  ignored: ReportIgnored;
  expectations: { baseline: ReportExpectationResult; candidate: ReportExpectationResult };
  guide: { claim: string | null; holds: boolean | null; notes: string[]; failures: Array<ReportFailure & { side: string; version: string }> };
  configTest: { baseline: ReportConfigTest | null; candidate: ReportConfigTest | null };
  servers: { baseline: ReportSideServer | null; candidate: ReportSideServer | null };
  differences: Difference[];
  requests: ReportRequest[];
  /** Every candidate side by side, in the run's order (schema 2.3); null for a one-candidate run, whose one
   * candidate is `candidate` above. */
  matrix: ReportMatrixEntry[] | null;
  /** A probe run's cells against the first candidate (schema 2.4); null when the scenario sends no probes. */
  probes: ReportProbes | null;
}

/** The cells of a probe run (schema 2.4): each probe request's cell, as prove classes them, with its class and
 * what each side did and what shows it. `prove --report` gives the proof's own cells here (unprobed ones too). */
export interface ReportProbes {
  /** Cells per class: equal (witnessed on both sides), vacuous, widened, source-exposed, narrowed, changed,
   * accepted (every difference the guide predicts), unprobed (no probe could stand for it). */
  classes: Record<ReportCellClass, number>;
  /** Cells counted as equivalent: equal and witnessed on both sides (and, for a proof with power, no surviving
   * mutant would have changed them). */
  proven: number;
  cells: ReportProbeCell[];
}

export type ReportCellClass = RunCellClass | "unprobed";

export interface ReportProbeCell {
  /** The request that probed it; null when no probe could. */
  request: string | null;
  cell: string;
  vhost: string;
  region: string;
  client: string;
  credentials: string;
  user: string | null;
  method: string;
  /** The path probed; null when no probe could. */
  path: string | null;
  class: ReportCellClass;
  reason: string | null;
  proven: boolean;
  baseline: SideWitness | null;
  candidate: SideWitness | null;
}

/** One candidate of a version matrix in one scenario, against the baseline (schema 2.3). */
export interface ReportMatrixEntry {
  /** The side id: "candidate", "candidate-2", ... */
  side: string;
  label: string;
  image: string;
  version: string | null;
  /** This candidate's own verdict against the baseline; the scenario's `verdict` is the worst of them. */
  verdict: Verdict;
  expectations: ReportExpectationResult;
  configTest: ReportConfigTest | null;
  /** Server-level differences from the baseline (config test, start, startup log). */
  differences: Difference[];
  requests: ReportMatrixRequest[];
}

/** One request on one candidate of a matrix: what it answered and how that differs from the baseline. */
export interface ReportMatrixRequest {
  name: string;
  /** null: the candidate did not observe it. */
  outcome: ReportSideRequest["outcome"] | null;
  status: number | null;
  differences: Difference[];
}

/** A candidate of the run (schema 2.3): what the matrix calls it, its axis (an upstream release or a
 * distribution's build; null when neither the command line nor the image's layout says), and its scenarios by
 * its own verdict. */
export interface ReportCandidate {
  side: string;
  label: string;
  axis: "upstream" | "distribution" | null;
  image: string;
  version: string | null;
  byVerdict: Record<Verdict, number>;
}

export type ReportRowSummary = RunSummary["rows"];

export interface ReportSummary extends Omit<RunSummary, "expectationsMet" | "expectationsFailed"> {
  expectationsMet: { baseline: number; candidate: number };
  expectationsFailed: { baseline: number; candidate: number };
}

/** A side of the run: "baseline", "candidate" (further candidates: "candidate-2", ...). */
export interface ReportSide {
  id: string;
  role: "baseline" | "candidate";
  image: string;
  version: string | null;
  missing: boolean;
}

/** One config of a fleet run: what it was run as (its scenario, by id), and the verdict and causes in short. */
export interface ReportFleetConfig {
  /** The scenario id of its details in `scenarios`. */
  id: string;
  /** The path as given (relative to the working directory when inside it). */
  path: string;
  verdict: Verdict;
  /** Its causes, worst first. */
  findings: Array<{ rule: string; severity: FindingSeverity; security: boolean; gating: boolean }>;
  /** The config it is the same tree as, whose run it reports; null when it ran itself. */
  sameAs: string | null;
  /** The engine that ran it, when the run used several. */
  engine: string | null;
  durationMs: number;
  /** Why it did not run (a tree that cannot be read, the engine), or null. */
  error: string | null;
}

/** A fleet run (schema 2.3): its inputs and configs; the engines are the run's (`engines`). How many shards ran it
 * is not said: merged shards give the very report one run gives. The causes across the fleet are
 * `summary.findings`, whose `scenarios` are config ids. */
export interface ReportFleet {
  /** The hash of the inputs (configs, options) every shard and blob of this run carries. */
  inputsHash: string;
  configs: ReportFleetConfig[];
  /** Configs that are the same tree as another, run once and reported for each. */
  duplicates: number;
  /** What discovery found under the fleet's directories and did not take, with why (2.4). */
  passed: Array<{ label: string; reason: string }>;
}

/** An engine of a run spread over several (`--engines`): what it ran, and why the run stopped using it (2.3). */
export interface ReportEngine {
  /** As DOCKER_HOST names it. */
  name: string;
  /** Scenarios it ran at once at most. */
  concurrency: number;
  /** Scenarios it ran to the end (each scenario's `engine` names it). */
  scenarios: number;
  /** Why the run stopped using it (it stopped answering; its scenario went to another engine), or null. */
  lost: string | null;
}

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  tool: { name: "httpd-upgrade-harness"; version: string };
  startedAt: string;
  sides: ReportSide[];
  /** The baseline and the first candidate, as in schema 1 (the contract of design.md). */
  baseline: { image: string; version: string | null; missing: boolean };
  candidate: { image: string; version: string | null };
  /** Every candidate, in order, with its label and axis (schema 2.3; one entry for a one-candidate run). */
  candidates: ReportCandidate[];
  /** The engines of a run over several (`--engines`), in the order given; null for a run on one engine (2.3). */
  engines: ReportEngine[] | null;
  scenarios: ReportScenario[];
  summary: ReportSummary;
  /** Set by `fleet` and `merge-reports` (schema 2.3); null for other runs. */
  fleet: ReportFleet | null;
}
