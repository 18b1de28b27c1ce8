// What the access-control rules share: reading a Require line, telling whether authentication is in force
// where a line sits (its own section, the sections around it, a <Directory>/<Location> above it by path, the
// server), which lines protect, and the run evidence that 2.4 let through what 2.2 kept out.
import type { EffectiveConfig, EffectiveDirective, EffectiveSection } from "../conf/effective-config.ts";
import { moduleIdOfFile } from "../conf/module-identity.ts";
import { walkConfig, type WalkedDirective, type WalkedSection } from "../conf/queries/walk-config.ts";
import type { Claim } from "./rule.ts";
import type { Evidence } from "./evidence.ts";
import type { LintFinding } from "./finding.ts";

/** 2.4's host, method and expression providers (mod_authz_core, mod_authz_host): 2.2 has none of them, its
 * Require only names users (valid-user, user, group, file-owner, file-group, ldap-*). */
export const HOST_PROVIDERS = new Set(["all", "env", "method", "expr", "ip", "host", "local", "forward-dns"]);

export interface RequireLine {
  negated: boolean;
  provider: string;
  args: string[];
}

/** `Require [not] provider args...`; null for an empty Require. */
export function requireLine(directive: EffectiveDirective): RequireLine | null {
  const words = directive.args;
  const negated = words[0]?.toLowerCase() === "not";
  const provider = (negated ? words[1] : words[0])?.toLowerCase();
  if (provider === undefined) return null;
  return { negated, provider, args: words.slice(negated ? 2 : 1) };
}

// Sections that hold per-directory configuration (what a Require applies to).
const SCOPES = new Set(["directory", "directorymatch", "location", "locationmatch", "files", "filesmatch", "proxy", "proxymatch", "limit", "limitexcept", "if", "elseif", "else"]);

/** The innermost per-directory section around a line, or null in server context. */
export function innermostScope(sections: readonly EffectiveSection[]): EffectiveSection | null {
  for (let index = sections.length - 1; index >= 0; index--) if (SCOPES.has(sections[index]!.key)) return sections[index]!;
  return null;
}

