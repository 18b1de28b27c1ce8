// Pure: what each cell of a probe set should get, predicted without a server, on 2.2 (the tree as it runs today,
// model-22) and on the 2.4 target (the same tree unchanged, model-24): granted and served, executed, source served,
// denied, auth required, or a per-request configuration error (500). The per-directory sections a request meets
// come from conf/queries/request-sections.ts; around a fragment, the target image's stock config's own sections
// (stock-access.ts: the official images', Debian's, RHEL's) are merged in where httpd merges them. Handlers: a
// ScriptAlias, SetHandler or AddHandler cgi-script runs a script only when a CGI module is loaded and (outside a
// ScriptAlias) Options ExecCGI is on, else 403; with no CGI module, the default handler sends its source. Parsed
// pages likewise with mod_include, Options Includes and the INCLUDES filter or server-parsed handler.
// Where the models do not cover a form (access lines in <Limit>, regex <Directory>, a pattern JavaScript may read
// unlike PCRE, a Require provider or expression the model does not know, a URL a ProxyPass, Redirect or RewriteRule
// may take, a .htaccess httpd reads on the way, an index page other than index.html, a client whose address the
// harness picks and a rule that names addresses), the cell is "unpredicted" with the reason: never a guess. The
// differential fuzzer (test/fuzz/) and every configs/ sample (test/containers/rules/predicted-cells-match-real)
// check these predictions against real servers; lint's claims about who gets what on 2.4 read the same function.
import { posix } from "node:path";
import type { EffectiveConfig, EffectiveNode, EffectiveSection } from "../conf/effective-config.ts";
import { aliasTargets } from "../conf/queries/alias-targets.ts";
import { proxiedBy, proxyAliasMatches } from "../conf/queries/proxy-pass.ts";
import { requestPath, requestSections, requestVhost, sectionsAt } from "../conf/queries/request-sections.ts";
import { serverDirectives } from "../conf/queries/walk-config.ts";
import { portableRegex } from "../conf/portable-regex.ts";
import type { AccessClient, AccessCredentials, AccessRequest, AccessStatus } from "../access/access-request.ts";
import { directoryAccess24 } from "../access/directory-state-24.ts";
import { decide22, EMPTY_STATE_22, merge22, type Section22, type State22 } from "../access/model-22.ts";
import { decide24, type State24, unmodelledAuthz } from "../access/model-24.ts";
import { sectionAccess } from "../access/section-access.ts";
import type { HostConfig22 } from "../access/model-22.ts";
import type { Authz } from "../access/model-24.ts";
import type { Probe, ProbeClient, ProbeSet } from "../plan/probes/probe.ts";
import type { LintContext } from "./lint-context.ts";
import { stockConfig, stockDocumentRoot } from "./stock-access.ts";

export const PREDICTED_OUTCOMES = ["served", "executed", "source-served", "denied", "auth-required", "redirected", "error"] as const;
export type PredictedOutcome = (typeof PREDICTED_OUTCOMES)[number];

export type Prediction = { outcome: PredictedOutcome; why: string } | { outcome: "unpredicted"; why: string };

export interface CellPrediction {
  cell: string;
  probe: string;
  "2.2": Prediction;
  "2.4": Prediction;
}

export interface PredictOptions {
  /** Where URLs map when the config sets no DocumentRoot (a fragment: the image's own). */
  defaultRoot: string | null;
  /** The same on the 2.4 target. When not given: for a fragment, its stock config's DocumentRoot (stock-access.ts:
   * /var/www/html on Debian and RHEL, the official image's htdocs), else defaultRoot. */
  defaultRoot24?: string | null;
}

type Version = "2.2" | "2.4";

