// Pure: what a tree names but does not hold, made up so the server can start: document roots (with a page
// naming the host, so a smoke request has something to answer), log, lock and run directories, certificates
// (issued by the harness's CA), password files holding the harness's test user, the image's own mime.types
// and magic where the tree points at a distribution path, and the users and groups httpd switches to. Each stub is
// listed, so an operator sees what came from the harness and not from their tree.
import { createHash } from "node:crypto";
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import type { SourceTree } from "../../conf/source-tree.ts";
import type { PlannedFile } from "../scenario-plan.ts";
import { mutexPaths } from "../../conf/queries/mutex-paths.ts";
import { ownServerName } from "../../conf/queries/virtual-hosts.ts";
import { resolveServerPath } from "../../conf/queries/server-root.ts";
import { enclosingVirtualHost, walkConfig } from "../../conf/queries/walk-config.ts";
import type { Stub } from "./tree-side-plan.ts";

/** The user every stub password file holds (probes authenticate as it). */
export const TEST_USER = { user: "harness", password: "harness-password" } as const;

export interface TreeStubs {
  files: PlannedFile[];
  /** Shell lines run before the config test. */
  setup: string[];
  stubs: Stub[];
}

export interface StubContext {
  tree: SourceTree;
  /** Files the plan already stages (the tree's own, after mapping). */
  staged: ReadonlySet<string>;
  /** The image's mime.types, absolute. */
  imageMimeTypes: string;
  /** The image's mod_mime_magic file, absolute: MIMEMagicFile needs magic entries, and mime.types is none. */
  imageMagic: string;
  /** The log files the harness follows, with the directive naming each (their directories must exist). */
  logFiles: ReadonlyArray<{ path: string; file: string; line: number }>;
}

const FILE_KINDS: Record<string, Stub["kind"]> = {
  sslcertificatefile: "certificate",
  sslcertificatekeyfile: "private-key",
  sslcertificatechainfile: "ca-certificate",
  sslcacertificatefile: "ca-certificate",
  sslproxycacertificatefile: "ca-certificate",
  sslcarevocationfile: "crl",
  authuserfile: "password-file",
  authgroupfile: "group-file",
  typesconfig: "image-file",
  mimemagicfile: "image-file",
};

/** Directories every Linux image has: never listed as stubs. */
const SYSTEM_DIRECTORIES = new Set(["/", "/etc", "/var", "/var/run", "/run", "/var/log", "/var/lock", "/var/cache", "/var/lib", "/tmp", "/usr", "/usr/share", "/usr/lib", "/usr/local", "/usr/share/doc", "/srv", "/opt", "/home"]);

const DIRECTORY_OF_FILE = new Set(["pidfile", "scriptsock", "coredumpdirectory"]);

