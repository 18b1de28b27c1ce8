// What a run will do for one scenario, decided before any container exists: per side, the rendered config, the
// staged files, the prepare steps and the requests with their variables filled. Plain data (JSON-safe), so
// `plan` prints it and tests read it without an engine. Addresses are late-bound slots (late-binding.ts).
import type { LoopbackAddress } from "../scenario/reserved-clients.ts";
import type { BackendSpec, CertificateKind, RequestSpec, Scenario } from "../scenario/scenario.ts";
import type { Subject } from "../scenario/subject-name.ts";
import type { Side } from "./side.ts";
import type { FollowedLogs } from "./tree/log-capture.ts";
import type { TreeSidePlan } from "./tree/tree-side-plan.ts";
import type { SideWorld } from "./tree/side-world.ts";

/** A file the harness makes at run time (the run's certificate authority, the server's certificate). */
export type GeneratedFile = "ca-certificate" | "ca-crl" | "server-certificate" | "server-key";

export interface PlannedFile {
  /** Absolute path inside the server container. */
  path: string;
  mode?: number;
  /** The text, or what the harness generates into it at run time. */
  content: { text: string } | { base64: string } | { generated: GeneratedFile };
}

/** A request as it will be sent: the scenario's request with its variables filled, without what only the
 * judge reads (expectations) and with the Host header named for what it is. */
export type PlannedRequest = Omit<RequestSpec, "at" | "expect" | "guide" | "host"> & {
  /** The Host header and the TLS server name; null: the client's default. */
  hostHeader: string | null;
  /** For a local client (localhost, localhost6): the server's loopback address the request is sent to from
   * inside the server's network namespace, which is also the address the server sees. null: any other client. */
  loopback: LoopbackAddress | null;
};

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
  /** How httpd is started beyond the image's defaults: arguments given to both the config test and the start
   * (-d, -f, -D, -C) and the environment it starts with (a tree's envvars). */
  httpd: { args: string[]; environment: Record<string, string> };
  /** Shell run before `prepare`: what the harness makes for a tree (directories, users, copies). */
  setup: string[];
  /** Container ports published on 127.0.0.1; the first is the one readiness is checked on. */
  ports: number[];
  /** Where the logs are read; null: where the rendered config's first ErrorLog and CustomLog point. */
  logs: FollowedLogs | null;
  /** What running the operator's tree involved on this side; null for a scenario's own config. */
  tree: TreeSidePlan | null;
  /** The probe world as this side stages it (plan/tree/world-staging.ts); null without probes. */
  world: SideWorld | null;
  /** Variants of the side's tree reloaded into its server after its own requests (prove's mutants); empty
   * without. */
  variants: PlannedVariant[];
  /** A request comes from a local client: a tools container joins the server's network namespace (started at
   * its first such request), and the server container has IPv6 as a host has (::1 on lo, a link-local address
   * on eth0), so that `Listen 80` answers on ::1 too. */
  localClient: boolean;
  requests: PlannedRequest[];
}

/** A variant of a side's tree as a change to what the side stages: the files that differ, and the requests sent to
 * it once its server has reloaded. */
export interface PlannedVariant {
  id: string;
  /** Files it stages differently from the side (changed or new). */
  files: PlannedFile[];
  /** Files the side stages that it does not. */
  removed: string[];
  /** The requests (names) sent to it. */
  requests: string[];
  /** Why it cannot be reloaded into the side's server (it starts httpd otherwise, or sets up other things); null:
   * it can. */
  unreloadable: string | null;
}

export interface ScenarioPlan {
  scenario: { id: string; file: string; title: string };
  clients: string[];
  backends: BackendSpec[];
  /** The server certificate the harness issues for both sides, when the server listens with TLS. */
  serverCertificate: { kind: CertificateKind; subject: Subject | null } | null;
  /** What the whole scenario may take; null: the run's default. */
  timeLimitMs: number | null;
  sides: SidePlan[];
}

/** The scenario a plan was made from, for the stages after it (observe keeps it beside the plan). */
export type PlannedScenario = { scenario: Scenario; plan: ScenarioPlan };
