// Pure: the probe world (scenario/probe-world.ts) staged on one side, against that side's own reading of its tree.
// - Identities: every user store the config names (AuthUserFile, as htpasswd lines and, per Digest realm, htdigest
//   lines; AuthDBMUserFile through htdbm) holds every world user, and every group store (AuthGroupFile,
//   AuthDBMGroupFile) their groups. A store the tree holds gets them in its staged copy, the world's names replacing
//   the operator's lines of the same name (the first line of a name is the one httpd reads); one it lacks is made.
//   The tree on disk is never written.
// - Objects: each URL a probe asks for is mapped to the file this side's config serves it from (Alias, ScriptAlias,
//   DocumentRoot; a directory URL to its DirectoryIndex). Where the tree holds that file, it is the object, known
//   by its digest; elsewhere the world plants one with the URL's marker (world-content.ts). A URL a ProxyPass takes
//   has no object on this side: the backend answers it.
// Every addition is listed: planted objects and made stores as stubs with the line that called for them, staged
// edits of the operator's stores as adaptations. What each URL got on this side goes into the plan (SideWorld) for
// the observation and the judge; the start script checks that every planted object is there before httpd starts.
import { createHash } from "node:crypto";
import { posix } from "node:path";
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import { aliasTargets } from "../../conf/queries/alias-targets.ts";
import { authUserFiles } from "../../conf/queries/auth-user-files.ts";
import { proxiedBy } from "../../conf/queries/proxy-pass.ts";
import { requestPath, requestSections, requestVhost } from "../../conf/queries/request-sections.ts";
import { directivesNamed, serverDirectives } from "../../conf/queries/walk-config.ts";
import type { ObjectKind, ProbeTarget, ProbeWorld, WorldUser } from "../../scenario/probe-world.ts";
import { objectText } from "../probes/world-content.ts";
import type { PlannedFile } from "../scenario-plan.ts";
import type { SideWorld, SideWorldObject } from "./side-world.ts";
import type { Adaptation, Stub } from "./tree-side-plan.ts";

export type { SideWorld, SideWorldObject, SideWorldStore } from "./side-world.ts";

export interface WorldStagingInput {
  world: ProbeWorld;
  config: EffectiveConfig;
  /** Every file the side stages so far (the tree's, mapped), by absolute path. */
  files: ReadonlyMap<string, PlannedFile>;
  /** Directories of the tree at the mount, absolute. */
  directories: ReadonlySet<string>;
  /** Where a URL maps when the config sets no DocumentRoot (a fragment: the image's own). */
  defaultRoot: string;
}

export interface WorldStaging {
  /** Files to add, and replacements of staged ones (an operator's store with the world's lines). */
  files: PlannedFile[];
  stubs: Stub[];
  adaptations: Adaptation[];
  /** Shell run before the config test: DBM stores filled with htdbm, then the check that every planted object
   * is there (a line `@@harness world-missing PATH` on stderr for each one that is not). */
  setup: string[];
  record: SideWorld;
}

export const WORLD_MISSING = "@@harness world-missing ";
export const WORLD_IDENTITY_FAILED = "@@harness world-identity-failed ";

function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

function htpasswdLine(user: WorldUser): string {
  // {SHA}: one format httpd 2.2 and 2.4 both read (apr_password_validate), with no salt to make up.
  return `${user.name}:{SHA}${createHash("sha1").update(user.password).digest("base64")}`;
}

function htdigestLine(user: WorldUser, realm: string): string {
  return `${user.name}:${realm}:${createHash("md5").update(`${user.name}:${realm}:${user.password}`).digest("hex")}`;
}

function contentText(file: PlannedFile | undefined): string | null {
  if (file === undefined) return null;
  if ("text" in file.content) return file.content.text;
  if ("base64" in file.content) return Buffer.from(file.content.base64, "base64").toString("latin1");
  return null;
}

function sha256Of(file: PlannedFile): string | null {
  if ("text" in file.content) return createHash("sha256").update(file.content.text, "utf8").digest("hex");
  if ("base64" in file.content) return createHash("sha256").update(Buffer.from(file.content.base64, "base64")).digest("hex");
  return null;
}

