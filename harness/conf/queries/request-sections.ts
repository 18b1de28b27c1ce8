// The per-directory sections that apply to one request, in httpd's merge order: <Directory> along the file path
// the URL maps to (through Alias, ScriptAlias or the DocumentRoot; shortest first, then the regex ones), <Files>
// on its base name, <Location> on the URL. The virtual host is picked by port and name. What prove shows as the
// lines that decide a request on each side; approximate where httpd decides at run time (rewrites, AliasMatch).
import { posix } from "node:path";
import type { EffectiveConfig, EffectiveSection } from "../effective-config.ts";
import { matchComponent } from "../glob.ts";
import { aliasTargets } from "./alias-targets.ts";
import { documentRoot } from "./document-roots.ts";
import { virtualHosts } from "./virtual-hosts.ts";
import { serverSections } from "./walk-config.ts";

export interface RequestTarget {
  host: string | null;
  port: number;
  tls: boolean;
}

function pattern(section: EffectiveSection): { value: string; regex: boolean } {
  return { value: section.args.at(-1) ?? "", regex: section.key.endsWith("match") || section.args[0] === "~" };
}

/** Per config and port: the vhosts on the port in reading order, and the first of them per name (ServerName or
 * ServerAlias as written). */
const vhostIndex = new WeakMap<EffectiveConfig, Map<number, { first: EffectiveSection | null; byName: Map<string, EffectiveSection> }>>();

export function requestVhost(config: EffectiveConfig, target: RequestTarget): EffectiveSection | null {
  let byPort = vhostIndex.get(config);
  if (byPort === undefined) vhostIndex.set(config, (byPort = new Map()));
  let index = byPort.get(target.port);
  if (index === undefined) {
    const hosts = virtualHosts(config).filter((h) => h.addresses.some((a) => a.port === null || a.port === target.port));
    const byName = new Map<string, EffectiveSection>();
    for (const host of hosts) {
      for (const name of [host.serverName?.host, ...host.aliases.map((a) => a.value)]) if (name !== undefined && host.section !== null && !byName.has(name)) byName.set(name, host.section);
    }
    index = { first: hosts[0]?.section ?? null, byName };
    byPort.set(target.port, index);
  }
  return (target.host === null ? undefined : index.byName.get(target.host)) ?? index.first;
}

/** The file path a URL maps to in a vhost; null when neither an Alias nor a DocumentRoot takes it.
 * @param defaultRoot the document root when the config sets none (a fragment read into the image's config) */
export function requestPath(config: EffectiveConfig, vhost: EffectiveSection | null, url: string, defaultRoot: string | null = null): string | null {
  const index = serverIndex(config, vhost);
  const key = defaultRoot === null ? `n\u0000${url}` : `r${defaultRoot}\u0000${url}`;
  let file = index.paths.get(key);
  if (file === undefined) index.paths.set(key, (file = mapPath(config, vhost, index, url, defaultRoot)));
  return file;
}

function mapPath(config: EffectiveConfig, vhost: EffectiveSection | null, index: ServerRequestIndex, url: string, defaultRoot: string | null): string | null {
  const path = url.split("?")[0]!;
  // The longest URL that takes the path; of equal ones, the first in reading order.
  let alias: PlainAlias | undefined;
  for (const a of index.aliases) if ((path === a.url || path.startsWith(a.prefix)) && (alias === undefined || a.url.length > alias.url.length)) alias = a;
  if (alias) return posix.join(alias.path, path.slice(alias.url.length));
  if (index.root === undefined) index.root = documentRoot(config, vhost)?.path ?? null;
  const root = index.root ?? defaultRoot;
  return root === null ? null : posix.join(root, path);
}

/** A plain <Location> applies to its path and below it, on a segment boundary (ap_location_walk): <Location /fz1>
 * takes /fz1 and /fz1/x, not /fz1-outside (real 2.2.34 and 2.4.68, the differential fuzzer's fixtures). */
export function locationMatches(location: string, path: string): boolean {
  const clean = location.replace(/^"|"$/g, "");
  return path === clean || path.startsWith(clean.endsWith("/") ? clean : `${clean}/`);
}

export function requestSections(config: EffectiveConfig, target: RequestTarget, url: string, defaultRoot: string | null = null): EffectiveSection[] {
  const vhost = requestVhost(config, target);
  return sectionsAt(config, vhost, url, requestPath(config, vhost, url, defaultRoot));
}

/** The sections of `config` (its main server and `vhost`) that apply to a request for `url` that maps to `file`:
 * for a config another one surrounds (an image's stock config around a fragment), where the fragment's own
 * Alias or DocumentRoot decides the file. */