function plainPath(section: EffectiveSection): string | null {
  if (section.key !== "directory" && section.key !== "location") return null;
  const path = section.args[0];
  if (path === undefined || path === "~" || /[*?[]/.test(path)) return null;
  return path.replace(/\/+$/, "") || "/";
}

/** One directive name's lines by their innermost per-directory section; a server's own context by its
 * <VirtualHost> (null: the main server's). */
type OwnIndex = Map<EffectiveSection | null, WalkedDirective[]>;

interface PathIndex {
  /** Plain-path <Directory> and <Location> sections by their <VirtualHost> (null: the main server's), then by
   * path, both kinds in one list (a path rarely has both): a section merges with the main server's and its own
   * server's only, and 10,000 vhosts may each have a <Directory> of the same path. One map per server, no key
   * string made per prefix looked up. */
  byPath: Map<EffectiveSection | null, Map<string, WalkedSection[]>>;
  /** Each section's <VirtualHost> (null: the main server). */
  serverOf: Map<EffectiveSection, EffectiveSection | null>;
}

// Built once per config, each on first use (a view whose sections no rule asks about by path has no path index):
// the rules ask per section, and a fleet config has thousands of sections.
const ownIndexes = new WeakMap<EffectiveConfig, Map<string, OwnIndex>>();
const pathIndexes = new WeakMap<EffectiveConfig, PathIndex>();

/** The lines of one name (`key`, lower-case) by their own section, made on the first ask for that name. Per name,
 * from the walk's list of that name: the access rules ask of a few names (require, satisfy, order, allow, deny,
 * authtype), and one index of every line of the view by its section (230,000 lines of each view on 10,000 vhosts,
 * for the 2.2 view too, where one rule asks of its Require lines) was most of the access rules' time and some
 * 10 MB that lived to the end of the lint. */
function ownIndex(config: EffectiveConfig, key: string): OwnIndex {
  let byKey = ownIndexes.get(config);
  if (byKey === undefined) ownIndexes.set(config, (byKey = new Map()));
  const known = byKey.get(key);
  if (known !== undefined) return known;
  const lines = walkConfig(config).byKey.get(key) ?? [];
  // Two passes, so that each list is made at its exact length: grown by push, a scope's few lines kept room for
  // 17, kept as long as the config. The lines of one section share its array of enclosing sections: their scope
  // is found once, the first pass keeping it per line for the second.
  const scopes = new Array<EffectiveSection | null>(lines.length);
  const counts = new Map<EffectiveSection | null, number>();
  let lastSections: readonly EffectiveSection[] | null = null;
  let scope: EffectiveSection | null = null;
  // Index loops, not for-of: this runs once per name, mostly before the optimising compiler steps in, and
  // unoptimised for-of makes an iterator result per element.
  for (let at = 0; at < lines.length; at++) {
    const entry = lines[at]!;
    if (entry.sections !== lastSections) {
      lastSections = entry.sections;
      scope = innermostScope(entry.sections) ?? virtualHostOf(entry.sections);
    }
    scopes[at] = scope;
    counts.set(scope, (counts.get(scope) ?? 0) + 1);
  }
  const index: OwnIndex = new Map();
  // forEach, not for-of over the entries: no [scope, count] pair made per section.
  counts.forEach((count, scope) => index.set(scope, new Array<WalkedDirective>(count)));
  // Filled from the end, each list's count going down to 0: no second map of positions.
  for (let at = lines.length - 1; at >= 0; at--) {
    const scope = scopes[at] as EffectiveSection | null;
    const left = counts.get(scope)! - 1;
    index.get(scope)![left] = lines[at]!;
    counts.set(scope, left);
  }
  byKey.set(key, index);
  return index;
}

/** The <VirtualHost> among `sections`, or null. A loop, not `find` with a closure: asked per section of a tree
 * before the optimising compiler steps in. */
export function virtualHostOf(sections: readonly EffectiveSection[]): EffectiveSection | null {
  for (let at = 0; at < sections.length; at++) if (sections[at]!.key === "virtualhost") return sections[at]!;
  return null;
}

function pathIndex(config: EffectiveConfig): PathIndex {
  const known = pathIndexes.get(config);
  if (known) return known;
  const walked = walkConfig(config);
  const index: PathIndex = { byPath: new Map(), serverOf: new Map() };
  // A vhost's sections share its array of enclosing sections: their server is found once.
  let lastSections: readonly EffectiveSection[] | null = null;
  let server: EffectiveSection | null = null;
  for (let at = 0; at < walked.sections.length; at++) {
    const entry = walked.sections[at]!;
    if (entry.sections !== lastSections) {
      lastSections = entry.sections;
      server = virtualHostOf(entry.sections);
    }
    index.serverOf.set(entry.section, server);
    const path = plainPath(entry.section);
    if (path === null) continue;
    let paths = index.byPath.get(server);
    if (!paths) index.byPath.set(server, (paths = new Map()));
    const list = paths.get(path);
    if (list) list.push(entry);
    else paths.set(path, [entry]);
  }
  pathIndexes.set(config, index);
  return index;
}

/** The plain <Directory> or <Location> sections whose path contains `scope`'s (itself excluded), of the main
 * server and of `scope`'s own virtual host, nearest last. */
export function sectionsAbove(config: EffectiveConfig, scope: EffectiveSection): WalkedSection[] {
  const path = plainPath(scope);
  if (path === null) return [];
  const { byPath, serverOf } = pathIndex(config);
  const server = serverOf.get(scope) ?? null;
  const mainPaths = byPath.get(null);
  const ownPaths = server === null ? undefined : byPath.get(server);
  const found: WalkedSection[] = [];
  // Loops, not a flatMap of prefixes: the access rules ask for tens of thousands of sections in a large tree.
  // Each prefix longer than the one before, so none repeats: "/", "/srv", "/srv/www", ...
  for (const prefix of prefixes(path)) {
    addOthers(found, mainPaths?.get(prefix), scope);
    if (server !== null) addOthers(found, ownPaths?.get(prefix), scope);
  }
  return found;
}

/** The plain-path sections that have a directive of one name written in them, as the path index holds them (by
 * server, then path, each list in reading order), by config and name. Made from the walk's sections with a look
 * at each, not from the path index: that one's map of every section's server was most of what A5 spent on a
 * 10,000-vhost tree, where no rule asks the path index for anything else. */
const pathsWithIndexes = new WeakMap<EffectiveConfig, Map<string, PathIndex["byPath"]>>();

function pathsWith(config: EffectiveConfig, key: string): PathIndex["byPath"] {
  let byKey = pathsWithIndexes.get(config);
  if (byKey === undefined) pathsWithIndexes.set(config, (byKey = new Map()));
  let index = byKey.get(key);
  if (index !== undefined) return index;
  const own = ownIndex(config, key);
  const walked = walkConfig(config);
  index = new Map();
  for (let at = 0; at < walked.sections.length; at++) {
    const entry = walked.sections[at]!;
    if (!own.has(entry.section)) continue;
    const path = plainPath(entry.section);
    if (path === null) continue;
    const server = virtualHostOf(entry.sections);
    let paths = index.get(server);
    if (!paths) index.set(server, (paths = new Map()));
    const list = paths.get(path);
    if (list) list.push(entry);
    else paths.set(path, [entry]);
  }
  byKey.set(key, index);
  return index;
}

/** sectionsAbove, only those with a directive of `key` (a lower-case name) written in them. Looked up among those
 * sections only: the access rules ask it of every section with host lines (10,000 <Directory> sections on
 * 10,000 vhosts), and a tree has few sections with a Require above another by path. `server` is the scope's
 * <VirtualHost> (null: the main server) where the caller knows it (from the sections around a line in the scope);
 * else the path index tells it. */
export function sectionsAboveWith(config: EffectiveConfig, scope: EffectiveSection, key: string, server?: EffectiveSection | null): WalkedSection[] {
  const found: WalkedSection[] = [];
  const path = plainPath(scope);
  if (path === null) return found;
  const byPath = pathsWith(config, key);
  const mainPaths = byPath.get(null);
  const scopeServer = server !== undefined ? server : (pathIndex(config).serverOf.get(scope) ?? null);
  const ownPaths = scopeServer === null ? undefined : byPath.get(scopeServer);
  if (mainPaths === undefined && ownPaths === undefined) return found;
  // As sectionsAbove: each prefix, the main server's sections, then the scope's own server's.
  for (const prefix of prefixes(path)) {
    addOthers(found, mainPaths?.get(prefix), scope);
    if (scopeServer !== null) addOthers(found, ownPaths?.get(prefix), scope);
  }
  return found;
}

/** "/", then the path's non-empty parts joined one more at a time: "/srv", "/srv/www", ... An absolute path
 * without "//" (nearly every one) gives them as slices of itself, with no array of parts. */
function prefixes(path: string): string[] {
  const found = ["/"];
  if (path.startsWith("/") && !path.includes("//")) {
    for (let slash = path.indexOf("/", 1); slash > 0; slash = path.indexOf("/", slash + 1)) found.push(path.slice(0, slash));
    if (path !== "/") found.push(path);
    return found;
  }
  let prefix = "/";
  for (const part of path.split("/")) {
    if (part === "") continue;
    prefix = prefix === "/" ? `/${part}` : `${prefix}/${part}`;
    found.push(prefix);
  }
  return found;
}

/** The sections of `scope`'s kind among `entries`, but `scope` itself. */
function addOthers(found: WalkedSection[], entries: readonly WalkedSection[] | undefined, scope: EffectiveSection): void {
  for (const entry of entries ?? []) if (entry.section !== scope && entry.section.key === scope.key) found.push(entry);
}

/** The sections whose configuration merges into a line's: the ones around it, and the <Directory> or <Location>
 * sections above its own by path (in the same virtual host or the main server). */
export function mergedScopes(config: EffectiveConfig, sections: readonly EffectiveSection[]): EffectiveSection[] {
  const own = innermostScope(sections);
  const around = sections.filter((section) => SCOPES.has(section.key));
  if (own === null) return around;
  const vhost = virtualHostOf(sections);
  const above = sectionsAbove(config, own)
    .filter((entry) => {
      const theirs = virtualHostOf(entry.sections);
      return theirs === null || theirs === vhost;
    })
    .map((entry) => entry.section);
  return [...above, ...around];
}

/** The directives written directly in a section (through the conditional sections the evaluator flattened). */
export function ownDirectives(config: EffectiveConfig, section: EffectiveSection | null, ...keys: string[]): WalkedDirective[] {
  if (keys.length === 1) return ownIndex(config, keys[0]!).get(section)?.slice() ?? [];
  const found: WalkedDirective[] = [];
  for (let at = 0; at < keys.length; at++) {
    // A name given twice gives its lines once.
    if (keys.indexOf(keys[at]!) !== at) continue;
    const own = ownIndex(config, keys[at]!).get(section);
    if (own !== undefined) for (let line = 0; line < own.length; line++) found.push(own[line]!);
  }
  // In reading order, as the section holds them: a walk's indices increase along it.
  return found.sort((a, b) => a.index - b.index);
}

/** Whether a section has a directive of `key` (a lower-case name) written in it that passes `test` (any, without
 * one). No list made: the access rules ask this for every scope of tens of thousands of lines. */
export function hasOwn(config: EffectiveConfig, section: EffectiveSection | null, key: string, test?: (directive: EffectiveDirective) => boolean): boolean {
  const own = ownIndex(config, key).get(section);
  if (own === undefined) return false;
  if (test === undefined) return true;
  // An index loop: asked tens of thousands of times, from code that is often not optimised yet, where for-of
  // makes an iterator and a result per line.
  for (let at = 0; at < own.length; at++) if (test(own[at]!.directive)) return true;
  return false;
}

/** Whether a directive of `key` passing `test` is in effect where a line sits: written in the sections around it,
 * its server's context (its <VirtualHost>'s or the main server's), or a section above its own by path (the
 * scopes of mergedScopes). The sections around the line are asked first: in a large tree they answer most often,
 * and then the sections above by path are never looked up. */
export function inEffect(config: EffectiveConfig, sections: readonly EffectiveSection[], key: string, test?: (directive: EffectiveDirective) => boolean): boolean {
  for (let index = sections.length - 1; index >= 0; index--) {
    const section = sections[index]!;
    if (SCOPES.has(section.key) && hasOwn(config, section, key, test)) return true;
  }
  const vhost = virtualHostOf(sections);
  if ((vhost !== null && hasOwn(config, vhost, key, test)) || hasOwn(config, null, key, test)) return true;
  const own = innermostScope(sections);
  if (own === null) return false;
  for (const entry of sectionsAbove(config, own)) {
    const theirs = virtualHostOf(entry.sections);
    if ((theirs === null || theirs === vhost) && hasOwn(config, entry.section, key, test)) return true;
  }
  return false;
}

function notNone(directive: EffectiveDirective): boolean {
  return directive.args[0]?.toLowerCase() !== "none";
}

/** Whether 2.2 asks for a password where this line sits: an AuthType in its own section, one around it, one
 * above it by path, or in server context. */
export function authTypeInScope(config: EffectiveConfig, entry: { sections: readonly EffectiveSection[] }): boolean {
  return inEffect(config, entry.sections, "authtype", notNone);
}

/** `mod_rewrite.c` or `rewrite_module` (an <IfModule> condition) as a module id. */
export function moduleOfCondition(word: string): string {
  return word.endsWith(".c") ? (moduleIdOfFile(word) ?? word) : word;
}

// Lines that keep clients out: host rules, authentication, SSL requirements, rewrite refusals.
const PROTECTING = new Set(["order", "allow", "deny", "satisfy", "require", "authtype", "authuserfile", "authgroupfile", "authdbmuserfile", "authdbmgroupfile", "authbasicprovider", "authdigestprovider", "authldapurl", "sslrequiressl", "sslrequire", "sslverifyclient"]);

function isAll(word: string): boolean {
  return word.toLowerCase() === "all";
}

/** Whether a directive restricts who gets an answer. */
export function protects(directive: EffectiveDirective): boolean {
  const key = directive.key;
  // Most lines are neither: no lower-cased copy of their arguments (every line of a large tree is asked).
  if (!PROTECTING.has(key) && key !== "rewriterule") return false;
  const args = directive.args;
  // Lines that open rather than restrict: AuthType None, Require all granted, Allow from all, Satisfy Any. The
  // words asked one by one, no lower-cased copy of them all: a large tree has a hundred thousand such lines.
  if (key === "authtype" && args[0]?.toLowerCase() === "none") return false;
  if (key === "require" && args[0]?.toLowerCase() === "all" && args[1]?.toLowerCase() === "granted") return false;
  if (key === "allow" && args.some(isAll)) return false;
  if (key === "satisfy" && args[0]?.toLowerCase() === "any") return false;
  if (PROTECTING.has(key)) return true;
  // RewriteRule PATTERN SUBSTITUTION [F] / [forbidden] / [G] / [gone] refuses.
  const flags = (directive.args[2] ?? "").replace(/^\[|\]$/g, "").split(",").map((flag) => flag.trim().toLowerCase());
  return flags.some((flag) => flag === "f" || flag === "forbidden" || flag === "g" || flag === "gone");
}

export type Widening = "password" | "refusal";

/** A request 2.2 kept out (401: asked for a password; 403, or 500 where 2.2 could not decide) that 2.4 answered
 * (2xx or 3xx, or 404: the file system was looked at, so access was granted) on the same request with the same
 * credentials. */
export function widening(evidence: Evidence): Widening | null {
  if (evidence.field !== "status" || evidence.request === null) return null;
  const { baseline, candidate } = evidence.status;
  if (baseline === null || candidate === null || ((candidate < 200 || candidate >= 400) && candidate !== 404)) return null;
  if (baseline === 401) return "password";
  if (baseline === 403) return "refusal";
  return null;
}

/** Whether a finding may be the one behind a request: a finding in a <Location> governs the paths under it; one
 * in a <Directory> or the server cannot be tied to a URL without the Alias and DocumentRoot maps, so it may. */
export function mayGovern(finding: LintFinding, path: string): boolean {
  const location = [...finding.sections].reverse().find((label) => /^<Location(Match)?\s/i.test(label));
  if (location === undefined) return true;
  const match = /^<(Location|LocationMatch)\s+(~\s+)?"?([^">]*)"?>$/i.exec(location);
  if (!match) return true;
  const [, kind, tilde, target] = match;
  const pathOnly = path.split("?")[0]!;
  if (kind!.toLowerCase() === "locationmatch" || tilde !== undefined) {
    try {
      return new RegExp(target!).test(pathOnly);
    } catch {
      return true;
    }
  }
  const prefix = target!.replace(/\/+$/, "");
  return pathOnly === prefix || pathOnly.startsWith(`${prefix}/`) || prefix === "";
}

