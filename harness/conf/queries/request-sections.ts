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

function test(source: string, subject: string): boolean {
  try {
    return new RegExp(source).test(subject);
  } catch {
    return false;
  }
}

function fnmatch(glob: string, name: string): boolean {
  return matchComponent(glob, name);
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
  const path = url.split("?")[0]!;
  const aliases = aliasTargets(config).filter((a) => !a.regex && a.url !== null && a.path !== null && (a.vhost === null || a.vhost === vhost));
  const alias = aliases.filter((a) => path === a.url || path.startsWith(a.url!.endsWith("/") ? a.url! : `${a.url}/`)).sort((a, b) => b.url!.length - a.url!.length)[0];
  if (alias) return posix.join(alias.path!, path.slice(alias.url!.length));
  const root = documentRoot(config, vhost)?.path ?? defaultRoot;
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
  const sections = serverSections(config, vhost);
  const components = (p: string) => p.split("/").filter(Boolean);
  const dirs = file === null ? [] : sections
    .filter((s) => s.section.key === "directory" && !pattern(s.section).regex)
    .filter((s) => {
      const want = components(pattern(s.section).value);
      const have = components(file);
      return want.length <= have.length && want.every((c, i) => fnmatch(c, have[i]!));
    })
    .sort((a, b) => components(pattern(a.section).value).length - components(pattern(b.section).value).length || a.index - b.index);
  const regexDirs = file === null ? [] : sections.filter((s) => (s.section.key === "directorymatch" || (s.section.key === "directory" && pattern(s.section).regex)) && test(pattern(s.section).value, file));
  const base = file === null ? posix.basename(path) : posix.basename(file);
  const inApplying = (s: (typeof sections)[number]) => {
    const dir = s.sections.findLast((e) => e.key === "directory" || e.key === "directorymatch");
    return dir === undefined || [...dirs, ...regexDirs].some((d) => d.section === dir);
  };
  const files = sections.filter((s) => (s.section.key === "files" || s.section.key === "filesmatch") && inApplying(s) && (pattern(s.section).regex ? test(pattern(s.section).value, base) : fnmatch(pattern(s.section).value, base)));
  const locations = sections.filter((s) => (s.section.key === "location" || s.section.key === "locationmatch") && (pattern(s.section).regex ? test(pattern(s.section).value, path) : locationMatches(pattern(s.section).value, path)));
  return [...dirs, ...regexDirs, ...files, ...locations].map((s) => s.section);
}
