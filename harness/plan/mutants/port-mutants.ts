// Pure: mutants of a port, to measure whether the probes could have seen a wrong port at all (prove's power). Each
// mutant changes one decision of one access or handler region the probes reach, the way a careless hand port
// would: a Require dropped, all granted and all denied swapped, valid-user narrowed to one user, `Require all
// granted` added beside the region's own lines, ExecCGI dropped, the handler's module left unloaded, the Order of
// Allow and Deny swapped, a Satisfy dropped. Mutants that cannot change anything are not made (all granted added
// where the region already grants all, or inside a RequireAll). Each names its region, its change, the line it
// changed and the probes that pass through that region: only those are sent again (a module left unloaded sends
// every probe of the regions that use it).
import type { EffectiveConfig, EffectiveNode, EffectiveSection } from "../../conf/effective-config.ts";
import type { ConfigTree } from "../../conf/load-tree.ts";
import { requestSections } from "../../conf/queries/request-sections.ts";
import { directivesNamed, walkConfig } from "../../conf/queries/walk-config.ts";
import type { Probe } from "../probes/probe.ts";

export interface Mutant {
  /** "m01", in generation order. */
  id: string;
  /** The region's section as written ("<Directory /srv/www/admin>"), or "LoadModule cgid_module" for a module. */
  region: string;
  /** What changed, in words. */
  mutation: string;
  file: string;
  line: number;
  /** The port's tree with the change. */
  tree: ConfigTree;
  /** The probes (ids) whose requests pass through the region: the ones the mutant is run against. */
  probes: string[];
}

const ACCESS = new Set(["directory", "directorymatch", "location", "locationmatch", "files", "filesmatch", "proxy", "proxymatch"]);
/** A mutant that no probe passes through cannot be told apart by any: there is no point in making it. */
const HANDLER_MODULES: Record<string, string[]> = { cgi: ["cgi_module", "cgid_module"], ssi: ["include_module"] };

interface Line {
  node: EffectiveNode & { kind: "directive" };
  /** The containers between the section and the line (<RequireAll>, <Limit GET>, <IfModule>), outermost first. */
  within: EffectiveSection[];
}

/** The directives a section holds itself, through containers but not nested access sections. */
function ownLines(section: EffectiveSection): Line[] {
  const lines: Line[] = [];
  const visit = (nodes: readonly EffectiveNode[], within: EffectiveSection[]): void => {
    for (const node of nodes) {
      if (node.kind === "section") {
        if (!ACCESS.has(node.key)) visit(node.children, [...within, node]);
        continue;
      }
      lines.push({ node, within });
    }
  };
  visit(section.children, []);
  return lines;
}

/** A tree with one line of one file replaced by `text` (any number of lines; a mutant's line numbers need not
 * stay). The file is the one httpd reads: the target of a link the config read it through. */
export function replaceLine(tree: ConfigTree, file: string, line: number, text: string): ConfigTree {
  const path = tree.source.links.get(file) ?? file;
  const bytes = tree.source.files.get(path);
  if (bytes === undefined) return tree;
  const lines = bytes.toString("latin1").split("\n");
  const old = lines[line - 1] ?? "";
  const indent = /^\s*/.exec(old)?.[0] ?? "";
  const crlf = old.endsWith("\r") ? "\r" : "";
  lines.splice(line - 1, 1, ...text.split("\n").map((t) => `${indent}${t}${crlf}`));
  const files = new Map(tree.source.files);
  files.set(path, Buffer.from(lines.join("\n"), "latin1"));
  return { ...tree, source: { ...tree.source, files } };
}

/** A ScriptAliasMatch pattern as a test; one that JavaScript cannot read (PCRE-only syntax) maps nothing. */
function regexTest(pattern: string): (path: string) => boolean {
  try {
    const regex = new RegExp(pattern);
    return (path) => regex.test(path);
  } catch {
    return () => false;
  }
}

function words(node: { args: readonly string[] }): string[] {
  return node.args.map((a) => a.toLowerCase());
}

function label(section: EffectiveSection): string {
  return section.node.openRaw.trim();
}

export interface MutantOptions {
  /** Where URLs map when the config sets no DocumentRoot (a fragment: the image's own). */
  defaultRoot?: string | null;
}