/** One section's access and handler lines, for either model. */
interface SectionFacts {
  label: string;
  /** Merge order: 0 plain <Directory> (by depth), 1 regex directory, 2 <Files>, 3 <Location>. */
  phase: number;
  depth: number;
  access22: Section22;
  authz24: Authz | null;
  compat24: HostConfig22 | null;
  satisfy24: "all" | "any" | null;
  authType: boolean;
  /** The AuthType the section sets ("basic", "digest"), null when it sets none. */
  authTypeName: string | null;
  options: string[][];
  setHandler: string | null;
  addHandlers: Array<{ handler: string; extensions: string[] }>;
  outputFilters: Array<{ filter: string; extensions: string[] }>;
  /** A plain <Directory>'s path (no trailing slash, "/" for the root); null for every other section. */
  dirPath: string | null;
  /** The section's own AllowOverride words (lower case), null when it sets none. */
  allowOverride: string[] | null;
  /** The section's own DirectoryIndex names, null when it sets none. */
  directoryIndex: string[] | null;
  /** A line of the section that may answer or change the URL before the file does (Redirect*, RewriteRule). */
  diverts: string[];
  /** Why each model cannot read the section; null when it can. */
  obstacle: Record<Version, string | null>;
}

const NESTED = new Set(["directory", "directorymatch", "location", "locationmatch", "files", "filesmatch", "proxy", "proxymatch", "virtualhost"]);

function ownDirectives(nodes: readonly EffectiveNode[], out: Array<{ key: string; args: string[] }> = []): Array<{ key: string; args: string[] }> {
  for (const node of nodes) {
    if (node.kind === "section") {
      if (!NESTED.has(node.key)) ownDirectives(node.children, out);
    } else out.push({ key: node.key, args: node.args });
  }
  return out;
}

type HandlerFacts = Pick<SectionFacts, "options" | "setHandler" | "addHandlers" | "outputFilters" | "allowOverride" | "directoryIndex" | "diverts">;

const DIVERTING = new Set(["redirect", "redirectmatch", "redirectpermanent", "redirecttemp", "rewriterule"]);

function handlerFacts(lines: ReadonlyArray<{ key: string; args: string[] }>): HandlerFacts {
  const facts: HandlerFacts = { options: [], setHandler: null, addHandlers: [], outputFilters: [], allowOverride: null, directoryIndex: null, diverts: [] };
  for (const { key, args } of lines) {
    const first = (args[0] ?? "").replace(/^"|"$/g, "").toLowerCase();
    if (key === "options") facts.options.push(args.map((a) => a.toLowerCase()));
    else if (key === "sethandler") facts.setHandler = first;
    else if (key === "addhandler") facts.addHandlers.push({ handler: first, extensions: args.slice(1).map(extensionOf) });
    else if (key === "addtype" && first === "text/x-server-parsed-html") facts.addHandlers.push({ handler: "server-parsed", extensions: args.slice(1).map(extensionOf) });
    else if (key === "addoutputfilter") facts.outputFilters.push({ filter: first, extensions: args.slice(1).map(extensionOf) });
    else if (key === "allowoverride") facts.allowOverride = args.map((a) => a.toLowerCase());
    else if (key === "directoryindex") facts.directoryIndex = args.map((a) => a.replace(/^"|"$/g, ""));
    else if (DIVERTING.has(key)) facts.diverts.push(`${key} ${args.join(" ")}`);
  }
  return facts;
}

function extensionOf(word: string): string {
  const clean = word.toLowerCase().replace(/^"|"$/g, "");
  return clean.startsWith(".") ? clean : `.${clean}`;
}

function phaseOf(section: EffectiveSection): number {
  const regex = section.key.endsWith("match") || section.args[0] === "~";
  if (section.key === "directory" || section.key === "directorymatch") return regex ? 1 : 0;
  if (section.key === "files" || section.key === "filesmatch") return 2;
  return 3;
}

