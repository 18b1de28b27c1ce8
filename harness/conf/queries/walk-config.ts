// Every directive of an evaluated config in httpd's reading order, each with the sections that enclose it. The
// queries read this flat list instead of each walking the tree, so "which vhost is this in" has one answer.
import type { EffectiveConfig, EffectiveDirective, EffectiveNode, EffectiveSection } from "../effective-config.ts";
import { walkedDirectiveAt } from "../evaluate-tree.ts";
import { appended } from "../exact-arrays.ts";

export interface WalkedDirective {
  directive: EffectiveDirective;
  /** Enclosing sections, outermost first. */
  sections: EffectiveSection[];
  /** Increasing in reading order, for "the ServerRoot in effect when this line was read": compare it with the
   * index of another entry of the same walk only. The first walk of a tree counts 0, 1, 2, ...; a later walk
   * sharing its entries (see visit) may leave gaps. */
  index: number;
}

export interface WalkedSection {
  section: EffectiveSection;
  /** Sections enclosing this one, outermost first (not the section itself). */
  sections: EffectiveSection[];
  /** As WalkedDirective's, counted with it. */
  index: number;
}

export interface WalkedConfig {
  directives: WalkedDirective[];
  sections: WalkedSection[];
  /** Directives by lower-case name, each list in reading order: queries ask by name, per vhost, many times. */
  byKey: Map<string, WalkedDirective[]>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const cache = new WeakMap<EffectiveConfig, WalkedConfig>();

/** The enclosing sections of a top-level line, one array for every walk: a top-level section's entries can be
 * shared between walks only if what encloses them is the same array. Never changed (nothing changes `sections`). */
const TOP: EffectiveSection[] = [];

/** Where the first walk of a top-level section put its entries: its own entry at `sections[firstSection]`, then
 * the directives and sections it holds, up to the ends (exclusive). */
interface SubtreeWalk {
  walked: WalkedConfig;
  firstDirective: number;
  endDirective: number;
  firstSection: number;
  endSection: number;
  /** The largest index among them. */
  lastIndex: number;
}

/** By top-level section. Evaluations share the effective nodes that read the same (evaluate-tree.ts madeBefore),
 * and lint walks a tree's 2.2 and 2.4 views, whose sections are nearly all the same objects: the second walk
 * takes the first one's entries (and their arrays of enclosing sections) instead of making its own, 260,000
 * entries and 40,000 arrays on 10,000 vhosts. It keeps the first walk's arrays alive while the section lives. */
const subtreeWalks = new WeakMap<EffectiveSection, SubtreeWalk>();

/** A walk in progress: the lists it fills, and the index its next entry may take at least. */
interface Walk {
  walked: WalkedConfig;
  next: number;
}

/** Directives and sections in reading order. Cached per config value: queries call it freely. */
export function walkConfig(config: EffectiveConfig): WalkedConfig {
  const known = cache.get(config);
  if (known) return known;
  const walked: WalkedConfig = { directives: [], sections: [], byKey: new Map() };
  const walk: Walk = { walked, next: 0 };
  // Top-level nodes here, the sections' contents in visit.
  const nodes = config.nodes;
  for (let at = 0; at < nodes.length; at++) {
    const node = nodes[at]!;
    if (node.kind === "directive") {
      addDirective(walk, node, TOP);
      continue;
    }
    const before = subtreeWalks.get(node);
    // Shared only where the indices stay increasing: the other view may have read more lines before this one.
    if (before !== undefined && before.walked !== walked && before.walked.sections[before.firstSection]!.index >= walk.next) {
      share(walk, before);
      continue;
    }
    const firstDirective = walked.directives.length;
    const firstSection = walked.sections.length;
    addSection(walk, node, TOP);
    if (before === undefined) {
      subtreeWalks.set(node, { walked, firstDirective, endDirective: walked.directives.length, firstSection, endSection: walked.sections.length, lastIndex: walk.next - 1 });
    }
  }
  // Exact length: a list grown by push keeps up to half again its length in room (17 places for a vhost's list
  // of 2), and the walk lives as long as its config.
  walked.directives = walked.directives.slice();
  walked.sections = walked.sections.slice();
  for (const [key, list] of walked.byKey) walked.byKey.set(key, list.slice());
  cache.set(config, walked);
  return walked;
}

const byServerCache = new WeakMap<EffectiveConfig, Map<EffectiveSection | null, WalkedDirective[]>>();

/** Server-context directives by server (null: the main server; else its <VirtualHost>), in reading order. One
 * list per server, not a map by name: a vhost holds a few dozen lines, and 10,000 vhosts' maps cost more memory
 * than the whole rest of the walk. Made on the first ask, apart from the walk: lint asks only of trees with a
 * few rare directives, and made with the walk it cost every lint two lists' upkeep per line. */
function directivesByServer(config: EffectiveConfig): Map<EffectiveSection | null, WalkedDirective[]> {
  const known = byServerCache.get(config);
  if (known) return known;
  const { directives } = walkConfig(config);
  const byServer = new Map<EffectiveSection | null, WalkedDirective[]>([[null, []]]);
  // The lines of one section share its enclosing sections: their server, and its list, are found once.
  let sections: readonly EffectiveSection[] | undefined;
  let list: WalkedDirective[] | undefined;
  for (let at = 0; at < directives.length; at++) {
    const entry = directives[at]!;
    if (entry.sections !== sections) {
      sections = entry.sections;
      const server = inServerContext(sections) ? enclosingVirtualHost(sections) : undefined;
      list = server === undefined ? undefined : byServer.get(server);
      if (server !== undefined && list === undefined) byServer.set(server, (list = []));
    }
    list?.push(entry);
  }
  // Exact length, as the walk's lists: they live as long as the config.
  for (const [server, entries] of byServer) byServer.set(server, entries.slice());
  byServerCache.set(config, byServer);
  return byServer;
}

function addDirective(walk: Walk, directive: EffectiveDirective, sections: EffectiveSection[]): void {
  // The evaluated directive is its first walk's entry itself (evaluate-tree.ts walkedAt); a later walk takes it
  // where it reads the same (the same enclosing array, an index still increasing), else makes an entry of its own.
  const own = walkedDirectiveAt(directive, sections, walk.next);
  let entry: WalkedDirective;
  if (own !== undefined) {
    entry = own;
    walk.next = own.index + 1;
  } else entry = { directive, sections, index: walk.next++ };
  walk.walked.directives.push(entry);
  push(walk.walked.byKey, directive.key, entry);
}

function addSection(walk: Walk, section: EffectiveSection, sections: EffectiveSection[]): void {
  walk.walked.sections.push({ section, sections, index: walk.next++ });
  visit(walk, section.children, appended(sections, section));
}

/** Adds `nodes` and what they hold to the walk. Functions of the module, not a closure made per walk: the
 * optimising compiler ties a recursive closure's calls to the closure object, so the next config's walk, with
 * a closure of its own, was thrown back to unoptimised code. */
function visit(walk: Walk, nodes: readonly EffectiveNode[], sections: EffectiveSection[]): void {
  // An index loop: the walk runs once per config, largely unoptimised, where for-of makes an iterator result per
  // node (a few MB on a large tree).
  for (let at = 0; at < nodes.length; at++) {
    const node = nodes[at]!;
    if (node.kind === "directive") addDirective(walk, node, sections);
    else addSection(walk, node, sections);
  }
}

/** Adds the entries another walk made of a top-level section, the very objects. */
function share(walk: Walk, before: SubtreeWalk): void {
  const { walked } = walk;
  const { directives, sections } = before.walked;
  for (let at = before.firstSection; at < before.endSection; at++) walked.sections.push(sections[at]!);
  for (let at = before.firstDirective; at < before.endDirective; at++) {
    const entry = directives[at]!;
    walked.directives.push(entry);
    push(walked.byKey, entry.directive.key, entry);
  }
  walk.next = before.lastIndex + 1;
}

/** The `<VirtualHost>` among `sections`, or null for the main server. */
export function enclosingVirtualHost(sections: readonly EffectiveSection[]): EffectiveSection | null {
  return sections.find((section) => section.key === "virtualhost") ?? null;
}

/** Whether a directive sits in the server's own context (main server or a vhost), not in a Directory,
 * Location, Files, Limit, Proxy or If section. Conditional sections the evaluator kept do not count. */
export function inServerContext(sections: readonly EffectiveSection[]): boolean {
  return sections.every((section) => section.key === "virtualhost" || CONDITIONAL.has(section.key));
}

const CONDITIONAL = new Set(["ifmodule", "ifdefine", "ifversion", "iffile", "ifdirective", "ifsection"]);

/** The section's opening as written (`<VirtualHost *:80>`), for a directive's context. */
export function sectionLabel(section: EffectiveSection): string {
  // argsText is what httpd reads up to the last `>`, without it (parse-file.ts).
  const args = section.node.argsText.trim();
  return args === "" ? `<${section.name}>` : `<${section.name} ${args}>`;
}

/** The directives with one of `keys` (lower-case names), in reading order. */
export function directivesNamed(config: EffectiveConfig, ...keys: string[]): WalkedDirective[] {
  const { byKey } = walkConfig(config);
  const found = [...new Set(keys)].flatMap((key) => byKey.get(key) ?? []);
  return keys.length > 1 ? found.sort((a, b) => a.index - b.index) : found;
}

/** The directives with one of `keys` that configure one server itself: the main server (`vhost` null) or one
 * `<VirtualHost>`, outside any Directory/Location/Files section. */
export function serverDirectives(config: EffectiveConfig, vhost: EffectiveSection | null, ...keys: string[]): WalkedDirective[] {
  const own = directivesByServer(config).get(vhost);
  if (own === undefined) return [];
  return own.filter((entry) => keys.includes(entry.directive.key));
}

/** Per config value: the sections of the main server (outside every <VirtualHost>) and of each vhost (inside it),
 * <VirtualHost> sections themselves left out; and, per vhost, the two merged in reading order. */
const sectionsByServerCache = new WeakMap<EffectiveConfig, { own: Map<EffectiveSection | null, WalkedSection[]>; merged: Map<EffectiveSection, WalkedSection[]> }>();

/** The sections that can apply to a request of one server: the main server's (`vhost` null) and, for a vhost, its
 * own besides, in reading order; <VirtualHost> sections themselves are not among them. Cached: the probe planner
 * asks once per request, and a walk of every section per request is quadratic in vhosts. */
export function serverSections(config: EffectiveConfig, vhost: EffectiveSection | null): readonly WalkedSection[] {
  let cached = sectionsByServerCache.get(config);
  if (cached === undefined) {
    const own = new Map<EffectiveSection | null, WalkedSection[]>([[null, []]]);
    for (const entry of walkConfig(config).sections) {
      if (entry.section.key === "virtualhost") continue;
      push(own, enclosingVirtualHost(entry.sections), entry);
    }
    cached = { own, merged: new Map() };
    sectionsByServerCache.set(config, cached);
  }
  const main = cached.own.get(null)!;
  if (vhost === null) return main;
  const known = cached.merged.get(vhost);
  if (known) return known;
  const mine = cached.own.get(vhost) ?? [];
  // Both lists are in reading order: merge them.
  const merged: WalkedSection[] = [];
  let i = 0;
  let j = 0;
  while (i < main.length || j < mine.length) merged.push(j >= mine.length || (i < main.length && main[i]!.index < mine[j]!.index) ? main[i++]! : mine[j++]!);
  cached.merged.set(vhost, merged);
  return merged;
}

/** The `<VirtualHost>` sections in reading order. */
export function virtualHostSections(config: EffectiveConfig): EffectiveSection[] {
  return walkConfig(config)
    .sections.filter((entry) => entry.section.key === "virtualhost")
    .map((entry) => entry.section);
}
