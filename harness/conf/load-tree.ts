// The one place the configuration model touches the host: a directory (recursively) or one file is read into a
// SourceTree, then never again. Nothing outside the given path is read: the walk never follows a symbolic link;
// links are only recorded, resolved inside the tree (relative ones against their directory, absolute ones
// through the layout's mount), and a link leading out of the tree is kept as such so the evaluator can say so
// when the config uses that path.
// Read with the synchronous calls: a tree is a thousand small files at most, read once before anything else
// runs, and each asynchronous read is four thread-pool round trips (open, stat, read, close) that cost three
// times the reading itself (10,000 vhosts in 1,031 files: ~250 ms with fs/promises, ~70 ms so).
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { basename, join, posix, resolve } from "node:path";
import { HarnessError } from "../errors.ts";
import { detectLayout } from "./detect-layout.ts";
import type { LayoutId } from "./effective-config.ts";
import { treePathOf } from "./include-paths.ts";
import type { SourceTree } from "./source-tree.ts";
import type { ConfProblem } from "./syntax-tree.ts";

export interface ConfigTree {
  source: SourceTree;
  layout: LayoutId;
  /** The main config file, as a tree path. */
  mainFile: string;
  problems: ConfProblem[];
  /** ServerRoot before any ServerRoot directive (the build's or the start script's); the mount when absent. */
  serverRoot?: string;
}

export interface LoadLimits {
  maxFiles: number;
  maxFileBytes: number;
}

export const DEFAULT_LIMITS: LoadLimits = { maxFiles: 10_000, maxFileBytes: 10 * 1024 * 1024 };

export interface LoadOptions {
  layout?: LayoutId;
  limits?: LoadLimits;
}

interface Walked {
  files: Array<{ path: string; host: string; mode: number }>;
  directories: Set<string>;
  links: Array<{ path: string; target: string }>;
}

export async function loadTree(hostPath: string, options: LoadOptions = {}): Promise<ConfigTree> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const origin = resolve(hostPath);
  let rootInfo: Stats;
  try {
    rootInfo = statSync(origin);
  } catch (error) {
    throw new HarnessError("HARNESS_CONFIG_FILE", `cannot read the configuration at ${hostPath}: ${describe(error as NodeJS.ErrnoException)}`, {
      cause: error,
      position: { file: hostPath, line: 1, column: 1 },
      hint: "give the path of an Apache configuration directory (such as /etc/apache2) or of one config file",
    });
  }
  const singleFile = !rootInfo.isDirectory();
  const problems: ConfProblem[] = [];
  // The operator named this path; a link there is theirs to give. Links below it are never followed.
  const root = realpathSync(origin);

  const walked: Walked = { files: [], directories: new Set([""]), links: [] };
  if (singleFile) {
    if (!rootInfo.isFile()) throw configFileError(hostPath, "is neither a directory nor a regular file", "give a directory or a config file");
    checkSize(hostPath, rootInfo.size, limits);
    walked.files.push({ path: basename(origin), host: root, mode: rootInfo.mode & 0o7777 });
  } else {
    walk(root, "", walked, limits, hostPath);
  }

  const files = new Map<string, Buffer>();
  const modes = new Map<string, number>();
  for (const file of walked.files) {
    const outcome = readOutcome(file.host);
    if ("bytes" in outcome) {
      files.set(file.path, outcome.bytes);
      modes.set(file.path, file.mode);
    } else {
      const error = outcome.error;
      // The one file the operator named must be readable; in a directory, an unreadable file is reported where it is.
      if (singleFile) throw configFileError(hostPath, `cannot be read: ${describe(error as NodeJS.ErrnoException)}`, "make the file readable by the user running the harness");
      problems.push({
        severity: "error",
        file: file.path,
        line: 1,
        column: 1,
        message: `cannot read ${file.path}: ${describe(error as NodeJS.ErrnoException)}`,
        hint: "make the file readable by the user running the harness",
      });
    }
  }

  const detected = detectLayout({ files, directories: walked.directories, read: (path) => files.get(path), singleFile }, options.layout);
  const links = new Map<string, string>();
  for (const link of walked.links) links.set(link.path, resolveLink(link.path, link.target, detected.mount, root));

  if (!files.has(detected.mainFile)) {
    problems.push({
      severity: "error",
      file: detected.mainFile || hostPath,
      line: 1,
      column: 1,
      message: `the main config file ${detected.mainFile || "(none)"} of the ${detected.layout} layout is not in ${hostPath}`,
      hint: "give the directory that holds the main config file, or name the layout",
    });
  }

  const source: SourceTree = { origin: hostPath, mount: detected.mount, files, directories: walked.directories, links, modes };
  return { source, layout: detected.layout, mainFile: detected.mainFile, problems, serverRoot: detected.serverRoot };
}