function factsOf(section: EffectiveSection, label = ""): SectionFacts {
  const access = sectionAccess(section);
  const access24 = directoryAccess24(section);
  const regex = section.key.endsWith("match") || section.args[0] === "~";
  const pattern = (section.args.at(-1) ?? "").replace(/^"|"$/g, "");
  let shape: string | null = null;
  // <Files ~>/<FilesMatch> test the base name, <LocationMatch> the URL path: a portable pattern is read exactly.
  // A regex <Directory> applies to subdirectories in ways 2.2 and 2.4 differ on: not modelled.
  if (regex && (section.key === "directory" || section.key === "directorymatch" || !portableRegex(pattern))) shape = `<${section.name} ~ ${section.args.at(-1)}>: regex sections are matched approximately`;
  if (section.key === "proxy" || section.key === "proxymatch") shape ??= "a proxy section";
  const merging = ownDirectives(section.children).find((d) => d.key === "authmerging" && (d.args[0] ?? "").toLowerCase() !== "off");
  const plainDirectory = section.key === "directory" && !regex;
  const own = ownDirectives(section.children);
  return {
    label: label || `<${section.name} ${section.args.join(" ")}> (${section.span.file}:${section.span.line})`,
    phase: phaseOf(section),
    depth: pattern.split("/").filter(Boolean).length,
    access22: access.own,
    authz24: access24.authz,
    compat24: access24.compat,
    satisfy24: access24.satisfy,
    authType: access24.authType,
    authTypeName: own.filter((d) => d.key === "authtype").at(-1)?.args[0]?.toLowerCase() ?? null,
    ...handlerFacts(own),
    dirPath: plainDirectory ? pattern.replace(/\/+$/, "") || "/" : null,
    obstacle: { "2.2": shape ?? access.obstacle, "2.4": shape ?? (merging ? `AuthMerging ${merging.args.join(" ")} is not modelled` : access.obstacle24) },
  };
}

// ---- the stock config around a fragment (stock-access.ts: the official, Debian and RHEL images') -----------

const stockFacts = new WeakMap<EffectiveSection, SectionFacts>();

/** The stock config's sections a request for `url` (mapped to `file` by the fragment's view) meets. */
function stockSections(stock: EffectiveConfig, url: string, file: string): SectionFacts[] {
  return sectionsAt(stock, null, url, file).map((section) => {
    let facts = stockFacts.get(section);
    if (facts === undefined) stockFacts.set(section, (facts = factsOf(section, `<${section.name} ${section.args.join(" ")}> (stock httpd.conf)`)));
    return facts;
  });
}

/** A config's own section's facts, read once per section (a value never changed once evaluated): every probe
 * that meets the section used to read its lines again. The facts are never changed once made. */
const ownFactsCache = new WeakMap<EffectiveSection, SectionFacts>();

function ownFacts(section: EffectiveSection): SectionFacts {
  let facts = ownFactsCache.get(section);
  if (facts === undefined) ownFactsCache.set(section, (facts = factsOf(section)));
  return facts;
}

// ---- one request on one side ----------------------------------------------------------------------------------

interface Ask {
  config: EffectiveConfig;
  version: Version;
  fragment: boolean;
  /** The image's stock sections around a fragment (stock-access.ts); null: not known, a fragment's cells are
   * unpredicted. */
  stock: EffectiveConfig | null;
  loaded: ReadonlySet<string>;
  defaultRoot: string | null;
  /** Directories (inside the server) holding a per-directory file (.htaccess) of the tree. */
  accessDirs: readonly string[];
}

/** The sections in merge order, the file the URL maps to, and the ScriptAlias that takes it; or why not. */
function sectionsFor(ask: Ask, probe: Probe, url: string): { sections: SectionFacts[]; file: string; scriptAlias: boolean } | { unpredicted: string } {
  const vhost = requestVhost(ask.config, probe.target);
  const file = requestPath(ask.config, vhost, url, ask.defaultRoot);
  if (file === null) return { unpredicted: "no DocumentRoot or Alias maps the URL" };
  if (aliasTargets(ask.config).some((a) => a.regex)) return { unpredicted: "an AliasMatch or ScriptAliasMatch may map the URL" };
  const alias = aliasTargets(ask.config)
    .filter((a) => !a.regex && a.url !== null && a.path !== null && (a.vhost === null || a.vhost === vhost))
    .filter((a) => url === a.url || url.startsWith(a.url!.endsWith("/") ? a.url! : `${a.url}/`))
    .sort((a, b) => b.url!.length - a.url!.length)[0];
  const own = requestSections(ask.config, probe.target, url, ask.defaultRoot).map(ownFacts);
  const around = !ask.fragment || ask.stock === null ? [] : stockSections(ask.stock, url, file);
  // Stable: the stock config is read before the fragment, so at equal phase and depth its section merges first.
  const sections = [...around, ...own].map((facts, index) => ({ facts, index }))
    .sort((a, b) => a.facts.phase - b.facts.phase || (a.facts.phase === 0 ? a.facts.depth - b.facts.depth : 0) || a.index - b.index)
    .map((entry) => entry.facts);
  return { sections, file, scriptAlias: alias?.cgi === true };
}

