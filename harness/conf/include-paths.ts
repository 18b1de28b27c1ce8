// Where an `Include` argument leads inside a SourceTree, as httpd walks the file system for it: relative to
// ServerRoot (core.c include_config → ap_server_root_relative), wildcards matched per path component with
// APR_FNM_PERIOD, matches sorted by strcmp, a directory read recursively in sorted order, every entry of it
// (dot files too). The version's rules (which components may hold wildcards, whether no match is fatal) come
// from conf-traits. Sources: 2.4.62 server/config.c ap_process_fnmatch_configs and server/util.c
// ap_dir_nofnmatch/ap_dir_fnmatch; 2.2.34 server/config.c ap_process_resource_config and
// process_resource_config_nofnmatch.
import { posix } from "node:path";
import type { ConfTraits } from "./conf-traits.ts";
import { hasWildcard, matchComponent } from "./glob.ts";
import type { SourceTree } from "./source-tree.ts";

/** AP_MAX_INCLUDE_DIR_DEPTH (2.2) / AP_MAX_FNMATCH_DIR_DEPTH (2.4). */
const MAX_DIRECTORY_DEPTH = 128;
/** Symbolic link hops followed before giving up (as ELOOP would). */
const MAX_LINK_HOPS = 40;

/** A link whose recorded target is outside the tree: load-tree stores such targets as written, absolute or
 * starting with `..`; targets inside the tree are stored normalised and relative. */
export function linkLeadsOut(target: string): boolean {
  return target.startsWith("/") || target === ".." || target.startsWith("../");
}

export type TreeEntry =
  | { kind: "file"; path: string }
  | { kind: "directory"; path: string }
  | { kind: "missing"; path: string }
  /** `via` names what led out: the server path itself, or a link and its target. */
  | { kind: "outside"; via: string };

export interface TreeIndex {
  source: SourceTree;
  /** Directory (tree path, "" the root) → names of its entries: files, directories and links. */
  entries: ReadonlyMap<string, readonly string[]>;
}

export function indexTree(source: SourceTree): TreeIndex {
  const entries = new Map<string, Set<string>>();
  const add = (path: string): void => {
    if (path === "") return;
    const parent = posix.dirname(path) === "." ? "" : posix.dirname(path);
    const set = entries.get(parent) ?? new Set<string>();
    set.add(posix.basename(path));
    entries.set(parent, set);
    add(parent);
  };
  for (const path of source.files.keys()) add(path);
  for (const path of source.directories) add(path);
  for (const path of source.links.keys()) add(path);
  return { source, entries: new Map([...entries].map(([dir, names]) => [dir, [...names].sort(byBytes)])) };
}

/** strcmp order, as httpd's fname_alphasort. */
export function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** A server path (absolute, normalised) as a tree path, or null when it is not under the mount. */
export function treePathOf(mount: string, serverPath: string): string | null {
  const path = posix.normalize(serverPath);
  const root = mount === "/" ? "/" : posix.normalize(mount).replace(/\/$/, "");
  if (root === "/") return path.replace(/^\/+/, "").replace(/\/$/, "");
  if (path === root || path === `${root}/`) return "";
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1).replace(/\/$/, "") : null;
}

/** ap_server_root_relative: an absolute path stays, a relative one is joined to ServerRoot; then normalised as
 * apr_filepath_merge does (`.`, `..`, `//`). */
export function serverRootRelative(serverRoot: string, path: string): string {
  return posix.normalize(path.startsWith("/") ? path : posix.join(serverRoot, path));
}

/** What a tree path is, following links inside the tree. */
export function statTreePath(index: TreeIndex, path: string): TreeEntry {
  const { files, directories, links } = index.source;
  let parts = path.split("/").filter((part) => part !== "" && part !== ".");
  let hops = 0;
  let current = "";
  while (parts.length > 0) {
    const part = parts.shift()!;
    if (part === "..") {
      if (current === "") return { kind: "outside", via: path };
      current = posix.dirname(current) === "." ? "" : posix.dirname(current);
      continue;
    }
    const next = current === "" ? part : `${current}/${part}`;
    const target = links.get(next);
    if (target === undefined) {
      current = next;
      continue;
    }
    if (linkLeadsOut(target)) return { kind: "outside", via: `${next} -> ${target}` };
    if (++hops > MAX_LINK_HOPS) return { kind: "missing", path };
    // Resolve the target from the root again, so links within it are followed too.
    parts = [...target.split("/").filter((p) => p !== "" && p !== "."), ...parts];
    current = "";
  }
  if (files.has(current)) return { kind: "file", path: current };
  if (current === "" || directories.has(current)) return { kind: "directory", path: current };
  return { kind: "missing", path: current };
}

/** A server path as a tree entry: outside when not under the mount. */
export function statServerPath(index: TreeIndex, serverPath: string): TreeEntry {
  const treePath = treePathOf(index.source.mount, serverPath);
  if (treePath === null) return { kind: "outside", via: serverPath };
  return statTreePath(index, treePath);
}

/** One step of reading an Include: a file to read (its tree path, links resolved) or what went wrong. */
export type IncludeStep =
  | { kind: "file"; path: string; serverPath: string }
  | { kind: "problem"; severity: "error" | "refusal"; message: string; hint?: string };

