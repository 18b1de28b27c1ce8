// What the observe stage records of one side (one httpd under test). Observations are data: a reset connection
// or a config that will not load is recorded here, and judge/ decides what it means.
import type { TreeSidePlan } from "../plan/tree/tree-side-plan.ts";
import type { SideWorld } from "../plan/tree/world-staging.ts";
import type { HttpResponseOutcome, TransportFailureOutcome } from "../clients/outcome.ts";
import type { ErrorLogRecord } from "../logs/error-log-record.ts";

export type { HttpResponseOutcome, TransportFailureOutcome };

import type { Side } from "../plan/side.ts";
import type { HttpdVersion } from "../versions/httpd-version.ts";

export type { Side };

export interface ConfigTestObservation {
  ok: boolean;
  exitCode: number;
  /** The config test's output lines, verbatim. */
  messages: string[];
  records: ErrorLogRecord[];
  /** The line httpd named as wrong, when the config test says "Syntax error on line N of FILE". */
  syntaxError: { file: string; line: number; reason: string } | null;
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
  /** From `httpd -v` in the image; its family selects the expectations, the module map and the log dialect. */
  version: HttpdVersion;
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
  /** For an operator's configuration tree: how it was staged, what the harness changed and made up. */
  tree: TreeSidePlan | null;
  /** The probe world on this side (plan/tree/world-staging.ts) and what the server container found of it before
   * httpd started; null without probes. */
  world: ObservedWorld | null;
  /** The side's variants (prove's mutants), each loaded into its server after its own requests, in plan order. */
  variants: VariantObservation[];
}

/** One variant of a side's tree as its server answered it: whether it was loaded (its config test passed and httpd
 * came back), and its requests' answers (no error-log lines: a variant is told apart by its answers). */
export interface VariantObservation {
  id: string;
  reloaded: boolean;
  /** Why it was not loaded: its config test's complaint, another reason, or the server did not come back. */
  reason: string | null;
  configTest: { exitCode: number; output: string[] } | null;
  requests: RequestObservation[];
  durationMs: number;
}

/** The world as planned for the side, with what its setup found: planted objects missing from the container,
 * DBM stores htdbm could not fill. */
export interface ObservedWorld extends SideWorld {
  missing: string[];
  identityFailures: string[];
}