function accessStatus(ask: Ask, sections: readonly SectionFacts[], request: AccessRequest): AccessStatus {
  if (ask.version === "2.2") {
    const state: State22 = sections.reduce((s, section) => merge22(s, section.access22), EMPTY_STATE_22);
    return decide22(state, request);
  }
  const state: State24 = { authz: null, compat: null, satisfy: "all", authType: false };
  for (const section of sections) {
    if (section.authz24 !== null) state.authz = section.authz24;
    // Satisfy is mod_access_compat's in 2.4, whose per-directory config has no merge function: a section with any
    // of Order, Allow, Deny or Satisfy replaces all four (real 2.4.68: a child <Directory> with only `Allow from`
    // under a parent's `Satisfy Any` asks for credentials; the differential fuzzer's fixtures).
    if (section.compat24 !== null || section.satisfy24 !== null) {
      state.compat = section.compat24;
      state.satisfy = section.satisfy24 ?? "all";
    }
    if (section.authType) state.authType = true;
  }
  return decide24(state, request);
}

/** Options as httpd merges them: a line with any word without + or - replaces; +/- words change the inherited. */
function optionsAt(sections: readonly SectionFacts[]): Set<string> {
  let on = new Set<string>();
  const expand = (word: string): string[] => (word === "all" ? ["indexes", "includes", "followsymlinks", "execcgi"] : word === "none" ? [] : [word]);
  for (const section of sections) {
    for (const line of section.options) {
      const relative = line.every((w) => w.startsWith("+") || w.startsWith("-"));
      if (!relative) on = new Set();
      for (const word of line) {
        const bare = word.replace(/^[+-]/, "");
        for (const w of expand(bare)) {
          if (word.startsWith("-")) on.delete(w);
          else on.add(w);
        }
        if (word.startsWith("-") && bare === "includes") on.delete("includesnoexec");
      }
    }
  }
  if (on.has("includesnoexec")) on.add("includes");
  return on;
}

interface HandlerView {
  handler: string | null;
  includesFilter: boolean;
}

function handlerAt(ask: Ask, sections: readonly SectionFacts[], file: string, scriptAlias: boolean, vhost: EffectiveSection | null): HandlerView {
  const name = posix.basename(file).toLowerCase();
  const matches = (extensions: readonly string[]) => extensions.some((ext) => name.includes(ext));
  // Server-level lines first (the main server's, then the vhost's), then the sections in merge order.
  const global = [...serverDirectives(ask.config, null, "addhandler", "addtype", "addoutputfilter", "sethandler"), ...(vhost === null ? [] : serverDirectives(ask.config, vhost, "addhandler", "addtype", "addoutputfilter", "sethandler"))]
    .filter((entry) => entry.sections.every((s) => s.key === "virtualhost" || !NESTED.has(s.key)))
    .map((entry) => ({ key: entry.directive.key, args: entry.directive.args }));
  const layers = [handlerFacts(global), ...sections];
  let handler: string | null = scriptAlias ? "cgi-script" : null;
  let includesFilter = false;
  for (const layer of layers) {
    for (const add of layer.addHandlers) if (matches(add.extensions)) handler = add.handler;
    for (const filter of layer.outputFilters) if (matches(filter.extensions) && filter.filter.split(";").includes("includes")) includesFilter = true;
  }
  // SetHandler outranks AddHandler; the nearest wins, "None" clears it.
  for (const layer of layers) if (layer.setHandler !== null) handler = layer.setHandler === "none" ? handler : layer.setHandler;
  return { handler, includesFilter };
}