function parent(path: string): string {
  return path.replace(/\/[^/]*$/, "") || "/";
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

function htpasswdLine(user: string, password: string): string {
  // {SHA}: one format httpd 2.2 and 2.4 both read (apr_password_validate), with no salt to make up.
  return `${user}:{SHA}${createHash("sha1").update(password).digest("base64")}`;
}

export function treeStubs(config: EffectiveConfig, context: StubContext): TreeStubs {
  const files: PlannedFile[] = [];
  const stubs: Stub[] = [];
  const directories = new Map<string, Stub>();
  const madeFiles = new Set<string>(context.staged);
  const setup: string[] = [];
  const accounts = { users: new Map<string, Stub>(), groups: new Map<string, Stub>() };

  const directory = (given: string, at: { file: string; line: number }, kind: Stub["kind"], note: string): void => {
    const path = given.replace(/(.)\/+$/, "$1");
    if (SYSTEM_DIRECTORIES.has(path) || path.includes("$") || directories.has(path) || inTree(context.tree, path) === "directory") return;
    directories.set(path, { kind, target: path, file: at.file, line: at.line, note });
  };

  const serverPath = (path: string, readAt: number): string => resolveServerPath(config, path, { readAt });
  const walked = walkConfig(config);
  for (const { directive, sections, index } of walked.directives) {
    const vhost = enclosingVirtualHost(sections);
    const at = { file: directive.span.file, line: directive.span.line };
    const [first, second] = directive.args;
    if (first === undefined) continue;
    const key = directive.key;
    if (key === "documentroot") {
      const path = serverPath(first, index);
      directory(path, at, "document-root", `document root${vhost ? ` of ${vhost.args.join(" ")}` : ""}`);
      const page = `${path}/index.html`;
      if (!madeFiles.has(page) && inTree(context.tree, path) === null) {
        const name = vhost === null ? "the main server" : (ownServerName(config, vhost)?.host ?? vhost.args.join(" "));
        files.push({ path: page, content: { text: `<html><body><h1>${name}</h1><p>A stub page made by httpd-upgrade-harness: the tree does not hold ${path}.</p></body></html>\n` } });
        madeFiles.add(page);
      }
    } else if ((key === "alias" || key === "scriptalias") && second !== undefined) {
      directory(serverPath(second, index), at, "directory", `${directive.name} ${first} target`);
    } else if (DIRECTORY_OF_FILE.has(key)) {
      const path = serverPath(first, index);
      directory(key === "coredumpdirectory" ? path : parent(path), at, "directory", `for ${directive.name}`);
    } else if (key === "sslsessioncache") {
      const path = /^(?:shmcb|shm|dbm|dc):([^(]+)/.exec(first)?.[1];
      if (path) directory(parent(serverPath(path, index)), at, "directory", `for ${directive.name}`);
    } else if (key === "user" || key === "group") {
      if (first.startsWith("#") || first.includes("$")) continue;
      const map = key === "user" ? accounts.users : accounts.groups;
      if (!map.has(first)) map.set(first, { kind: key, target: first, file: at.file, line: at.line, note: `httpd's children run as it; created when the image lacks it` });
    } else if (FILE_KINDS[key] !== undefined) {
      const path = serverPath(first, index);
      if (path.includes("$") || madeFiles.has(path) || inTree(context.tree, path) !== null) continue;
      const kind = FILE_KINDS[key]!;
      const image = key === "mimemagicfile" ? context.imageMagic : context.imageMimeTypes;
      // The image's own file, where the tree points at it: nothing to make.
      if (kind === "image-file" && path === image) continue;
      madeFiles.add(path);
      directory(parent(path), at, "directory", `holds ${path}`);
      const note = kind === "image-file" ? `a copy of the image's own ${image.replace(/^.*\//, "")}` : stubNote(kind);
      stubs.push({ kind, target: path, file: at.file, line: at.line, note });
      switch (kind) {
        case "certificate":
          files.push({ path, content: { generated: "server-certificate" } });
          break;
        case "private-key":
          files.push({ path, content: { generated: "server-key" }, mode: 0o600 });
          break;
        case "ca-certificate":
          files.push({ path, content: { generated: "ca-certificate" } });
          break;
        case "crl":
          files.push({ path, content: { generated: "ca-crl" } });
          break;
        case "password-file":
          files.push({ path, content: { text: `${htpasswdLine(TEST_USER.user, TEST_USER.password)}\n` } });
          break;
        case "group-file":
          files.push({ path, content: { text: `harness-group: ${TEST_USER.user}\n` } });
          break;
        case "image-file":
          setup.push(`[ -e ${quote(path)} ] || cp ${quote(image)} ${quote(path)}`);
          break;
        default:
          break;
      }
    }
  }
  // Mutex names a directory; LockFile and SSLMutex name a file (mutex-paths.ts).
  for (const mutex of mutexPaths(config)) {
    if (mutex.path === null) continue;
    directory(mutex.directive === "Mutex" ? mutex.path : parent(mutex.path), { file: mutex.span.file, line: mutex.span.line }, "directory", `for ${mutex.directive}`);
  }
  for (const { section, index } of walked.sections) {
    if (section.key !== "directory") continue;
    const path = section.args[0];
    if (path === undefined || section.args.length > 1 || /[*?[~]/.test(path)) continue;
    directory(serverPath(path, index), { file: section.span.file, line: section.span.line }, "directory", "a <Directory> section's path");
  }
  for (const log of context.logFiles) directory(parent(log.path), { file: log.file, line: log.line }, "directory", `holds the log ${log.path}`);

  const made = [...directories.values()];
  if (made.length > 0) setup.unshift(`mkdir -p ${made.map((d) => quote(d.target)).join(" ")}`);
  let id = 7000;
  for (const group of accounts.groups.values()) {
    id++;
    setup.push(`grep -q ${quote(`^${group.target}:`)} /etc/group || echo ${quote(`${group.target}:x:${id}:`)} >> /etc/group`);
  }
  for (const user of accounts.users.values()) {
    id++;
    setup.push(`grep -q ${quote(`^${user.target}:`)} /etc/passwd || echo ${quote(`${user.target}:x:${id}:65534::/nonexistent:/bin/false`)} >> /etc/passwd`);
  }
  return { files, setup, stubs: [...made, ...stubs, ...accounts.groups.values(), ...accounts.users.values()] };
}

function stubNote(kind: Stub["kind"]): string {
  switch (kind) {
    case "certificate":
      return "the harness's server certificate";
    case "private-key":
      return "the harness's server key";
    case "ca-certificate":
      return "the harness's CA certificate";
    case "crl":
      return "the harness CA's revocation list";
    case "password-file":
      return `holds the harness's test user ${TEST_USER.user}`;
    case "group-file":
      return `group harness-group holding ${TEST_USER.user}`;
    default:
      return "";
  }
}


/** Whether an absolute server path is a file or directory of the tree (through its mount), or neither. */
export function inTree(tree: SourceTree, path: string): "file" | "directory" | null {
  const mount = tree.mount.replace(/\/+$/, "");
  if (mount !== "" && path !== mount && !path.startsWith(`${mount}/`)) return null;
  const relative = path.slice(mount.length).replace(/^\/+/, "").replace(/\/+$/, "");
  if (tree.files.has(relative) || tree.links.has(relative)) return "file";
  if (tree.directories.has(relative)) return "directory";
  return null;
}