function readOutcome(host: string): { bytes: Buffer } | { error: unknown } {
  try {
    return { bytes: readFileSync(host) };
  } catch (error) {
    return { error };
  }
}

function walk(hostDir: string, treeDir: string, walked: Walked, limits: LoadLimits, origin: string): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(hostDir, { withFileTypes: true });
  } catch (error) {
    throw configFileError(join(origin, treeDir), `cannot list the directory: ${describe(error as NodeJS.ErrnoException)}`, "make the directory readable by the user running the harness");
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const treePath = treeDir === "" ? entry.name : `${treeDir}/${entry.name}`;
    const host = join(hostDir, entry.name);
    if (entry.isSymbolicLink()) {
      walked.links.push({ path: treePath, target: readlinkSync(host) });
      tooMany(walked, limits, origin);
    } else if (entry.isDirectory()) {
      walked.directories.add(treePath);
      walk(host, treePath, walked, limits, origin);
    } else if (entry.isFile()) {
      const info = lstatSync(host);
      checkSize(join(origin, treePath), info.size, limits);
      walked.files.push({ path: treePath, host, mode: info.mode & 0o7777 });
      tooMany(walked, limits, origin);
    }
  }
}

/** Links count as files: each is an entry the evaluator may have to look at. */
function tooMany(walked: Walked, limits: LoadLimits, origin: string): void {
  if (walked.files.length + walked.links.length > limits.maxFiles) {
    throw configFileError(origin, `holds more than ${limits.maxFiles} files`, "give the directory of the Apache configuration only, not a whole disk");
  }
}

/** A link's target as a tree path ("." the root), or — leading out of the tree — as written (absolute) or as
 * its normalised relative form starting with "..". See include-paths.ts linkLeadsOut. */
function resolveLink(path: string, target: string, mount: string, hostRoot: string): string {
  if (target.startsWith("/")) {
    const inServer = treePathOf(mount, target);
    if (inServer !== null) return inServer === "" ? "." : inServer;
    // A link written with the host's own path to the tree.
    const normalised = posix.normalize(target);
    if (normalised === hostRoot) return ".";
    if (normalised.startsWith(`${hostRoot}/`)) return normalised.slice(hostRoot.length + 1);
    return normalised;
  }
  const parent = posix.dirname(path) === "." ? "" : posix.dirname(path);
  const joined = posix.normalize(posix.join(parent, target));
  return joined === "" ? "." : joined.replace(/\/$/, "");
}

function checkSize(path: string, size: number, limits: LoadLimits): void {
  if (size > limits.maxFileBytes) {
    throw configFileError(path, `is ${size} bytes, more than the ${limits.maxFileBytes} a config file may have`, "a configuration file this large is no configuration; leave it out of the tree");
  }
}

function configFileError(path: string, what: string, hint: string): HarnessError {
  return new HarnessError("HARNESS_CONFIG_FILE", `${path} ${what}`, { position: { file: path, line: 1, column: 1 }, hint });
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === "ENOENT") return "no such file or directory";
  if (error.code === "EACCES" || error.code === "EPERM") return "permission denied";
  return error.message;
}
