// The effective ServerRoot, and relative paths made absolute against it as httpd does (ap_server_root_relative,
// server/config.c: apr_filepath_merge(ap_server_root, file)). Which ServerRoot applies depends on when httpd
// resolves the path: directives that resolve while the config is read (DocumentRoot, LoadModule, AuthUserFile
// via ap_set_file_slot, Mutex's directory) use the ServerRoot set so far; paths opened after reading (ErrorLog,
// CustomLog, PidFile, LockFile) and Alias targets (resolved per request in mod_alias) use the final one.
import { posix } from "node:path";
import type { EffectiveConfig } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { directivesNamed, inServerContext } from "./walk-config.ts";

export interface ServerRoot {
  /** Absolute path inside the server. */
  path: string;
  /** The ServerRoot directive that set it, or null for the layout's compiled-in root. */
  span: Span | null;
}

/** When a path is resolved: while its directive is read, or once the whole config is read. */
export type ResolveTime = { readAt: number } | "final";

/** `file` made absolute against `root` (apr_filepath_merge: an absolute file stays, `..` is folded). */
export function serverRootRelative(file: string, root: string): string {
  // Anchored at "/": never the harness's own working directory, so answers do not depend on where it runs.
  const merged = posix.resolve("/", root, file);
  return file.endsWith("/") && merged !== "/" ? `${merged}/` : merged;
}

function serverRootDirectives(config: EffectiveConfig) {
  // ServerRoot is GLOBAL_ONLY: inside a section httpd refuses it, so only the server context counts.
  return directivesNamed(config, "serverroot").filter(
    (entry) => inServerContext(entry.sections) && entry.sections.length === 0 && entry.directive.args[0] !== undefined,
  );
}

/** The ServerRoot in effect at the end of reading (or just before the directive at `time.readAt`). httpd takes a
 * relative ServerRoot against its working directory (config.c set_server_root merges with no root), which is
 * not known offline: it is taken against "/". */
export function effectiveServerRoot(config: EffectiveConfig, time: ResolveTime = "final"): ServerRoot {
  let root: ServerRoot = { path: posix.resolve("/", config.serverRoot), span: null };
  for (const entry of serverRootDirectives(config)) {
    if (time !== "final" && entry.index >= time.readAt) break;
    root = { path: serverRootRelative(entry.directive.args[0]!, "/").replace(/(.)\/$/, "$1"), span: entry.directive.span };
  }
  return root;
}

/** `file` resolved as httpd resolves it at `time`. */
export function resolveServerPath(config: EffectiveConfig, file: string, time: ResolveTime): string {
  return serverRootRelative(file, effectiveServerRoot(config, time).path);
}