function clientOf(client: ProbeClient | undefined): AccessClient[] | null {
  if (client === undefined) return null;
  const hostname = client.domain === null ? null : client.domain.startsWith(".") ? `probe${client.domain}` : client.domain;
  if (client.address !== null) return [{ address: client.address, hostname, env: new Set() }];
  // The harness's own client: an address the engine picks. Predicted only when the answer does not depend on it.
  return ["192.0.2.201", "172.18.0.201", "10.254.0.201"].map((address) => ({ address, hostname, env: new Set<string>() }));
}

function credentialsOf(probe: Probe, set: ProbeSet): AccessCredentials {
  switch (probe.credentials) {
    case "none":
      return { state: "none" };
    case "wrong-password":
      return { state: "wrong-password" };
    case "other-realm":
      return { state: "unknown-user" };
    case "valid": {
      const user = set.world.users.find((u) => u.name === probe.user);
      return { state: "valid", user: probe.user ?? "", groups: user?.groups ?? [] };
    }
  }
}

function fromStatus(status: AccessStatus, why: string): Prediction | null {
  if (status === 401) return { outcome: "auth-required", why };
  if (status === 403) return { outcome: "denied", why };
  if (status === 500) return { outcome: "error", why: `${why}: Require without AuthType` };
  return null;
}

/** The server-level lines of `keys` that the main server and the vhost read (stock config's first). */
function serverLines(ask: Ask, vhost: EffectiveSection | null, ...keys: string[]): Array<{ key: string; args: string[] }> {
  const entries = [
    ...(ask.fragment && ask.stock !== null ? serverDirectives(ask.stock, null, ...keys) : []),
    ...serverDirectives(ask.config, null, ...keys),
    ...(vhost === null ? [] : serverDirectives(ask.config, vhost, ...keys)),
  ];
  return entries.filter((entry) => entry.sections.every((s) => s.key === "virtualhost" || !NESTED.has(s.key))).map((entry) => ({ key: entry.directive.key, args: entry.directive.args }));
}

/** RewriteConds on %{HTTP_HOST} (the Host header the probe sends), chained as mod_rewrite chains them (AND, or
 * [OR] with the next): whether they hold; null when one tests something else or the Host is not known. */
function hostConditions(conds: readonly string[][], probe: Probe): boolean | null {
  if (conds.length === 0) return true;
  if (probe.target.host === null) return null;
  const host = probe.target.port === (probe.target.tls ? 443 : 80) ? probe.target.host : `${probe.target.host}:${probe.target.port}`;
  let all = true;
  let pending = false;
  for (const [test, raw = "", flags = ""] of conds) {
    if (test !== "%{HTTP_HOST}") return null;
    const negated = raw.startsWith("!");
    const pattern = raw.replace(/^!/, "").replace(/^"|"$/g, "");
    if (!portableRegex(pattern)) return null;
    const words = flags.replace(/^\[|\]$/g, "").toLowerCase().split(",");
    const value = new RegExp(pattern, words.includes("nc") || words.includes("nocase") ? "i" : "").test(host) !== negated;
    if (words.includes("or") || words.includes("ornext")) {
      pending ||= value;
      continue;
    }
    all &&= pending || value;
    pending = false;
  }
  return all;
}

/** Why the answer may come from somewhere the models do not follow before the file's own: a reverse proxy, a
 * Redirect or RewriteRule that may take the URL, a per-directory file (.htaccess) httpd reads on the way. */