/** The names DirectoryIndex gives a directory URL on this side (null: `DirectoryIndex disabled`). */
function directoryIndex(config: EffectiveConfig, target: ProbeTarget, url: string, defaultRoot: string): string | null {
  const inSections = requestSections(config, target, url, defaultRoot).flatMap((section) => section.children.filter((c) => c.kind === "directive" && c.key === "directoryindex"));
  const vhost = requestVhost(config, target);
  const last = inSections.at(-1)?.args ?? serverDirectives(config, vhost, "directoryindex").at(-1)?.directive.args ?? serverDirectives(config, null, "directoryindex").at(-1)?.directive.args;
  if (last === undefined) return "index.html";
  if (last[0]?.toLowerCase() === "disabled") return null;
  // A name, not a URL ("/cgi-bin/index.pl" is a redirect of its own).
  return last.find((name) => !name.startsWith("/")) ?? null;
}

/** The file system targets of ScriptAlias lines (every file under them runs as a script). */
function scriptAliasDirectories(config: EffectiveConfig): string[] {
  return aliasTargets(config).filter((a) => a.cgi && !a.regex && a.path !== null).map((a) => a.path!.replace(/\/+$/, ""));
}

/** Whether a SetHandler cgi-script applies to the URL. */
function setsCgiHandler(config: EffectiveConfig, target: ProbeTarget, url: string, defaultRoot: string): boolean {
  const handlers = requestSections(config, target, url, defaultRoot).flatMap((section) => section.children.filter((c) => c.kind === "directive" && c.key === "sethandler"));
  return (handlers.at(-1)?.args[0] ?? "").toLowerCase() === "cgi-script";
}

/** The extensions mapped to cgi-script anywhere in the config: an index page with one runs as a script. */
function cgiExtensions(config: EffectiveConfig): string[] {
  return directivesNamed(config, "addhandler")
    .filter((entry) => entry.directive.args[0]?.toLowerCase() === "cgi-script")
    .flatMap((entry) => entry.directive.args.slice(1).map((e) => (e.startsWith(".") ? e : `.${e}`).toLowerCase()));
}

/** Whether a key of `map` starts with `prefix`; without copying the keys into an array per question (the staging
 * asks for every URL of the world, and the copies were much of the planner's garbage). */
function keyUnder(map: ReadonlyMap<string, unknown>, prefix: string): boolean {
  for (const key of map.keys()) if (key.startsWith(prefix)) return true;
  return false;
}

/** The first key of `map` (in its order) that is a directory above `path`. */
function keyAbove(map: ReadonlyMap<string, unknown>, path: string): string | undefined {
  for (const key of map.keys()) if (path.startsWith(`${key}/`)) return key;
  return undefined;
}