export function sectionsAt(config: EffectiveConfig, vhost: EffectiveSection | null, url: string, file: string | null): EffectiveSection[] {
  const path = url.split("?")[0]!;
  const index = serverIndex(config, vhost);
  const out: EffectiveSection[] = [];
  const applying = new Set<EffectiveSection>();
  if (file !== null) {
    const have = components(file);
    // Plain <Directory> sections, kept shortest first (then in reading order): httpd's merge order.
    for (const d of index.plainDirs) {
      const want = d.components;
      if (want.length > have.length) continue;
      let all = true;
      for (let i = 0; i < want.length && all; i++) all = matchComponent(want[i]!, have[i]!);
      if (all) {
        out.push(d.section);
        applying.add(d.section);
      }
    }
    for (const d of index.regexDirs) {
      if (d.regex !== null && d.regex.test(file)) {
        out.push(d.section);
        applying.add(d.section);
      }
    }
  }
  const base = file === null ? posix.basename(path) : posix.basename(file);
  for (const f of index.files) {
    if (f.directory !== undefined && !applying.has(f.directory)) continue;
    if (f.regex === undefined ? matchComponent(f.value, base) : f.regex !== null && f.regex.test(base)) out.push(f.section);
  }
  for (const l of index.locations) {
    if (l.regex === undefined ? locationMatches(l.value, path) : l.regex !== null && l.regex.test(path)) out.push(l.section);
  }
  return out;
}

function components(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** A pattern compiled once: null when httpd's regex is not one JavaScript reads (it then takes nothing). The
 * patterns have no flags, so one RegExp object serves every test (no lastIndex state). */
function compile(source: string): RegExp | null {
  try {
    return new RegExp(source);
  } catch {
    return null;
  }
}

interface PlainAlias {
  url: string;
  /** `url` with a trailing slash: a longer path it takes starts with this. */
  prefix: string;
  path: string;
}

/** What requestPath and sectionsAt read of one server (the main one or a vhost) for every request, built once per
 * config value (never changed once evaluated) and server: the probe planner and lint's predictions map thousands of
 * URLs through them, and each used to re-split every section's pattern and re-filter every section per request. */
export interface ServerRequestIndex {
  aliases: PlainAlias[];
  /** The file each URL (keyed with the default root asked with it) maps to: the planner, the world's staging and
   * the predictions map the same URLs again and again. */
  paths: Map<string, string | null>;
  /** The server's DocumentRoot path, null when none is set; undefined until first asked. */
  root: string | null | undefined;
  /** Plain <Directory> sections, sorted by their pattern's component count, then reading order. */
  plainDirs: { section: EffectiveSection; components: string[] }[];
  /** <DirectoryMatch> and <Directory ~> sections, in reading order. */
  regexDirs: { section: EffectiveSection; regex: RegExp | null }[];
  /** <Files> and <FilesMatch>, in reading order, with the <Directory> that encloses them (undefined: none).
   * regex undefined: a glob. */
  files: { section: EffectiveSection; directory: EffectiveSection | undefined; value: string; regex: RegExp | null | undefined }[];
  /** <Location> and <LocationMatch>, in reading order; regex undefined: a plain prefix. */
  locations: { section: EffectiveSection; value: string; regex: RegExp | null | undefined }[];
}

const requestIndexes = new WeakMap<EffectiveConfig, Map<EffectiveSection | null, ServerRequestIndex>>();

export function serverIndex(config: EffectiveConfig, vhost: EffectiveSection | null): ServerRequestIndex {
  let byServer = requestIndexes.get(config);
  if (byServer === undefined) requestIndexes.set(config, (byServer = new Map()));
  let index = byServer.get(vhost);
  if (index !== undefined) return index;
  const aliases: PlainAlias[] = [];
  for (const a of aliasTargets(config)) {
    if (a.regex || a.url === null || a.path === null || (a.vhost !== null && a.vhost !== vhost)) continue;
    aliases.push({ url: a.url, prefix: a.url.endsWith("/") ? a.url : `${a.url}/`, path: a.path });
  }
  index = { aliases, paths: new Map(), root: undefined, plainDirs: [], regexDirs: [], files: [], locations: [] };
  const plain: { section: EffectiveSection; components: string[]; index: number }[] = [];
  for (const s of serverSections(config, vhost)) {
    const key = s.section.key;
    const { value, regex } = pattern(s.section);
    if (key === "directory" && !regex) plain.push({ section: s.section, components: components(value), index: s.index });
    else if (key === "directorymatch" || key === "directory") index.regexDirs.push({ section: s.section, regex: compile(value) });
    else if (key === "files" || key === "filesmatch") {
      const directory = s.sections.findLast((e) => e.key === "directory" || e.key === "directorymatch");
      index.files.push({ section: s.section, directory, value, regex: regex ? compile(value) : undefined });
    } else if (key === "location" || key === "locationmatch") index.locations.push({ section: s.section, value, regex: regex ? compile(value) : undefined });
  }
  plain.sort((a, b) => a.components.length - b.components.length || a.index - b.index);
  index.plainDirs = plain.map(({ section, components }) => ({ section, components }));
  byServer.set(vhost, index);
  return index;
}