export interface IncludeRequest {
  index: TreeIndex;
  traits: ConfTraits;
  serverRoot: string;
  /** The argument as written (after ${VAR}). */
  argument: string;
  optional: boolean;
  /** The directive's name, for messages ("Include", "IncludeOptional"). */
  directive: string;
}

/** The files an Include reads, in order; a problem ends the list, as httpd stops at the first failure. */
export function expandInclude(request: IncludeRequest): IncludeStep[] {
  const { index, traits, optional, directive } = request;
  const full = serverRootRelative(request.serverRoot, request.argument);
  const steps: IncludeStep[] = [];
  const prefix = `${directive}: `;
  let failed = false;
  const fail = (severity: "error" | "refusal", message: string, hint?: string): void => {
    failed = true;
    steps.push(hint === undefined ? { kind: "problem", severity, message } : { kind: "problem", severity, message, hint });
  };
  const outside = (serverPath: string, via: string): void =>
    fail(
      "error",
      `${prefix}${serverPath} leads out of the configuration tree (${via === serverPath ? `not under ${index.source.mount}` : `link ${via}`}); it was not read`,
      "give the harness a directory holding every file the configuration includes, or the file-system form (etc/apache2/...)",
    );

  // A file or directory named without wildcards: ap_dir_nofnmatch (2.4) / process_resource_config_nofnmatch (2.2).
  const noWildcard = (serverPath: string, depth: number): void => {
    if (failed) return;
    const entry = statServerPath(index, serverPath);
    if (entry.kind === "outside") return outside(serverPath, entry.via);
    if (entry.kind === "directory") {
      if (depth + 1 > MAX_DIRECTORY_DEPTH) {
        return fail("error", `${prefix}Directory '${serverPath}' exceeds the maximum include directory nesting level of ${MAX_DIRECTORY_DEPTH}. You have probably a recursion somewhere.`);
      }
      for (const name of index.entries.get(entry.path) ?? []) noWildcard(posix.join(serverPath, name), depth + 1);
      return;
    }
    if (entry.kind === "missing") {
      if (optional) return;
      return fail("error", `Could not open configuration file ${serverPath}: No such file or directory`, `create ${serverPath} in the tree, or remove the ${directive} line`);
    }
    steps.push({ kind: "file", path: entry.path, serverPath });
  };

  if (!hasWildcard(full)) {
    noWildcard(full, 0);
    return steps;
  }

  if (traits.includeWildcards === "last-component") {
    const directory = posix.dirname(full);
    const pattern = posix.basename(full);
    if (hasWildcard(directory)) {
      fail("refusal", `Wildcard patterns not allowed in Include ${full}`, "this version takes wildcards in the last path component only");
      return steps;
    }
    const entry = statServerPath(index, directory);
    if (entry.kind === "outside") {
      outside(directory, entry.via);
      return steps;
    }
    if (entry.kind !== "directory") {
      fail("refusal", `Include directory '${directory}' not found`);
      return steps;
    }
    const matches = (index.entries.get(entry.path) ?? []).filter((name) => name !== "." && name !== ".." && matchComponent(pattern, name));
    if (matches.length === 0 && traits.includeWildcardWithoutMatch === "refuse" && !optional) {
      fail("refusal", `${prefix}No matches for the wildcard '${pattern}' in '${directory}', failing`, `use IncludeOptional if the directory may be empty`);
    }
    for (const name of matches) noWildcard(posix.join(directory, name), 0);
    return steps;
  }

  // 2.4: walk component by component from the root (ap_dir_fnmatch).
  const walk = (path: string, rest: string[]): void => {
    if (failed) return;
    const [component, ...after] = rest;
    if (component === undefined) return noWildcard(path, 0);
    if (!hasWildcard(component)) {
      const next = posix.join(path, component);
      return after.length === 0 ? noWildcard(next, 0) : walk(next, after);
    }
    const entry = statServerPath(index, path);
    if (entry.kind === "outside") return outside(path, entry.via);
    if (entry.kind !== "directory") {
      if (optional) return;
      return fail("refusal", `${prefix}Could not open directory ${path}: No such file or directory`);
    }
    const candidates = (index.entries.get(entry.path) ?? []).filter((name) => {
      if (!matchComponent(component, name)) return false;
      if (after.length === 0) return true;
      // Matching inside the path, only real directories count: readdir reports a link as a link.
      const own = entry.path === "" ? name : `${entry.path}/${name}`;
      return index.source.directories.has(own) && !index.source.links.has(own);
    });
    if (candidates.length === 0) {
      if (traits.includeWildcardWithoutMatch === "refuse" && !optional) {
        fail("refusal", `${prefix}No matches for the wildcard '${component}' in '${path}', failing`, "use IncludeOptional if nothing may match");
      }
      return;
    }
    for (const name of candidates) {
      const next = posix.join(path, name);
      if (after.length === 0) noWildcard(next, 0);
      else walk(next, after);
    }
  };
  walk("/", full.split("/").filter((part) => part !== ""));
  return steps;
}
