// What a run will do for one scenario, decided before any container exists: per side, the rendered config, the
// staged files, the prepare steps and the requests with their variables filled. Plain data (JSON-safe), so
// `plan` prints it and tests read it without an engine. Addresses are late-bound slots (late-binding.ts).
import type { BackendSpec, BasicAuth, CertificateKind, RequestMode, Scenario } from "../scenario/scenario.ts";
import type { Subject } from "../scenario/subject-name.ts";
import type { Side } from "./side.ts";

/** A file the harness makes at run time (the run's certificate authority, the server's certificate). */
export type GeneratedFile = "ca-certificate" | "ca-crl" | "server-certificate" | "server-key";

export interface PlannedFile {
  /** Absolute path inside the server container. */
  path: string;
  mode?: number;
  /** The text, or what the harness generates into it at run time. */
  content: { text: string } | { generated: GeneratedFile };
}

export interface PlannedRequest {
  name: string;
  /** "host" (the published port on 127.0.0.1) or a scenario client container. */
  client: string;
  mode: RequestMode;
  method: string;
  path: string;
  hostHeader: string | null;
  headers: Array<[string, string]>;
  body: string | null;
  auth: BasicAuth | null;
  tls: boolean;
  clientCertificate: "valid" | "revoked" | null;
  httpVersion: "1.1" | "1.0";
  /** Raw mode: the bytes to send, as latin1 text. */
  raw: string | null;
  trickleMs: number | null;
  /** Exec mode: a shell command run in the server container. */
  exec: string | null;
  keepAliveRequests: number;
  /** Sent a second time to learn noise (and the run learns noise). */
  repeat: boolean;
  timeoutMs: number;
}

/** Where the facts about the side's image come from: the image now, the last inspection's cache, or the
 * official layout's defaults for a version (no engine). */
export type FactsSource = "inspected" | "cache" | "defaults";

export interface SidePlan {
  side: Side;
  server: {
    image: string;
    /** "2.4.62" */
    version: string;
    family: string;
    profile: string;
    facts: FactsSource;
  };
  /** The main config file and its text. */
  config: { path: string; text: string };
  files: PlannedFile[];
  /** Shell commands run in the server container before the config test. */
  prepare: string[];
  /** Modules the scenario asks for that this image lacks (never guessed). */
  missingModules: string[];
  listenTls: boolean;
  requests: PlannedRequest[];
}

export interface ScenarioPlan {
  scenario: { id: string; file: string; title: string };
  clients: string[];
  backends: BackendSpec[];
  /** The server certificate the harness issues for both sides, when the server listens with TLS. */
  serverCertificate: { kind: CertificateKind; subject: Subject | null } | null;
  sides: SidePlan[];
}

/** The scenario a plan was made from, for the stages after it (observe keeps it beside the plan). */
export type PlannedScenario = { scenario: Scenario; plan: ScenarioPlan };
