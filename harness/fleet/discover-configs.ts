// The configuration trees under the directories `fleet DIR...` is given: a directory that holds an Apache main
// file in one of the layouts conf/detect-layout.ts knows is one tree (its subdirectories belong to it); any other
// directory is searched further, and a `*.conf` file or an application's `.htaccess` directly in it is a one-file
// config (a fragment, run on each image's stock config). Links are never followed, other hidden entries are
// skipped, and `exclude` globs (fleet.yaml) leave paths out. Every entry found and not taken is named with the
// reason, so that an operator sees what the fleet did not look at. The result is in a stable order (by label),
// which shards and reports rely on.
import { lstat, readdir } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { HarnessError } from "../errors.ts";
import { globPattern } from "../rules/ignore-file.ts";

/** How deep discovery looks below a given directory for trees. */
const MAX_DEPTH = 6;

/** Files whose presence makes a directory a tree root (the layouts' main files, and the file-system forms). */
const MAIN_FILES = ["apache2.conf", "httpd.conf", "conf/httpd.conf", "etc/apache2/apache2.conf", "etc/httpd/conf/httpd.conf", "usr/local/apache2/conf/httpd.conf"];
const FILE_SYSTEM_TOPS = new Set(["etc", "usr", "var", "srv", "opt", "home"]);

export interface DiscoveredConfig {
  /** Absolute host path. */
  path: string;
  /** Relative to `cwd` when inside it ("configs/app-htaccess"), else absolute; "/"-separated. */
  label: string;
}

/** An entry discovery found and did not take, with why. */
export interface PassedOver {
  label: string;
  reason: string;
}

export const PASSED_REASONS = {
  hidden: "hidden (a name starting with a dot)",
  link: "a symbolic link: discovery never follows links",
  notConfig: "not a config file: outside a tree only *.conf files and .htaccess files are configs",
  empty: "an empty directory",
  deep: "deeper than 6 levels below the directory given",
  excluded: "excluded by a glob (fleet.yaml exclude or --exclude)",
  modules: "a node_modules directory",
} as const;

export function labelOf(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const inside = rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel);
  return (inside ? rel : path).split(sep).join("/") || ".";
}

async function isFile(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null))?.isFile() === true;
}

/** Whether the directory is a tree: it holds a main file, or it is a package's files at their absolute paths
 * (only file-system tops such as etc/ and usr/, with an etc/ holding a *.conf). */
async function isTreeRoot(dir: string, entries: readonly string[]): Promise<boolean> {
  for (const main of MAIN_FILES) if (await isFile(join(dir, main))) return true;
  const visible = entries.filter((name) => !name.startsWith("."));
  if (visible.length === 0 || !visible.includes("etc") || !visible.every((name) => FILE_SYSTEM_TOPS.has(name))) return false;
  const stack = [join(dir, "etc")];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const entry of await readdir(current, { withFileTypes: true }).catch(() => [])) {
      if (entry.isFile() && entry.name.endsWith(".conf")) return true;
      if (entry.isDirectory()) stack.push(join(current, entry.name));
    }
  }
  return false;
}

/** `exclude`: globs over paths relative to `base` (the fleet file's directory, or the working directory). */
export async function discoverConfigs(
  dirs: readonly string[],
  options: { cwd: string; exclude?: { base: string; globs: readonly string[] } },
): Promise<{ configs: DiscoveredConfig[]; passed: PassedOver[] }> {
  const excluded = (options.exclude?.globs ?? []).map((glob) => globPattern(glob));
  const found = new Map<string, DiscoveredConfig>();
  const passed = new Map<string, PassedOver>();
  const pass = (path: string, reason: string): void => {
    if (!found.has(path)) passed.set(path, { label: labelOf(path, options.cwd), reason });
  };
  const skip = (path: string): boolean => {
    if (excluded.length === 0) return false;
    const rel = relative(options.exclude!.base, path).split(sep).join("/");
    return excluded.some((pattern) => pattern.test(rel) || pattern.test(`${rel}/`));
  };
  const add = (path: string): void => {
    if (skip(path)) pass(path, PASSED_REASONS.excluded);
    else found.set(path, { path, label: labelOf(path, options.cwd) });
  };
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (skip(dir)) return pass(dir, PASSED_REASONS.excluded);
    const entries = await readdir(dir, { withFileTypes: true });
    if (await isTreeRoot(dir, entries.map((e) => e.name))) return add(dir);
    if (depth >= MAX_DEPTH) return pass(dir, PASSED_REASONS.deep);
    if (entries.length === 0) return pass(dir, PASSED_REASONS.empty);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) pass(path, PASSED_REASONS.link);
      else if (entry.isFile() && (entry.name.endsWith(".conf") || entry.name === ".htaccess")) add(path);
      else if (entry.name.startsWith(".")) pass(path, PASSED_REASONS.hidden);
      else if (entry.name === "node_modules") pass(path, PASSED_REASONS.modules);
      else if (entry.isDirectory()) await walk(path, depth + 1);
      else pass(path, PASSED_REASONS.notConfig);
    }
  };
  for (const given of dirs) {
    const path = resolve(options.cwd, given);
    const info = await lstat(path).catch(() => null);
    if (!info) {
      throw new HarnessError("HARNESS_USAGE", `fleet: ${given} does not exist.`, { hint: "Give directories that hold configuration trees (or a fleet.yaml)." });
    }
    if (info.isSymbolicLink()) throw new HarnessError("HARNESS_USAGE", `fleet: ${given} is a symbolic link; give the directory it points to.`);
    if (info.isFile()) add(path);
    else await walk(path, 0);
  }
  const byLabel = <T extends { label: string }>(a: T, b: T) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
  return { configs: [...found.values()].sort(byLabel), passed: [...passed.values()].sort(byLabel) };
}
