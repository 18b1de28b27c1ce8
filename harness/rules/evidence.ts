// What a rule's recognise face looks at: one difference a run found between the baseline and a candidate, with
// the error-log records around it and the request it was seen on. Built by the judge from its observations, so
// rules read plain data and never the observe stage's types beyond log records.
import type { ErrorLogRecord } from "../logs/error-log-record.ts";
import type { SectionPlace } from "../scenario/probe-world.ts";
import type { Family } from "../versions/httpd-version.ts";
import type { LintFinding } from "./finding.ts";

export interface EvidenceRequest {
  name: string;
  method: string;
  path: string;
  host: string | null;
  client: string;
  /** The user name sent with credentials (Basic or Digest); null without. */
  user: string | null;
  /** A probe's: the per-directory sections of the tree its path meets (the probe's region); absent when not known
   * (a scenario file's own request). */
  sections?: readonly SectionPlace[];
}

export interface Evidence {
  /** "configTest", "started", "startupLog", "status", "outcome", "header:etag", "body", "errorLog", ... */
  field: string;
  /** The field's value on each side, as the report shows it; null where the side has none. */
  baseline: string | null;
  candidate: string | null;
  /** The request it was seen on; null for the server (config test, start-up). */
  request: EvidenceRequest | null;
  status: { baseline: number | null; candidate: number | null };
  /** The error-log records of each side: the request's own, or for the server the config test's and the
   * start-up log's. */
  log: { baseline: readonly ErrorLogRecord[]; candidate: readonly ErrorLogRecord[] };
  families: { baseline: Family; candidate: Family };
  /** Lint's findings on the configuration the run used, when it ran a tree (empty otherwise): a recogniser can
   * tie its claim to the lines of its construct. */
  findings: readonly LintFinding[];
}

/** The records of a side carrying one of `codes` (the event code, which 2.2 lines get from the message map). */
export function recordsWithCode(records: readonly ErrorLogRecord[], ...codes: string[]): ErrorLogRecord[] {
  return records.filter((record) => (record.event !== null && codes.includes(record.event)) || (record.code !== null && codes.includes(record.code)));
}

/** Whether the candidate's log has a line matching `pattern` (its message, or the raw line). */
export function candidateLogs(evidence: Evidence, pattern: RegExp): ErrorLogRecord[] {
  return evidence.log.candidate.filter((record) => pattern.test(record.message) || pattern.test(record.raw));
}