function divertedBy(ask: Ask, probe: Probe, url: string, sections: readonly SectionFacts[], file: string): string | null {
  const vhost = requestVhost(ask.config, probe.target);
  const proxy = ask.loaded.has("proxy_module") ? proxiedBy(ask.config, vhost, url) : null;
  if (proxy !== null) return `${proxy.raw} (${proxy.span.file}:${proxy.span.line}): the backend answers, not the file system`;
  // Server-level lines in order, each RewriteRule with the RewriteConds written before it.
  const server: Array<{ line: string; conds: string[][] }> = [];
  let conds: string[][] = [];
  for (const { key, args } of serverLines(ask, vhost, ...DIVERTING, "rewritecond")) {
    if (key === "rewritecond") conds.push(args);
    else {
      server.push({ line: `${key} ${args.join(" ")}`, conds: key === "rewriterule" ? conds : [] });
      if (key === "rewriterule") conds = [];
    }
  }
  const perDirectory = sections.flatMap((s) => s.diverts).map((line) => ({ line, conds: null }));
  for (const { line, conds: before } of [...server, ...perDirectory]) {
    const [key, ...args] = line.split(" ");
    if (key === "rewriterule") {
      if (!ask.loaded.has("rewrite_module")) continue;
      // Outside per-directory sections a rule's pattern is matched against the URL path first, then its
      // RewriteConds: a portable pattern that does not match, or Host conditions that fail, leave the request alone.
      if (before !== null) {
        const negated = (args[0] ?? "").startsWith("!");
        const pattern = (args[0] ?? "").replace(/^!/, "").replace(/^"|"$/g, "");
        const nocase = /\[[^\]]*\b(NC|nocase)\b[^\]]*\]/i.test(args.slice(2).join(" "));
        if (portableRegex(pattern) && new RegExp(pattern, nocase ? "i" : "").test(url) === negated) continue;
        if (hostConditions(before, probe) === false) continue;
      }
      return `${line}: mod_rewrite is not modelled`;
    }
    if (!ask.loaded.has("alias_module")) continue;
    // In a section a Redirect takes the section's own URL (2.4's one-argument form): whatever it names, it answers.
    if (before === null) return `${line}: a redirect in a section the request meets answers`;
    if (key === "redirectmatch") {
      const pattern = /^(permanent|temp|seeother|gone|\d{3})$/i.test(args[0] ?? "") ? args[1] : args[0];
      if (pattern === undefined || !portableRegex(pattern) || new RegExp(pattern).test(url)) return `${line}: a redirect may answer`;
      continue;
    }
    const prefix = key === "redirect" && /^(permanent|temp|seeother|gone|\d{3})$/i.test(args[0] ?? "") ? args[1] : args[0];
    if (prefix === undefined || proxyAliasMatches(url, prefix.replace(/^"|"$/g, ""))) return `${line}: a redirect answers`;
  }
  // Per-directory files: read wherever the AllowOverride in effect at their directory is not None (its default is
  // All on 2.2, None on 2.4: row d1).
  for (const dir of ask.accessDirs) {
    if (!(file === dir || file.startsWith(`${dir}/`))) continue;
    let override = ask.version === "2.2" ? ["all"] : ["none"];
    for (const section of sections) if (section.dirPath !== null && section.allowOverride !== null && (section.dirPath === "/" || dir === section.dirPath || dir.startsWith(`${section.dirPath}/`))) override = section.allowOverride;
    if (!(override.length === 1 && override[0] === "none")) return `${dir}/ holds a per-directory file that httpd reads (AllowOverride ${override.join(" ")}): .htaccess files are not modelled`;
  }
  return null;
}

/** The index page mod_dir looks for first (DirectoryIndex: the nearest line; index.html when none). */
function indexPage(ask: Ask, probe: Probe, sections: readonly SectionFacts[]): string[] {
  const vhost = requestVhost(ask.config, probe.target);
  let names = ["index.html"];
  for (const layer of [handlerFacts(serverLines(ask, vhost, "directoryindex")), ...sections]) if (layer.directoryIndex !== null) names = layer.directoryIndex;
  return names;
}