export function portMutants(port: ConfigTree, config: EffectiveConfig, probes: readonly Probe[], options: MutantOptions = {}): Mutant[] {
  const defaultRoot = options.defaultRoot ?? null;
  // Which probes pass through which section (by its place), from the port's own reading; and which section's lines
  // decide each probe: the last one in merge order with Require lines (2.4's AuthMerging Off: a section's authz
  // replaces what it inherits), with Order/Allow/Deny, with Satisfy. A mutant of lines that decide no probe cannot
  // change an answer: it is not made (a <Directory /> whose every URL another section decides, a <Directory> a
  // <Location> overrides).
  const through = new Map<EffectiveSection, string[]>();
  const decides = { require: new Map<EffectiveSection, string[]>(), compat: new Map<EffectiveSection, string[]>(), satisfy: new Map<EffectiveSection, string[]>() };
  /** For each probe whose Require lines a section decides, the section that would decide without them. */
  const fallback = new Map<string, EffectiveSection | null>();
  const push = (map: Map<EffectiveSection, string[]>, section: EffectiveSection, id: string) => {
    const list = map.get(section);
    if (list) list.push(id);
    else map.set(section, [id]);
  };
  const has = (section: EffectiveSection, keys: readonly string[]) => ownLines(section).some((l) => keys.includes(l.node.key));
  for (const probe of probes) {
    const chain = requestSections(config, probe.target, probe.path, defaultRoot);
    for (const section of chain) push(through, section, probe.id);
    const withRequire = chain.filter((section) => has(section, ["require"]));
    const decider = withRequire.at(-1);
    if (decider) {
      push(decides.require, decider, probe.id);
      fallback.set(`${probe.id}@${decider.span.file}:${decider.span.line}`, withRequire.at(-2) ?? null);
    }
    const compat = chain.filter((section) => has(section, ["order", "allow", "deny"])).at(-1);
    if (compat) push(decides.compat, compat, probe.id);
    const satisfy = chain.filter((section) => has(section, ["satisfy"])).at(-1);
    if (satisfy) push(decides.satisfy, satisfy, probe.id);
  }
  /** A section whose only authz line is `Require all granted`: without it, or without any, 2.4 grants. */
  const grantsAll = (section: EffectiveSection | null): boolean => {
    if (section === null) return true;
    const requires = ownLines(section).filter((l) => l.node.key === "require");
    return requires.length === 1 && words(requires[0]!.node).join(" ") === "all granted";
  };
  const mutants: Mutant[] = [];
  const add = (region: string, mutation: string, at: { file: string; line: number }, tree: ConfigTree, reached: string[]): void => {
    if (tree === port || reached.length === 0) return;
    mutants.push({ id: `m${String(mutants.length + 1).padStart(2, "0")}`, region, mutation, file: at.file, line: at.line, tree, probes: [...new Set(reached)] });
  };
  const usesHandler = { cgi: [] as string[], ssi: [] as string[] };
  // mod_cgi runs a ScriptAlias'd file whatever Options says (`!(allow_options & OPT_EXECCGI) && !is_scriptaliased`):
  // dropping ExecCGI cannot change the answer to a probe a ScriptAlias maps.
  const scriptAliased = new Set<string>();
  for (const entry of directivesNamed(config, "scriptalias", "scriptaliasmatch")) {
    const pattern = entry.directive.args[0] ?? "";
    const maps = entry.directive.key === "scriptaliasmatch" ? regexTest(pattern) : (path: string) => pattern !== "" && path.startsWith(pattern);
    for (const probe of probes) if (maps(probe.path)) scriptAliased.add(probe.id);
  }

  for (const { section } of walkConfig(config).sections) {
    if (!ACCESS.has(section.key)) continue;
    const reached = through.get(section) ?? [];
    if (reached.length === 0) continue;
    const region = label(section);
    const lines = ownLines(section);
    const at = (line: Line) => ({ file: line.node.span.file, line: line.node.span.line });
    const requires = lines.filter((l) => l.node.key === "require");
    const decided = decides.require.get(section) ?? [];
    // Dropping the section's only `Require all granted` leaves what it inherits, or none at all: where that grants
    // all too, the mutant is the port.
    const dropChanges = !(grantsAll(section) && decided.every((id) => grantsAll(fallback.get(`${id}@${section.span.file}:${section.span.line}`) ?? null)));
    for (const line of requires) {
      const args = words(line.node);
      const raw = line.node.node.raw.trim();
      if (dropChanges) add(region, `drop \`${raw}\``, at(line), replaceLine(port, line.node.span.file, line.node.span.line, `# ${raw}`), decided);
      if (args[0] === "all" && (args[1] === "granted" || args[1] === "denied")) {
        const flipped = `Require all ${args[1] === "granted" ? "denied" : "granted"}`;
        add(region, `\`${raw}\` → \`${flipped}\``, at(line), replaceLine(port, line.node.span.file, line.node.span.line, flipped), decided);
      }
      if (args[0] === "valid-user") add(region, `\`${raw}\` → \`Require user probe-nobody\``, at(line), replaceLine(port, line.node.span.file, line.node.span.line, "Require user probe-nobody"), decided);
    }
    // `Require all granted` beside the region's own lines, where they are alternatives (the section's top level or
    // a RequireAny) and it does not grant all already.
    const alternatives = requires.filter((l) => l.within.every((w) => w.key !== "requireall" && w.key !== "requirenone" && !w.key.startsWith("limit")) && (l.within.at(-1)?.key ?? "requireany") === "requireany");
    const last = alternatives.at(-1);
    if (last !== undefined && !alternatives.some((l) => words(l.node).join(" ") === "all granted") && !words(last.node).includes("not")) {
      add(region, "add `Require all granted`", at(last), replaceLine(port, last.node.span.file, last.node.span.line, `${last.node.node.raw.trim()}\nRequire all granted`), decided);
    }
    for (const line of lines) {
      const raw = line.node.node.raw.trim();
      if (line.node.key === "options") {
        const kept = line.node.args.filter((a) => a.toLowerCase().replace(/^\+/, "") !== "execcgi");
        if (kept.length !== line.node.args.length) {
          usesHandler.cgi.push(...reached);
          add(region, "drop ExecCGI", at(line), replaceLine(port, line.node.span.file, line.node.span.line, kept.length > 0 ? `Options ${kept.join(" ")}` : "Options None"), reached.filter((id) => !scriptAliased.has(id)));
        }
        if (line.node.args.some((a) => /^\+?includes(noexec)?$/i.test(a))) usesHandler.ssi.push(...reached);
      } else if (line.node.key === "order") {
        const value = line.node.args.join("").toLowerCase();
        const swapped = value === "allow,deny" ? "Order deny,allow" : value === "deny,allow" ? "Order allow,deny" : null;
        if (swapped !== null) add(region, `\`${raw}\` → \`${swapped}\``, at(line), replaceLine(port, line.node.span.file, line.node.span.line, swapped), decides.compat.get(section) ?? []);
      } else if (line.node.key === "satisfy") {
        add(region, `drop \`${raw}\``, at(line), replaceLine(port, line.node.span.file, line.node.span.line, `# ${raw}`), decides.satisfy.get(section) ?? []);
      } else if ((line.node.key === "sethandler" || line.node.key === "addhandler") && words(line.node)[0] === "cgi-script") {
        usesHandler.cgi.push(...reached);
      }
    }
  }
  // ScriptAlias runs scripts without a section of its own saying so.
  usesHandler.cgi.push(...scriptAliased);
  // The handler's module left unloaded: every LoadModule of it commented out.
  for (const [handler, modules] of Object.entries(HANDLER_MODULES) as Array<[keyof typeof usesHandler, string[]]>) {
    if (usesHandler[handler].length === 0) continue;
    const loads = directivesNamed(config, "loadmodule").filter((entry) => modules.includes(entry.directive.args[0] ?? ""));
    if (loads.length === 0) continue;
    let tree = port;
    for (const load of loads) tree = replaceLine(tree, load.directive.span.file, load.directive.span.line, `# ${load.directive.node.raw.trim()}`);
    const first = loads[0]!.directive;
    add(`LoadModule ${first.args[0]}`, `leave ${modules.join(" and ")} unloaded`, { file: first.span.file, line: first.span.line }, tree, usesHandler[handler]);
  }
  return mutants;
}
