// The typed value a scenario file becomes. Only scenario/ sees YAML; everything after load works on these types.
// Every node that a user may get wrong keeps its `at` position so that later failures point into the file.
import type { LayoutId } from "../conf/effective-config.ts";
import type { SourcePosition } from "../errors.ts";
import type { Family } from "../versions/httpd-version.ts";
import type { VersionRange } from "../versions/version-range.ts";
import type { CERTIFICATE_KINDS } from "./certificate-kinds.ts";
import type { Subject } from "./subject-name.ts";
import type { AuthScheme, ProbeWorld, RequestProbe } from "./probe-world.ts";

export type { Family };

/** A value that may differ per version: the same for both, or one per family. */
export type PerFamily<T> = { both: T } | { perFamily: Partial<Record<Family, T>> };

/** A text predicate: a plain string matches as a substring, "/re/flags" as a regular expression. */
export type TextMatcher =
  | { kind: "contains"; value: string }
  | { kind: "matches"; pattern: string; flags: string }
  | { kind: "equals"; value: string };

export interface ErrorLogMatcher {
  at: SourcePosition;
  code?: string;
  level?: string;
  module?: string;
  message?: TextMatcher;
}

export interface HeaderExpectation {
  name: string;
  /** absent: the header must not be there. */
  absent?: boolean;
  value?: TextMatcher;
}

export interface ResponseExpectation {
  at: SourcePosition;
  status?: number;
  headers: HeaderExpectation[];
  body?: TextMatcher;
  /** Lines that must be among the request's error-log lines. */
  errorLog: ErrorLogMatcher[];
  /** Lines that must not be among them. */
  noErrorLog: ErrorLogMatcher[];
  /** true: the request must cause no error-log line at all. */
  errorLogEmpty?: boolean;
  /** The request must fail at the transport level, with this code (ECONNRESET, TIMEOUT, ...). */
  transportError?: TextMatcher;
  connectionReused?: boolean;
  /** For exec requests. */
  exitCode?: number;
  stdout?: TextMatcher;
}

export interface ServerExpectation {
  at: SourcePosition;
  configTestOk?: boolean;
  configTestMessages: TextMatcher[];
  started?: boolean;
  startupLog: ErrorLogMatcher[];
  noStartupLog: ErrorLogMatcher[];
}

export type BaseConfig = "minimal" | "stock" | "none";

export interface FileSpec {
  /** Relative to the server root, e.g. "htdocs/e1/.htaccess" or "conf/extra/site.conf". */
  path: string;
  content: string;
  mode: number;
}

export interface ServerSpec {
  at: SourcePosition;
  /** minimal: the harness's generated base (modules + common part); stock: the image's own httpd.conf with the
   * site appended; none: `config` is the whole httpd.conf. */
  base: BaseConfig;
  /** Logical module names (see server/module-map.ts), turned into the right LoadModule lines per version. */
  modules: PerFamily<string[]>;
  /** Modules of the minimal base left out on purpose, to show what a version says without them. */
  omitModules: PerFamily<string[]>;
  /** Site configuration appended to the base, with {{...}} variables. */
  config: PerFamily<string>;
  files: FileSpec[];
  /** LogLevel of the minimal base. */
  logLevel: string;
  /** Shell commands run inside the server container before the config test (htpasswd, htdbm, ...); only
   * programs every httpd image has (prepare-tools.ts), checked at load time. */
  prepare: PerFamily<string[]>;
  /** Also listen on 443 with a harness-made certificate (for HTTPS to the server, client certs, SNI). */
  tls: ServerTls | null;
  /** A configuration tree of the operator's, instead of the inline `config`: per role, so that a hand port can
   * run on the candidate while the original runs on the baseline. */
  tree: { baseline: TreeRef; candidate: TreeRef } | null;
  /** For a tree scenario sending probes: the identities and objects both sides are given (probe-world.ts);
   * absent for a scenario file's own server and for smoke requests. */
  world?: ProbeWorld;
  /** The scenario file asks for the probe world of its trees (`config: { tree: ..., world: probes }`): made when
   * the trees are read (cli/tree-inputs.ts). */
  worldFromProbes?: boolean;
  /** Variants of the candidate's tree run on the candidate's server after its own requests, each reloaded into it
   * in turn (prove's mutants): the tree by its key in the loaded trees, and the requests (names) sent to it. */
  variants?: ServerVariant[];
}

export interface ServerVariant {
  id: string;
  /** The key of its tree among the loaded trees (not a path on the host). */
  tree: string;
  requests: string[];
}

/** A configuration tree named by `run --config` or a scenario's `config: { tree: ... }`. */
export interface TreeRef {
  at: SourcePosition;
  /** Absolute host path of the directory or file. */
  path: string;
  /** null: recognised from the tree. */
  layout: LayoutId | null;
  /** `-D` names (`SSL`, `NAME=value`). */
  defines: string[];
  /** The release line it was written for: a tree the harness carries to another line gets its module lines
   * adapted (plan/tree/adapt-modules.ts), a port written for that line does not. */
  writtenFor: Family;
  /** `run --target-modules` (candidate only): modules loaded around a fragment besides the candidate image's stock
   * config's. `successors`: the 2.4 successors of every module the baseline image's stock config loads; otherwise
   * the ids of a 2.4 installation's module list (official, debian, rhel, or a file's `httpd -M`). Absent: the
   * image's stock config alone. */
  targetModules?: { name: string; modules: "successors" | readonly string[] };
}