function predictOne(ask: Ask, probe: Probe, set: ProbeSet): Prediction {
  if (ask.fragment && ask.stock === null) return { outcome: "unpredicted", why: "the target's stock config is not known (an httpd -M file names only its modules)" };
  if (probe.method !== "GET") return { outcome: "unpredicted", why: `method ${probe.method}: access by method (<Limit>) is not modelled here` };
  const url = probe.path.split("?")[0]!;
  const clients = clientOf(set.clients.find((c) => c.id === probe.client));
  if (clients === null) return { outcome: "unpredicted", why: `no client ${probe.client}` };
  const credentials = credentialsOf(probe, set);
  const urls = [url];
  const statuses = new Set<AccessStatus>();
  let found: { sections: SectionFacts[]; file: string; scriptAlias: boolean } | null = null;
  for (let i = 0; i < urls.length; i++) {
    const each = urls[i]!;
    const got = sectionsFor(ask, probe, each);
    if ("unpredicted" in got) return { outcome: "unpredicted", why: got.unpredicted };
    const obstacle = got.sections.find((s) => s.obstacle[ask.version] !== null);
    if (obstacle) return { outcome: "unpredicted", why: `${obstacle.label}: ${obstacle.obstacle[ask.version]}` };
    if (ask.version === "2.4") {
      // AuthMerging Off: the nearest section with Require lines decides.
      const authz = got.sections.map((s) => s.authz24).filter((a) => a !== null).at(-1);
      const why = authz === undefined ? null : unmodelledAuthz(authz);
      if (why !== null) return { outcome: "unpredicted", why };
    }
    const diverted = divertedBy(ask, probe, each, got.sections, got.file);
    if (diverted !== null) return { outcome: "unpredicted", why: diverted };
    // A directory's answer is its index page's, reached by mod_dir's subrequest: both must be decided alike. The
    // probe world plants index.html; another page first in DirectoryIndex may exist (the tree's own) and answer.
    if (i === 0 && probe.object.kind === "index" && url.endsWith("/")) {
      const names = indexPage(ask, probe, got.sections);
      if (names[0] !== "index.html") return { outcome: "unpredicted", why: `DirectoryIndex ${names.join(" ")}: which page answers depends on the files that exist` };
      urls.push(`${url}index.html`);
    }
    for (const client of clients) statuses.add(accessStatus(ask, got.sections, { client, credentials, method: probe.method, filename: got.file }));
    found ??= got;
  }
  if (statuses.size > 1) {
    return { outcome: "unpredicted", why: clients.length > 1 ? "the harness's own client: the answer depends on an address the engine picks" : "the directory and its index page are decided differently" };
  }
  const status = [...statuses][0]!;
  const where = found!.sections.map((s) => s.label).join(" → ") || "no section";
  // Authentication runs (the answer without any AuthType would be "Require without AuthType"): the AuthType's
  // module must be loaded, else httpd answers 500 (2.4.68: AH01796 "AuthType Digest configured without
  // corresponding module"; the differential fuzzer's fixtures).
  const strip = (sections: readonly SectionFacts[]) => sections.map((s) => ({ ...s, authType: false, access22: { ...s.access22, authType: false } }));
  const authenticates = status !== 500 && clients.some((client) => accessStatus(ask, strip(found!.sections), { client, credentials, method: probe.method, filename: found!.file }) === 500);
  const authTypeName = found!.sections.map((s) => s.authTypeName).filter((n) => n !== null).at(-1) ?? null;
  const authModule = authTypeName === "basic" ? "auth_basic_module" : authTypeName === "digest" ? "auth_digest_module" : null;
  if (authenticates) {
    if (authModule === null) return { outcome: "unpredicted", why: `AuthType ${authTypeName}: not modelled` };
    if (!ask.loaded.has(authModule)) return { outcome: "error", why: `AuthType ${authTypeName} without ${authModule} loaded (${where})` };
  }
  const refused = fromStatus(status, where);
  if (refused !== null) return refused;
  // A URL naming a directory without its slash (the world planted objects below it): mod_dir redirects.
  if (!url.endsWith("/") && set.probes.some((p) => p.path.startsWith(`${url}/`))) return { outcome: "redirected", why: `a directory asked for without its trailing slash: mod_dir redirects (${where})` };
  const vhost = requestVhost(ask.config, probe.target);
  const kind = probe.object.kind;
  const cgiLoaded = ask.loaded.has("cgi_module") || ask.loaded.has("cgid_module");
  // A ScriptAlias'd directory's own URL: mod_cgi(d) will not run a directory (403, "attempt to invoke directory as
  // script"; real 2.2.34 and 2.4.68 on debian-ssl, official-stock and staging-lock's /cgi-bin/ and hooks/).
  if (found!.scriptAlias && kind === "index") return cgiLoaded ? { outcome: "denied", why: `a ScriptAlias'd directory: the CGI handler refuses to run a directory (${where})` } : { outcome: "unpredicted", why: "a ScriptAlias directory's own URL without a CGI module: no index page is planted there" };
  const handler = handlerAt(ask, found!.sections, found!.file, found!.scriptAlias, vhost);
  const options = optionsAt(found!.sections);
  if (handler.handler === "cgi-script") {
    if (!cgiLoaded) return kind === "cgi" ? { outcome: "source-served", why: `cgi-script, and no CGI module is loaded: the default handler sends the file (${where})` } : { outcome: "served", why: "cgi-script without a CGI module: served as a file" };
    if (kind !== "cgi") return { outcome: "unpredicted", why: `a ${kind} object under the cgi-script handler` };
    if (!found!.scriptAlias && !options.has("execcgi")) return { outcome: "denied", why: `cgi-script where Options ExecCGI is off (${where})` };
    return { outcome: "executed", why: `cgi-script with ${found!.scriptAlias ? "ScriptAlias" : "Options ExecCGI"} (${where})` };
  }
  if (handler.handler !== null && handler.handler !== "server-parsed" && handler.handler !== "default-handler") return { outcome: "unpredicted", why: `handler ${handler.handler} is not modelled` };
  if (kind === "cgi") return { outcome: "source-served", why: `no cgi-script handler applies: the script is sent as a file (${where})` };
  if (kind === "ssi") {
    const parsed = ask.loaded.has("include_module") && options.has("includes") && (handler.handler === "server-parsed" || handler.includesFilter);
    return parsed ? { outcome: "executed", why: `mod_include with Options Includes (${where})` } : { outcome: "source-served", why: `the page is not parsed: ${ask.loaded.has("include_module") ? (options.has("includes") ? "no INCLUDES filter or server-parsed handler" : "Options Includes is off") : "mod_include is not loaded"} (${where})` };
  }
  if (handler.handler === "server-parsed") return { outcome: "unpredicted", why: "a plain file under the server-parsed handler" };
  return { outcome: "served", why: `granted (${where})` };
}

