// What the runner records of one side (one httpd under test). Observations are data: a reset connection or a
// config that will not load is recorded here, and diff/ decides what it means.
import type { ErrorLogRecord } from "../logs/error-log-record.ts";

export type Side = "baseline" | "candidate";
export const SIDES: readonly Side[] = ["baseline", "candidate"];

export interface ConfigTestObservation {
  ok: boolean;
  exitCode: number;
  /** The config test's output lines, verbatim. */
  messages: string[];
  records: ErrorLogRecord[];
}

export interface HttpResponseOutcome {
  kind: "response";
  status: number;
  httpVersion: string;
  /** In the order received, names as sent, duplicates kept. */
  headers: Array<[string, string]>;
  /** The body as text (latin1 for binary), cut at the runner's limit. */
  body: string;
  bodyBytes: number;
  bodySha256: string;
  /** For keep-alive checks: whether this response came on a connection an earlier one of the entry used. */
  connectionReused?: boolean;
  durationMs: number;
}

export interface TransportFailureOutcome {
  kind: "transport-error";
  /** ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, UND_ERR_HEADERS_TIMEOUT, TIMEOUT, HPE_INVALID_CONSTANT ... */
  code: string;
  message: string;
  durationMs: number;
}

export interface ExecOutcome {
  kind: "exec";
  exitCode: number;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface NotRunOutcome {
  kind: "not-run";
  reason: string;
}

export type RequestOutcome = HttpResponseOutcome | TransportFailureOutcome | ExecOutcome | NotRunOutcome;

export interface RequestObservation {
  name: string;
  client: string;
  /** The first answer. */
  outcome: RequestOutcome;
  /** The same request sent again to the same side; differences between the two are noise. */
  repeat: RequestOutcome | null;
  /** Error-log lines this request caused (attributed by the runner), parsed. */
  errorLog: ErrorLogRecord[];
  /** Error-log lines of the repeat, for noise learning. */
  repeatErrorLog: ErrorLogRecord[] | null;
}

export interface ServerIdentity {
  image: string;
  /** "2.4.68", from `httpd -v` in the image. */
  version: string;
  /** "2.2" or "2.4": selects the expectations, the module map and the log dialect. */
  family: "2.2" | "2.4";
  profile: string;
}

export interface SideObservation {
  side: Side;
  server: ServerIdentity;
  /** Logical modules the scenario asked for that this image does not have; never guessed. */
  missingModules: string[];
  /** Output of commands the scenario runs before the config test (htpasswd and friends). */
  prepare: ExecOutcome[];
  configTest: ConfigTestObservation;
  /** Whether httpd came up and answered; false when the config test failed or it exited at start. */
  started: boolean;
  /** Exit status and last lines when it did not start though the config test passed. */
  startFailure: { exitCode: number | null; logTail: string[] } | null;
  startupLog: ErrorLogRecord[];
  requests: RequestObservation[];
  /** Error-log lines after the last request (shutdown excluded). */
  trailingLog: ErrorLogRecord[];
  /** The rendered main config file, for the report and for reproducing. */
  renderedConfig: string;
}
