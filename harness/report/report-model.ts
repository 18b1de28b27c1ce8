// The JSON report: the contract other tools read (design.md, "Contracts"). Additive changes keep
// schemaVersion's major number; anything else bumps it.
import type { Difference, Verdict } from "../diff/difference.ts";

export const REPORT_SCHEMA_VERSION = "1.0";

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
  headers: Array<[string, string]>;
  body: string | null;
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
  failures: string[];
  /** Why expectations were not checked (no image for this side). */
  skipped: string | null;
}

export interface ReportConfigTest {
  ok: boolean;
  exitCode: number;
  messages: string[];
}

export interface ReportSideServer {
  image: string;
  version: string;
  family: "2.2" | "2.4";
  started: boolean;
  missingModules: string[];
  startupLog: ReportErrorLogLine[];
  renderedConfig: string;
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
  error: { code: string; message: string } | null;
  expectations: { baseline: ReportExpectationResult; candidate: ReportExpectationResult };
  guide: { claim: string | null; holds: boolean | null; notes: string[]; failures: string[] };
  configTest: { baseline: ReportConfigTest | null; candidate: ReportConfigTest | null };
  servers: { baseline: ReportSideServer | null; candidate: ReportSideServer | null };
  differences: Difference[];
  requests: ReportRequest[];
}

export interface ReportRowSummary {
  /** Seed rows the run's scenarios exercise. */
  covered: number;
  /** Rows none of whose scenarios found the guide wrong. */
  guideHolds: number;
  /** Rows where at least one scenario saw the versions differ. */
  differ: number;
  /** Rows where a scenario found the real servers parting from the guide, with the first such note. */
  guideWrong: Array<{ row: string; scenarios: string[]; note: string }>;
}

export interface ReportSummary {
  scenarios: number;
  byVerdict: Record<Verdict, number>;
  expectationsMet: { baseline: number; candidate: number };
  expectationsFailed: { baseline: number; candidate: number };
  /** Scenarios where the real servers part from the upgrade guide. */
  guideWrong: Array<{ id: string; seed: string[]; notes: string[] }>;
  guideHolds: number;
  /** The same, by seed row of the guide: what an operator reads first. */
  rows: ReportRowSummary;
  regressions: number;
  durationMs: number;
}

export interface Report {
  schemaVersion: string;
  tool: { name: "httpd-upgrade-harness"; version: string };
  startedAt: string;
  baseline: { image: string; version: string | null; missing: boolean };
  candidate: { image: string; version: string | null };
  scenarios: ReportScenario[];
  summary: ReportSummary;
}