/** The directories (inside the server) where the tree holds a per-directory file (AccessFileName, .htaccess). */
function accessFileDirs(context: LintContext): string[] {
  const names = new Set(["source", "target"].flatMap((side) => serverDirectives(side === "source" ? context.source : context.target, null, "accessfilename").flatMap((e) => e.directive.args)));
  if (names.size === 0) names.add(".htaccess");
  const mount = context.tree.source.mount.replace(/\/+$/, "");
  const config = new Set([...context.source.files, ...context.target.files]);
  return [...context.tree.source.files.keys()].filter((path) => names.has(posix.basename(path)) && !config.has(path)).map((path) => posix.dirname(`${mount}/${path}`));
}

/** Every probed cell's predicted outcome on 2.2 (the tree as it runs today) and on the 2.4 target (unchanged). */
export function predictCells(context: LintContext, set: ProbeSet, options: PredictOptions): CellPrediction[] {
  const fragment = context.tree.layout === "fragment";
  const accessDirs = accessFileDirs(context);
  const stock24 = stockConfig(context.targetModules.name, "2.4");
  const asks: Record<Version, Ask> = {
    // A fragment's 2.2 side runs on the official 2.2 image's stock config.
    "2.2": { config: context.source, version: "2.2", fragment, stock: stockConfig("official", "2.2"), loaded: context.loaded.source, defaultRoot: options.defaultRoot, accessDirs },
    "2.4": { config: context.target, version: "2.4", fragment, stock: stock24, loaded: context.loaded.target, defaultRoot: options.defaultRoot24 !== undefined ? options.defaultRoot24 : fragment && stock24 !== null ? stockDocumentRoot(context.targetModules.name) : options.defaultRoot, accessDirs },
  };
  return set.probes.map((probe) => ({ cell: probe.cell, probe: probe.id, "2.2": predictOne(asks["2.2"], probe, set), "2.4": predictOne(asks["2.4"], probe, set) }));
}
