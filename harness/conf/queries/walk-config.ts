// Every directive of an evaluated config in httpd's reading order, each with the sections that enclose it. The
// queries read this flat list instead of each walking the tree, so "which vhost is this in" has one answer.
import type { EffectiveConfig, EffectiveDirective, EffectiveSection } from "../effective-config.ts";
import { appended } from "../exact-arrays.ts";

export interface WalkedDirective {
  directive: EffectiveDirective;
  /** Enclosing sections, outermost first. */
  sections: EffectiveSection[];
  /** Position in reading order (0-based), for "the ServerRoot in effect when this line was read". */
  index: number;
}

export interface WalkedSection {
  section: EffectiveSection;
  /** Sections enclosing this one, outermost first (not the section itself). */
  sections: EffectiveSection[];
  index: number;
}

export interface WalkedConfig {
  directives: WalkedDirective[];
  sections: WalkedSection[];
  /** Directives by lower-case name, each list in reading order: queries ask by name, per vhost, many times. */
  byKey: Map<string, WalkedDirective[]>;
  /** Server-context directives by server (null: the main server; else its <VirtualHost>), in reading order. One
   * list per server, not a map by name: a vhost holds a few dozen lines, and 10,000 vhosts' maps cost more
   * memory than the whole rest of the walk. */
  byServer: Map<EffectiveSection | null, WalkedDirective[]>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const cache = new WeakMap<EffectiveConfig, WalkedConfig>();

/** Directives and sections in reading order. Cached per config value: queries call it freely. */
export function walkConfig(config: EffectiveConfig): WalkedConfig {
  const known = cache.get(config);
  if (known) return known;
  const walked: WalkedConfig = { directives: [], sections: [], byKey: new Map(), byServer: new Map([[null, []]]) };
  let index = 0;
  const visit = (nodes: EffectiveConfig["nodes"], sections: EffectiveSection[]): void => {
    // The lines of one section share its enclosing sections: their server, and its list, are asked once.
    const server = inServerContext(sections) ? enclosingVirtualHost(sections) : undefined;
    let serverList: WalkedDirective[] | undefined;
    // An index loop: the walk runs once per config, largely unoptimised, where for-of makes an iterator
    // result per node (a few MB on a large tree).
    for (let at = 0; at < nodes.length; at++) {
      const node = nodes[at]!;
      if (node.kind === "directive") {
        const entry = { directive: node, sections, index: index++ };
        walked.directives.push(entry);
        push(walked.byKey, node.key, entry);
        if (server !== undefined) {
          if (serverList === undefined) {
            serverList = walked.byServer.get(server);
            if (serverList === undefined) walked.byServer.set(server, (serverList = []));
          }
          serverList.push(entry);
        }
      } else {
        walked.sections.push({ section: node, sections, index: index++ });
        visit(node.children, appended(sections, node));
      }
    }
  };
  visit(config.nodes, []);
  // Exact length: a list grown by push keeps up to half again its length in room (17 places for a vhost's list
  // of 2), and the walk lives as long as its config.
  walked.directives = walked.directives.slice();
  walked.sections = walked.sections.slice();
  for (const lists of [walked.byKey, walked.byServer] as Array<Map<unknown, WalkedDirective[]>>) {
    for (const [key, list] of lists) lists.set(key, list.slice());
  }
  cache.set(config, walked);
  return walked;
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
  const own = walkConfig(config).byServer.get(vhost);
  if (own === undefined) return [];
  return own.filter((entry) => keys.includes(entry.directive.key));
}

/** The `<VirtualHost>` sections in reading order. */
export function virtualHostSections(config: EffectiveConfig): EffectiveSection[] {
  return walkConfig(config)
    .sections.filter((entry) => entry.section.key === "virtualhost")
    .map((entry) => entry.section);
}