export interface ServerTls {
  certificate: CertificateKind;
  clientCa: boolean;
  crl: boolean;
  /** The server certificate's subject, most significant part first; null: CN=<the server's DNS name>. */
  subject: Subject | null;
}

export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];

export type BackendKind = "http-origin" | "https-origin" | "scgi-origin" | "forward-proxy-target";

export interface BackendSpec {
  at: SourcePosition;
  name: string;
  kind: BackendKind;
  certificate: CertificateKind;
  /** Files served by the origin, relative to its document root. */
  files: FileSpec[];
}

export interface ClientSpec {
  at: SourcePosition;
  name: string;
  /** A fixed IPv4 or IPv6 address for the client container, on a network the harness makes whose subnet holds
   * it (probes for `Allow from 10.1.2.0/24`, `Require ip 2001:db8::/32`); null: the engine's choice. Canonical
   * text (IPv6 lower case, zeros compressed). */
  address: string | null;
  /** The name the server must find for the client by reverse and forward DNS: a full name ("www.example.com")
   * or a domain it ends in (".example.com"), for `Allow from .example.com` and `Require host`; null: the
   * name Docker gives (`<container>.<network>`). Lower case. */
  domain: string | null;
}

export interface BasicAuth {
  user: string;
  password: string;
}

/** Credentials a request sends: Basic unless `scheme` says Digest (the client answers the server's challenge). */
export interface RequestAuth extends BasicAuth {
  scheme?: AuthScheme;
}

export type RequestMode = "http" | "raw" | "exec";

export interface RequestSpec {
  at: SourcePosition;
  name: string;
  /** "host" (through the published port on 127.0.0.1) or the name of a scenario client container. */
  client: string;
  mode: RequestMode;
  method: string;
  path: string;
  /** Sets the Host header (virtual hosts) and the SNI name for HTTPS. */
  host: string | null;
  /** The server's port the request goes to; null: 80, or 443 with tls (what scenario files use). Requests
   * made for a config tree name the port its virtual host listens on. */
  port: number | null;
  headers: Array<[string, string]>;
  body: string | null;
  auth: RequestAuth | null;
  tls: boolean;
  /** HTTPS with a client certificate of this kind, signed by the harness CA. */
  clientCertificate: "valid" | "revoked" | null;
  httpVersion: "1.1" | "1.0";
  /** Raw mode: the bytes sent, after {{}} interpolation and \r\n escapes. */
  raw: string | null;
  /** Raw mode: send the raw bytes in chunks this many ms apart (slow clients). */
  trickleMs: number | null;
  /** Exec mode: a shell command run inside the server container. */
  exec: string | null;
  /** Send this many requests on one connection (keep-alive checks); the last answer is recorded. */
  keepAliveRequests: number;
  /** Send the request a second time to learn noise; off for stateful requests (caches). */
  repeat: boolean;
  timeoutMs: number;
  expect: ByFamily<ResponseExpectation>;
  guide: ByFamily<ResponseExpectation>;
  /** A probe's: the cell it stands for and what its path names in the probe world, so the judge can tell what
   * came back and a report can place it in the cell matrix. */
  probe?: RequestProbe;
}

export interface IgnoreRule {
  at: SourcePosition;
  /** "header:ETag", "body", "errorLog", "status". */
  field: string;
  reason: string;
}

export interface Scenario {
  /** The file it came from, as given on the command line or found in a directory. */
  file: string;
  at: SourcePosition;
  id: string;
  title: string;
  seed: string[];
  /** What the upgrade guide claims, in words; `guide` blocks hold it as checkable expectations. */
  guideClaim: string | null;
  /** Where a real server parts from the guide, in words (shown in the catalogue summary). */
  guideNotes: string[];
  server: ServerSpec;
  backends: BackendSpec[];
  clients: ClientSpec[];
  requests: RequestSpec[];
  expect: ByFamily<ServerExpectation>;
  guide: ByFamily<ServerExpectation>;
  /** What the whole scenario may take; null: the run's default. */
  timeLimitMs: number | null;
  ignore: IgnoreRule[];
  /** Changes the guide predicts for this scenario, by field ("status", "header:ETag", "errorLog",
   * "configTest", "body"), each tied to seed rows. */
  predicted: Array<{ at: SourcePosition; field: string; request: string | null; seed: string[] }>;
}

/** What a scenario states for one release line: one statement, or one per version range inside the line
 * (`"2.4": { ">=2.4.63": {...}, default: {...} }`) where patch levels behave differently. */
export interface Versioned<T> {
  /** Tried in order; the first range holding the version wins. */
  ranges: Array<{ range: VersionRange; value: T }>;
  /** For versions no range holds (or the only statement). */
  otherwise: T | undefined;
}

export type ByFamily<T> = Partial<Record<Family, Versioned<T>>>;

export function forFamily<T>(value: PerFamily<T>, family: Family): T | undefined {
  return "both" in value ? value.both : value.perFamily[family];
}