export function stageWorld(input: WorldStagingInput): WorldStaging {
  const { world, config, files } = input;
  const out: WorldStaging = { files: [], stubs: [], adaptations: [], setup: [], record: { objects: [], stores: [], users: world.users.map((u) => u.name) } };
  const planted = new Map<string, { marker: string; kind: ObjectKind }>();
  const isDirectory = (path: string): boolean => input.directories.has(path) || keyUnder(files, `${path}/`) || keyUnder(planted, `${path}/`);
  const scripts = cgiExtensions(config);

  // ---- objects ---------------------------------------------------------------------------------------------
  // Where each URL's file is; a URL whose file is a directory of another URL's file is served as that directory.
  const wanted = world.objects.map((object) => {
    const vhost = requestVhost(config, object.target);
    const file = requestPath(config, vhost, object.url, input.defaultRoot) ?? posix.join(input.defaultRoot, object.url);
    return { object, file: object.url.endsWith("/") || file.endsWith("/") ? file.replace(/\/+$/, "") || "/" : file, directory: object.url.endsWith("/") };
  });
  // Paths some URL needs as a directory: a directory URL's own, and every parent of another URL's file.
  const directoryPaths = new Set<string>();
  for (const w of wanted) {
    if (w.directory) directoryPaths.add(w.file);
    for (let dir = posix.dirname(w.file); dir !== "/" && !directoryPaths.has(dir); dir = posix.dirname(dir)) directoryPaths.add(dir);
  }
  const scriptDirectories = scriptAliasDirectories(config);
  for (const want of wanted) {
    const { object } = want;
    const asDirectory = want.directory || directoryPaths.has(want.file) || input.directories.has(want.file);
    const base: Omit<SideWorldObject, "path" | "held" | "kind" | "marker" | "sha256" | "reason"> = { target: object.target, url: object.url };
    let path = want.file;
    let kind: ObjectKind = object.kind;
    // A URL the reverse proxy takes never reaches this side's files: an object there would only be claimed.
    const proxy = proxiedBy(config, requestVhost(config, object.target), object.url);
    if (proxy !== null) {
      out.record.objects.push({ ...base, path: null, held: "none", kind, marker: null, sha256: null, reason: `proxied to ${proxy.backend} (${proxy.span.file}:${proxy.span.line}): the request does not reach this side's files` });
      continue;
    }
    if (asDirectory) {
      // Every file of a ScriptAlias directory (or one SetHandler cgi-script covers) runs as a script: an index page
      // there would be run, a difference of the harness's making. The directory is asked for as it is.
      const runsScripts = scriptDirectories.some((dir) => want.file === dir || want.file.startsWith(`${dir}/`)) || setsCgiHandler(config, object.target, object.url, input.defaultRoot);
      if (runsScripts) {
        out.record.objects.push({ ...base, path: want.file, held: "none", kind, marker: null, sha256: null, reason: "a directory whose files run as CGI scripts: no index page planted" });
        continue;
      }
      const index = directoryIndex(config, object.target, object.url.endsWith("/") ? object.url : `${object.url}/`, input.defaultRoot);
      if (index === null) {
        out.record.objects.push({ ...base, path: want.file, held: "none", kind, marker: null, sha256: null, reason: "DirectoryIndex disabled: the directory has no page to serve" });
        continue;
      }
      path = posix.join(want.file, index);
      kind = scripts.some((ext) => index.toLowerCase().endsWith(ext)) ? "cgi" : "index";
    }
    const held = files.get(path);
    // Every file where scripts run (a ScriptAlias directory, SetHandler cgi-script) is run: only a script is planted
    // there; a page or a backup would fail as a script, a difference of the harness's making.
    if (held === undefined && kind !== "cgi" && !asDirectory && (scriptDirectories.some((dir) => path.startsWith(`${dir}/`)) || setsCgiHandler(config, object.target, object.url, input.defaultRoot))) {
      out.record.objects.push({ ...base, path, held: "none", kind, marker: null, sha256: null, reason: "a directory whose files run as CGI scripts: only scripts are planted there" });
      continue;
    }
    if (held !== undefined) {
      out.record.objects.push({ ...base, path, held: "tree", kind, marker: null, sha256: sha256Of(held), reason: null });
      continue;
    }
    const blocker = keyAbove(files, path);
    if (blocker !== undefined) {
      out.record.objects.push({ ...base, path, held: "none", kind, marker: null, sha256: null, reason: `the tree holds a file at ${blocker}` });
      continue;
    }
    const already = planted.get(path);
    if (already) {
      out.record.objects.push({ ...base, path, held: "planted", kind: already.kind, marker: already.marker, sha256: null, reason: null });
      continue;
    }
    if (isDirectory(path) && !asDirectory) {
      out.record.objects.push({ ...base, path, held: "none", kind, marker: null, sha256: null, reason: `${path} is a directory on this side` });
      continue;
    }
    const { text, mode } = objectText(kind, object.marker);
    planted.set(path, { marker: object.marker, kind });
    out.files.push({ path, content: { text }, mode });
    out.stubs.push({
      kind: "probe-object",
      target: path,
      file: object.origin?.file ?? config.mainFile,
      line: object.origin?.line ?? 1,
      note: `${kind === "cgi" ? "a CGI script" : kind === "ssi" ? "an SSI page" : kind === "index" ? "an index page" : "a file"} with marker ${object.marker}, for ${object.url}${object.origin ? ` (${object.origin.text})` : ""}`,
    });
    out.record.objects.push({ ...base, path, held: "planted", kind, marker: object.marker, sha256: null, reason: null });
  }

  // ---- identities ------------------------------------------------------------------------------------------
  if (world.users.length > 0) {
    const names = new Set(world.users.map((u) => u.name));
    const userLines = [...world.users.map(htpasswdLine), ...world.digestRealms.flatMap((realm) => world.users.map((u) => htdigestLine(u, realm)))];
    const groupLines = world.users.flatMap((u) => u.groups.map((g) => `${g}: ${u.name}`));
    const dbmType = directivesNamed(config, "authdbmtype").at(-1)?.directive.args[0] ?? null;
    const seen = new Set<string>();
    for (const store of authUserFiles(config)) {
      if (seen.has(store.path)) continue;
      seen.add(store.path);
      const at = { file: store.span.file, line: store.span.line };
      if (store.dbm) {
        const format = store.kind === "users" ? "dbm-user" : "dbm-group";
        // htdbm keeps "hash:comment"; mod_authz_dbm reads a user's groups from what follows the first colon.
        for (const user of world.users) {
          const comment = user.groups.length > 0 ? ["-t", quote(store.path), quote(user.name), quote(user.password), quote(user.groups.join(","))] : [quote(store.path), quote(user.name), quote(user.password)];
          const type = dbmType === null ? [] : ["-T", quote(dbmType)];
          out.setup.push(`c=; [ -e ${quote(store.path)} ] || [ -e ${quote(`${store.path}.pag`)} ] || c=-c; mkdir -p ${quote(posix.dirname(store.path))}; htdbm -b $c ${[...type, ...comment].join(" ")} >/dev/null 2>&1 || echo "${WORLD_IDENTITY_FAILED}${store.path}" >&2`);
        }
        out.record.stores.push({ path: store.path, directive: store.directive, format, held: files.has(store.path) ? "tree" : "made" });
        out.stubs.push({ kind: "dbm-file", target: store.path, file: at.file, line: at.line, note: `the probe world's users ${[...names].join(", ")} added with htdbm` });
        continue;
      }
      const lines = store.kind === "users" ? userLines : groupLines;
      const format = store.kind === "users" ? "file" : "group";
      const heldFile = files.get(store.path);
      const heldText = contentText(heldFile);
      if (heldFile !== undefined && heldText !== null) {
        // The world's names replace the operator's own lines for the same names (users); groups only gain lines.
        const kept = heldText.split("\n").filter((line, index, all) => (index < all.length - 1 || line !== "") && !(store.kind === "users" && names.has(line.split(":")[0]!)));
        const replaced = heldText.split("\n").filter((line) => store.kind === "users" && names.has(line.split(":")[0]!)).map((line) => line.split(":")[0]!);
        out.files.push({ ...heldFile, path: store.path, content: { text: `${[...kept, ...lines].join("\n")}\n` } });
        out.adaptations.push({
          kind: "probe-identity",
          file: store.span.file,
          line: store.span.line,
          was: null,
          now: `${store.directive} ${store.value}: +${lines.length} line${lines.length === 1 ? "" : "s"} in the staged copy`,
          reason: `the probe world's ${store.kind === "users" ? "users" : "group members"} (${[...names].join(", ")})${replaced.length > 0 ? `, replacing the file's own line${replaced.length === 1 ? "" : "s"} for ${[...new Set(replaced)].join(", ")}` : ""}; the tree on disk is not written`,
        });
        out.record.stores.push({ path: store.path, directive: store.directive, format, held: "tree" });
      } else {
        out.files.push({ path: store.path, content: { text: `${lines.join("\n")}\n` } });
        out.stubs.push({ kind: store.kind === "users" ? "password-file" : "group-file", target: store.path, file: at.file, line: at.line, note: `holds the probe world's ${store.kind === "users" ? `users ${[...names].join(", ")}` : "groups and their members"}` });
        out.record.stores.push({ path: store.path, directive: store.directive, format, held: "made" });
      }
    }
  }
  const paths = out.record.objects.filter((o) => o.held === "planted" && o.path !== null).map((o) => o.path!);
  if (paths.length > 0) out.setup.push(`for p in ${[...new Set(paths)].map(quote).join(" ")}; do [ -e "$p" ] || echo "${WORLD_MISSING}$p" >&2; done`);
  return out;
}
