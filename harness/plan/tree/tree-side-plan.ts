// What the plan says about a configuration tree on one side, beyond a scenario's plan: where the tree is
// staged, which of its lines the harness changed to let this version start and why, what it made up for what
// the tree names but does not hold, and where the logs are followed. Plain data, shown in the plan and the
// report, so an operator sees every liberty the harness took with their config.
import type { LayoutId } from "../../conf/effective-config.ts";
import type { ConfProblem } from "../../conf/syntax-tree.ts";

/** One line of the tree changed (or one directive added) for this side. Line counts never change, so the
 * file:line of every message httpd prints about the staged tree is the operator's own. */
export interface Adaptation {
  kind: "module-path" | "module-renamed" | "module-absent" | "module-added" | "log-captured" | "probe-identity";
  /** Tree path and line of the directive changed; null for a module added on the command line (-C). */
  file: string | null;
  line: number | null;
  was: string | null;
  now: string;
  reason: string;
}

/** Something the tree refers to but does not contain, made by the harness. */
export interface Stub {
  kind: "directory" | "document-root" | "certificate" | "private-key" | "ca-certificate" | "crl" | "password-file" | "group-file" | "dbm-file" | "image-file" | "user" | "group" | "probe-object" | "variable";
  /** Absolute path inside the server, the user or group name, or NAME=value for a variable. */
  target: string;
  /** The directive that names it. */
  file: string;
  line: number;
  note: string;
}

export interface TreeSidePlan {
  /** The host path the operator gave. */
  origin: string;
  layout: LayoutId;
  /** Where the tree's root is staged inside the server. */
  mount: string;
  /** The main config file, absolute inside the server. */
  mainFile: string;
  /** The effective ServerRoot, where the scenario's own files go. */
  serverRoot: string;
  /** -D names given. */
  defines: string[];
  /** Every file httpd reads, in order, as tree paths. */
  files: string[];
  adaptations: Adaptation[];
  stubs: Stub[];
  /** What the model found wrong or doubtful in the tree on this version. */
  problems: ConfProblem[];
  /** Module ids the image's stock config loads around a fragment (empty for a full tree): what the two sides'
   * stock configs load differently is read from these (judge/triage.ts). */
  stockModules: string[];
  /** Module ids loaded on this side: the stock config's around a fragment, the ones the harness (or
   * `--target-modules`) gives with -C, and the tree's own LoadModule lines. */
  loadedModules: string[];
}