/** This rule's findings that may govern the evidence's request. */
export function governingFindings(evidence: Evidence, rule: string): LintFinding[] {
  const path = evidence.request?.path ?? "/";
  return evidence.findings.filter((finding) => finding.rule === rule && mayGovern(finding, path));
}

/** A security claim on a request 2.2 refused (401 or 403) and 2.4 answered, where lint found `rule`'s construct
 * governing the request: "2.2 asked for a password (401) on /x, 2.4 answered 200: `because`". */
export function wideningClaim(evidence: Evidence, rule: string, because: string): Claim | null {
  const kind = widening(evidence);
  if (kind === null) return null;
  const findings = governingFindings(evidence, rule);
  if (findings.length === 0) return null;
  const before = kind === "password" ? "asked for a password (401)" : "refused (403)";
  return {
    summary: `2.2 ${before} on ${evidence.request!.path}, 2.4 answered ${evidence.status.candidate}: ${because}`,
    lines: findings.map((finding) => ({ file: finding.file, line: finding.line })),
    severity: "security",
  };
}

/** The credentials' headers a widened request loses on 2.4 (the challenge, and Digest's Authentication-Info): a
 * claim where lint found `rule`'s construct governing the request, the same status on both sides (2.2 took the
 * credentials; 2.4 asked for none). */
export function credentialHeaderClaim(evidence: Evidence, rule: string, because: string): Claim | null {
  if (evidence.field !== "header:authentication-info" && evidence.field !== "header:www-authenticate") return null;
  if (evidence.baseline === null || evidence.candidate !== null || evidence.request === null) return null;
  const findings = governingFindings(evidence, rule);
  if (findings.length === 0) return null;
  return {
    summary: `2.2 sent ${evidence.field.slice("header:".length)} on ${evidence.request.path}, 2.4 none: ${because}`,
    lines: findings.map((finding) => ({ file: finding.file, line: finding.line })),
    severity: "security",
  };
}
