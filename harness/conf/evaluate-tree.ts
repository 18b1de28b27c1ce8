// A ConfigTree read as one httpd version reads it, in httpd's single pass (server/config.c ap_build_config):
// every line's ${VAR} is replaced first (ap_resolve_env), then the directives httpd runs while reading
// (EXEC_ON_READ: Include, IncludeOptional, LoadModule, Define, UnDefine, ServerRoot, <IfModule>, <IfDefine>,
// <IfVersion>, <IfFile>, <Macro>, Use) act in file order — wherever they are written, a vhost included —
// and the rest is kept, each directive with the span it was written at. What differs between versions is data
// in conf-traits.ts; what a problem means is in syntax-tree.ts ProblemSeverity.
import { posix } from "node:path";
import type { EffectiveConfig, EffectiveDirective, EffectiveNode, EffectiveSection, EvaluateOptions, Guard, MacroUse } from "./effective-config.ts";
import { CONF_TRAITS, confTraits, type ConfTraits } from "./conf-traits.ts";
import { resolveVariables, splitWords } from "./config-variables.ts";
import { evaluateEnvvars } from "./envvars.ts";
import { testIfVersion } from "./if-version.ts";
import { expandInclude, indexTree, serverRootRelative, statServerPath, treePathOf, type TreeIndex } from "./include-paths.ts";
import type { ConfigTree } from "./load-tree.ts";
import { substituteMacroLine } from "./macro-substitution.ts";
import { ModuleSet } from "./module-identity.ts";
import { evaluatedOf, keepEvaluated, LineReadings, parseFile, parsedValues } from "./parse-file.ts";
import { appended } from "./exact-arrays.ts";
import type { ConfProblem, DirectiveNode, ParsedFile, ProblemSeverity, SectionNode, Span, SyntaxNode } from "./syntax-tree.ts";

/** Conditional sections some version's core has; on a version without them they are unknown sections. */
const LATER_CONDITIONALS = new Set(Object.values(CONF_TRAITS).flatMap((traits) => traits.coreConditionals));

/** AP_MAX_INCLUDE_DEPTH (core.c, both versions): how deep Include may nest. */
const MAX_INCLUDE_DEPTH = 128;

/** Debian's apache2ctl sets this before sourcing envvars. */
const DEBIAN_CONFDIR = "/etc/apache2";

interface Macro {
  name: string;
  params: string[];
  /** The body's lines as written, and where the first one is. */
  lines: string[];
  file: string;
  firstLine: number;
}

// Parsing is pure: one parse per file content serves every version evaluated.
const parseCache = new WeakMap<Buffer, Map<string, ParsedFile>>();

/** The effective node an evaluation last made of a syntax node (kept in the node, parse-file.ts keepEvaluated).
 * Effective nodes are never changed once made, so when an evaluation makes one that reads the same (the same
 * args, guards and children), it takes the one made before: lint evaluates every tree for 2.2 and for 2.4, and
 * most lines read the same on both, so the second view costs a comparison per line instead of a copy of the whole
 * tree (27 MB on 10,000 vhosts). Nothing may rely on two views holding different objects; the rules compare
 * views by place, not identity. */
function madeBefore(node: DirectiveNode | SectionNode): EffectiveNode | undefined {
  return evaluatedOf(node) as EffectiveNode | undefined;
}

/** Guards by the section they come from: the same section gives the same guard object, so guard chains compare
 * by identity. */
const guardsBySection = new WeakMap<SectionNode, Guard>();

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The parse evaluateTree used for a file (by the name it was read by): its nodes are the very objects the
 * effective config's `node` fields point at, so a rewrite can find them. Treat it as read-only: it is shared. */
export function parseCached(path: string, bytes: Buffer, readings?: LineReadings): ParsedFile {
  let byPath = parseCache.get(bytes);
  if (!byPath) parseCache.set(bytes, (byPath = new Map()));
  let parsed = byPath.get(path);
  if (!parsed) byPath.set(path, (parsed = parseFile(path, bytes, readings)));
  return parsed;
}

/** Evaluations by tree and options. A plan reads one tree for the same version and options again and again: a
 * fleet config's scenario, probes, plan and lint evaluated it 30 times, 17 of them repeats that took half the
 * time. Neither a tree nor an evaluation is ever changed once made, so a repeat takes the first (and with it the
 * walks and indexes the queries keep by config). Keyed by the tree object: a tree read again, or made anew with a
 * file changed (withProbeUsers), is evaluated anew; an options object that reads the same is the same. */
const evaluations = new WeakMap<ConfigTree, Map<string, EffectiveConfig>>();

export function evaluateTree(tree: ConfigTree, options: EvaluateOptions): EffectiveConfig {
  const key = JSON.stringify([options.version.text, options.version.build, options.defines, options.environment, options.builtinModules]);
  let byOptions = evaluations.get(tree);
  if (byOptions === undefined) evaluations.set(tree, (byOptions = new Map()));
  let config = byOptions.get(key);
  if (config === undefined) byOptions.set(key, (config = new Evaluation(tree, options).run()));
  return config;
}

/** An effective directive as the evaluator makes it. Its span is its node's, asked of the node each time (a parsed
 * node keeps its span as numbers and makes the Span when asked, parse-file.ts Placed), not a Span of its own:
 * 10,000 vhosts kept 260,000. A getter, so a spread (`{ ...directive }`) leaves `span` out: give it explicitly. */
class EvaluatedDirective implements EffectiveDirective {
  /** On the prototype (below the classes), not a field of each of the 230,000 directives of a 10,000-vhost tree. */
  declare readonly kind: "directive";
  args: string[];
  node: DirectiveNode;
  guards: Guard[];
  declare viaMacro?: MacroUse;

  /** Where the first walk that reached this directive put it (queries/walk-config.ts): the directive is that walk's
   * entry itself, not an object of its own per line (10,000 vhosts: 230,000 entries of 48 bytes). Private, so a
   * spread, JSON and a test's equality see the directive as before. */
  #sections: EffectiveSection[] | undefined = undefined;
  #index = -1;

  constructor(node: DirectiveNode, args: string[], guards: Guard[]) {
    this.args = args;
    this.node = node;
    this.guards = guards;
  }

  get span(): Span {
    return this.node.span;
  }

  /** The node's name and key, asked of it: the same strings, not two fields more in each of the 270,000 effective
   * nodes of a 10,000-vhost tree. Nothing renames a node the evaluation read (a rewrite copies it). */
  get name(): string {
    return this.node.name;
  }

  get key(): string {
    return this.node.key;
  }

  /** As a walk entry (WalkedDirective): the directive itself, and where its first walk put it. */
  get directive(): EffectiveDirective {
    return this;
  }

  get sections(): EffectiveSection[] {
    return this.#sections!;
  }

  get index(): number {
    return this.#index;
  }

  /** The walk's entry for this directive at (`sections`, `index` or later): the directive itself when no walk put
   * it anywhere yet or one put it at the same `sections` with an index the walk may take; else undefined. */
  walkedAt(sections: EffectiveSection[], index: number): this | undefined {
    if (this.#sections === undefined) {
      this.#sections = sections;
      this.#index = index;
      return this;
    }
    return this.#sections === sections && this.#index >= index ? this : undefined;
  }

  /** JSON.stringify gives it as it gives a plain effective directive (`span` is a getter, not its own field). */
  toJSON(): EffectiveDirective {
    const { kind, name, key, args, span, node, guards, viaMacro } = this;
    return viaMacro === undefined ? { kind, name, key, args, span, node, guards } : { kind, name, key, args, span, node, guards, viaMacro };
  }
}

/** As EvaluatedDirective, for a section. */
class EvaluatedSection implements EffectiveSection {
  /** On the prototype, as EvaluatedDirective's. */
  declare readonly kind: "section";
  args: string[];
  node: SectionNode;
  guards: Guard[];
  children: EffectiveNode[];
  declare viaMacro?: MacroUse;

  constructor(node: SectionNode, args: string[], guards: Guard[], children: EffectiveNode[]) {
    this.args = args;
    this.node = node;
    this.guards = guards;
    this.children = children;
  }

  get span(): Span {
    return this.node.span;
  }

  /** The node's name and key, asked of it: the same strings, not two fields more in each of the 270,000 effective
   * nodes of a 10,000-vhost tree. Nothing renames a node the evaluation read (a rewrite copies it). */
  get name(): string {
    return this.node.name;
  }

  get key(): string {
    return this.node.key;
  }

  toJSON(): EffectiveSection {
    const { kind, name, key, args, span, node, guards, children, viaMacro } = this;
    return viaMacro === undefined ? { kind, name, key, args, span, node, guards, children } : { kind, name, key, args, span, node, guards, children, viaMacro };
  }
}

// A directive's and a section's kind, on the prototype: read as fast as a field, no slot per node.
Object.defineProperty(EvaluatedDirective.prototype, "kind", { value: "directive", enumerable: true });
Object.defineProperty(EvaluatedSection.prototype, "kind", { value: "section", enumerable: true });

/** `-D NAME` as the command line gives it: "NAME", "-DNAME", "-D NAME". httpd's main.c keeps the word whole,
 * so `-D NAME=value` defines the name "NAME=value" (there is no command-line value). */
/** `directive` as the entry of a walk at `sections` whose next index is `index` (queries/walk-config.ts): the
 * directive itself where it can be (its `index` may then be larger: read it), else undefined. */
export function walkedDirectiveAt(directive: EffectiveDirective, sections: EffectiveSection[], index: number): (EffectiveDirective & { readonly directive: EffectiveDirective; readonly sections: EffectiveSection[]; readonly index: number }) | undefined {
  return directive instanceof EvaluatedDirective ? directive.walkedAt(sections, index) : undefined;
}

export function commandLineDefine(text: string): string {
  return text.trim().replace(/^-D\s*/, "");
}

class Evaluation {
  readonly #tree: ConfigTree;
  readonly #options: EvaluateOptions;
  readonly #traits: ConfTraits;
  readonly #index: TreeIndex;
  readonly #problems: ConfProblem[];
  readonly #files: string[] = [];
  /** The Include line that first read each file (the main file has none). */
  readonly #includedBy = new Map<string, Span>();
  readonly #filesWithProblemsCarried = new Set<string>();
  readonly #defineNames: string[] = [];
  readonly #variables = new Map<string, string>();
  readonly #modules: ModuleSet;
  readonly #macros = new Map<string, Macro>();
  /** The files being read, innermost last: the name httpd reads each by, and the tree file it resolves to. */
  readonly #reading: Array<{ name: string; resolved: string }> = [];
  /** Every file read by the name it was read by (a link's own path), for its lines. */
  readonly #bytesByName = new Map<string, Buffer>();
  readonly #macroUses: MacroUse[] = [];
  readonly #environment: Record<string, string>;
  /** The lines this evaluation has read, shared by the files it parses: the vhosts of a tree repeat their lines
   * across files. */
  readonly #lineReadings = new LineReadings();
  #serverRoot: string;

  constructor(tree: ConfigTree, options: EvaluateOptions) {
    this.#tree = tree;
    this.#options = options;
    this.#traits = confTraits(options.version.family);
    this.#index = indexTree(tree.source);
    this.#problems = [...tree.problems];
    this.#modules = new ModuleSet(options.builtinModules);
    this.#serverRoot = tree.serverRoot ?? tree.source.mount;
    for (const define of options.defines) {
      const name = commandLineDefine(define);
      if (name !== "" && !this.#defineNames.includes(name)) this.#defineNames.push(name);
    }
    this.#environment = { ...this.#envvars(), ...options.environment };
  }

  run(): EffectiveConfig {
    const main = this.#tree.mainFile;
    const nodes: EffectiveNode[] = [];
    const bytes = this.#tree.source.files.get(main);
    if (bytes !== undefined) this.#readFile(main, main, bytes, [], nodes);
    const defines: Record<string, string> = {};
    for (const name of this.#defineNames) defines[name] = this.#variables.get(name) ?? "";
    return {
      version: this.#options.version,
      layout: this.#tree.layout,
      serverRoot: this.#serverRoot,
      mainFile: main,
      files: this.#files,
      includedBy: this.#includedBy,
      nodes: nodes.slice(),
      defines,
      environment: this.#environment,
      problems: this.#problems,
    };
  }

  /** Debian: the exported variables of envvars, as apache2ctl sources it before starting httpd. */
  #envvars(): Record<string, string> {
    if (this.#tree.layout !== "debian") return {};
    const entry = statServerPath(this.#index, posix.join(DEBIAN_CONFDIR, "envvars"));
    if (entry.kind !== "file") return {};
    const bytes = this.#tree.source.files.get(entry.path)!;
    // apache2ctl exports both before sourcing envvars (and httpd inherits them).
    const result = evaluateEnvvars(bytes.toString("utf8"), entry.path, { APACHE_CONFDIR: DEBIAN_CONFDIR, APACHE_ENVVARS: `${DEBIAN_CONFDIR}/envvars` });
    this.#problems.push(...result.problems);
    return result.environment;
  }

  /** @param path the name httpd reads the file by (DUMP_INCLUDES, -S and its messages print it): through a
   *  link, the link's own path, not its target's
   *  @param resolved the tree file it is */
  #readFile(path: string, resolved: string, bytes: Buffer, guards: Guard[], out: EffectiveNode[]): void {
    const parsed = parseCached(path, bytes, this.#lineReadings);
    this.#files.push(path);
    this.#bytesByName.set(path, bytes);
    if (!this.#filesWithProblemsCarried.has(path)) {
      this.#filesWithProblemsCarried.add(path);
      this.#problems.push(...parsed.problems);
    }
    this.#reading.push({ name: path, resolved });
    this.#evaluate(parsed.nodes, guards, out);
    this.#reading.pop();
  }

  #evaluate(nodes: readonly SyntaxNode[], guards: Guard[], out: EffectiveNode[]): void {
    for (const node of nodes) {
      if (node.kind === "directive") this.#directive(node, guards, out);
      else if (node.kind === "section") this.#section(node, guards, out);
    }
  }

  #directive(node: DirectiveNode, guards: Guard[], out: EffectiveNode[]): void {
    const args = this.#resolvedArgs(node);
    switch (node.key) {
      case "include":
        return this.#include(node, args, false, guards, out);
      case "includeoptional":
        if (!this.#traits.includeOptional) {
          this.#invalidCommand(node, node.name, "IncludeOptional exists from 2.4 on; this version refuses it");
          return this.#keep(node, args, guards, out);
        }
        return this.#include(node, args, true, guards, out);
      case "loadmodule":
        if (args[0] !== undefined) this.#modules.addId(args[0]);
        return this.#keep(node, args, guards, out);
      case "define":
      case "undefine":
        if (!this.#traits.define) {
          this.#invalidCommand(node, node.name, "Define and UnDefine exist from 2.4 on; on this version pass -D NAME on the command line");
          return this.#keep(node, args, guards, out);
        }
        this.#define(node, args);
        return this.#keep(node, args, guards, out);
      case "serverroot":
        if (args[0] !== undefined) this.#setServerRoot(node, args[0]);
        return this.#keep(node, args, guards, out);
      case "use":
        if (this.#modules.has(this.#traits.macroModule)) return this.#useMacro(node, args, guards, out);
        this.#invalidCommand(node, node.name, "Use needs mod_macro (LoadModule macro_module ...)");
        return this.#keep(node, args, guards, out);
      case "undefmacro":
        if (this.#modules.has(this.#traits.macroModule)) {
          if (!this.#macros.delete((args[0] ?? "").toLowerCase())) this.#problem("refusal", node.span, `cannot remove undefined macro '${args[0] ?? ""}'`);
          return;
        }
        this.#invalidCommand(node, node.name, "UndefMacro needs mod_macro");
        return this.#keep(node, args, guards, out);
      default:
        return this.#keep(node, args, guards, out);
    }
  }

  /** A method, not a closure made per directive: tsx (esbuild keepNames) names each closure it makes, a call
   * each, and 10,000 vhosts make a quarter of a million. */
  #keep(node: DirectiveNode, args: string[], guards: Guard[], out: EffectiveNode[]): void {
    const use = this.#macroUses.at(-1);
    const before = madeBefore(node);
    if (before !== undefined && before.kind === "directive" && before.viaMacro === use && sameItems(before.args, args) && sameItems(before.guards, guards)) {
      out.push(before);
      return;
    }
    const directive = new EvaluatedDirective(node, args, guards);
    if (use !== undefined) directive.viaMacro = use;
    keepEvaluated(node, directive);
    out.push(directive);
  }

  #section(node: SectionNode, guards: Guard[], out: EffectiveNode[]): void {
    const key = node.key;
    if (key === "ifmodule" || key === "ifdefine") return this.#conditional(node, guards, out, (word) => (key === "ifmodule" ? this.#modules.has(word) : this.#defineNames.includes(word)));
    if (key === "ifversion") {
      if (this.#modules.has(this.#traits.versionModule)) return this.#ifVersion(node, guards, out);
      this.#invalidCommand(node, `<${node.name}`, "<IfVersion> needs mod_version (LoadModule version_module ...)");
    } else if (key === "iffile" && this.#traits.coreConditionals.includes(key)) {
      return this.#conditional(node, guards, out, (word) => {
        const entry = statServerPath(this.#index, serverRootRelative(this.#serverRoot, word));
        return entry.kind === "file" || entry.kind === "directory";
      });
    } else if ((key === "ifdirective" || key === "ifsection") && this.#traits.coreConditionals.includes(key)) {
      // Which directives exist depends on the modules' tables, which the model does not hold.
      this.#problem("warning", node.span, `<${node.name}> is not evaluated by the harness; its content is left out`);
      return;
    } else if (LATER_CONDITIONALS.has(key)) {
      this.#invalidCommand(node, `<${node.name}`, `<${node.name}> does not exist on this version`);
    } else if (key === "macro") {
      if (this.#modules.has(this.#traits.macroModule)) return this.#defineMacro(node);
      this.#invalidCommand(node, `<${node.name}`, "<Macro> needs mod_macro (LoadModule macro_module ...)");
    }
    const args = this.#resolvedArgs(node);
    const children: EffectiveNode[] = [];
    const use = this.#macroUses.at(-1);
    this.#evaluate(node.children, guards, children);
    const before = madeBefore(node);
    if (
      before !== undefined &&
      before.kind === "section" &&
      before.viaMacro === use &&
      sameItems(before.args, args) &&
      sameItems(before.guards, guards) &&
      sameItems(before.children, children)
    ) {
      out.push(before);
      return;
    }
    // Exact length: an array grown by push keeps room for more, megabytes over 10,000 vhosts' sections.
    const section = new EvaluatedSection(node, args, guards, children.slice());
    if (use !== undefined) section.viaMacro = use;
    keepEvaluated(node, section);
    out.push(section);
  }

  /** <IfModule>, <IfDefine>, <IfFile>: `!` negates; a section that does not hold is skipped unread (soaked). */
  #conditional(node: SectionNode, guards: Guard[], out: EffectiveNode[], test: (word: string) => boolean): void {
    const text = this.#resolvedText(node).trim();
    const negated = text.startsWith("!");
    const word = splitWords(negated ? text.slice(1) : text)[0] ?? "";
    if (word === "") {
      this.#problem("refusal", node.span, `<${node.name}> directive requires additional arguments`);
      return;
    }
    // Exact length (appended): every line inside keeps the array.
    if (test(word) !== negated) this.#evaluate(node.children, appended(guards, guardOf(node)), out);
  }

  #ifVersion(node: SectionNode, guards: Guard[], out: EffectiveNode[]): void {
    const text = this.#resolvedText(node);
    const result = testIfVersion(splitWords(text), this.#options.version);
    if (!result.ok) {
      this.#problem("refusal", node.span, result.error);
      return;
    }
    if (result.holds) this.#evaluate(node.children, appended(guards, guardOf(node)), out);
  }

  #include(node: DirectiveNode, args: string[], optional: boolean, guards: Guard[], out: EffectiveNode[]): void {
    if (args.length !== 1) {
      this.#problem("refusal", node.span, `${node.name} takes one argument, Name of the config file to be included`);
      return;
    }
    if (this.#reading.length > MAX_INCLUDE_DEPTH) {
      this.#problem("refusal", node.span, `Exceeded maximum include depth of ${MAX_INCLUDE_DEPTH}`, "httpd nests Include at most this deep");
      return;
    }
    const steps = expandInclude({ index: this.#index, traits: this.#traits, serverRoot: this.#serverRoot, argument: args[0]!, optional, directive: node.name });
    for (const step of steps) {
      if (step.kind === "problem") {
        this.#problem(step.severity, node.span, step.message, step.hint);
        continue;
      }
      // httpd opens a file by the path the Include names, links and all (ap_pcfg_openfile), and names it so in
      // DUMP_INCLUDES, -S and its messages (checked with 2.2.34 and 2.4.68 on a Debian tree's mods-enabled/).
      const name = treePathOf(this.#tree.source.mount, step.serverPath) ?? step.path;
      const open = this.#reading.findIndex((reading) => reading.resolved === step.path);
      if (open >= 0) {
        const chain = [...this.#reading.slice(open).map((reading) => reading.name), name].join(" → ");
        this.#problem("error", node.span, `${node.name} cycle: ${chain}; httpd would include these files until its depth limit and then refuse to start`, "remove the Include that leads back to a file already being read");
        continue;
      }
      if (!this.#includedBy.has(name)) this.#includedBy.set(name, node.span);
      this.#readFile(name, step.path, this.#tree.source.files.get(step.path)!, guards, out);
    }
  }

  /** set_server_root: relative to the current ServerRoot, and it must be a directory (checked when it is in the
   * tree; a ServerRoot outside it cannot be checked, and what is read through it is reported where used). */
  #setServerRoot(node: DirectiveNode, path: string): void {
    const root = serverRootRelative(this.#serverRoot, path).replace(/(.)\/+$/, "$1");
    const kind = statServerPath(this.#index, root).kind;
    if (kind === "missing" || kind === "file") {
      this.#problem("refusal", node.span, "ServerRoot must be a valid directory", `${root} is not a directory in the tree`);
      return;
    }
    this.#serverRoot = root;
  }

  /** set_define / unset_define (2.4 core.c): the name joins the -D list; a value, when given, is a ${} variable. */
  #define(node: DirectiveNode, args: string[]): void {
    const name = args[0];
    const expected = node.key === "define" ? args.length >= 1 && args.length <= 2 : args.length === 1;
    if (name === undefined || !expected) {
      this.#problem("refusal", node.span, `${node.name} takes ${node.key === "define" ? "one or two arguments" : "one argument"}`);
      return;
    }
    if (name.includes(":")) {
      this.#problem("refusal", node.span, "Variable name must not contain ':'");
      return;
    }
    if (node.key === "define") {
      if (!this.#defineNames.includes(name)) this.#defineNames.push(name);
      if (args[1] !== undefined) this.#variables.set(name, args[1]);
    } else {
      const at = this.#defineNames.indexOf(name);
      if (at >= 0) this.#defineNames.splice(at, 1);
      this.#variables.delete(name);
    }
  }

  /** mod_macro macro_section: the body is kept as raw lines, read (and ${VAR} replaced) only when used. */
  #defineMacro(node: SectionNode): void {
    const words = splitWords(this.#resolvedText(node));
    const [name, ...params] = words;
    if (name === undefined) {
      this.#problem("refusal", node.span, "<Macro macro definition: empty name");
      return;
    }
    if (node.closeSpan === null) return; // the parser reported the unclosed section
    const lines = this.#sourceLines(node.span.file);
    const firstLine = node.span.line + node.openRaw.split("\n").length;
    const key = name.toLowerCase();
    if (this.#macros.has(key)) this.#problem("warning", node.span, `macro '${key}' multiply defined, the latest definition wins`);
    this.#macros.set(key, { name: key, params, lines: lines.slice(firstLine - 1, node.closeSpan.line - 1), file: node.span.file, firstLine });
  }

  #useMacro(node: DirectiveNode, args: string[], guards: Guard[], out: EffectiveNode[]): void {
    const [rawName, ...values] = args;
    const name = (rawName ?? "").toLowerCase();
    const macro = this.#macros.get(name);
    if (name === "") return this.#problem("refusal", node.span, "no macro name specified with Use");
    if (!macro) return this.#problem("refusal", node.span, this.#macros.size === 0 ? "no macro defined before Use" : `macro '${name}' undefined`);
    if (this.#macroUses.some((use) => use.name === name)) return this.#problem("refusal", node.span, `recursive use of macro '${name}' is invalid`);
    if (values.length !== macro.params.length) {
      return this.#problem("refusal", node.span, `macro '${name}' used with ${values.length} arguments instead of ${macro.params.length}`);
    }
    const text = macro.lines.map((line) => substituteMacroLine(line, macro.params, values)).join("\n");
    const parsed = parseFile(macro.file, Buffer.from(text, "utf8"), this.#lineReadings);
    const shift = macro.firstLine - 1;
    for (const problem of parsed.problems) this.#problems.push({ ...problem, line: problem.line + shift });
    this.#macroUses.push({ name, span: node.span });
    this.#evaluate(parsed.nodes.map((child) => shiftNode(child, shift)), guards, out);
    this.#macroUses.pop();
  }

  #sourceLines(file: string): string[] {
    const bytes = this.#bytesByName.get(file) ?? this.#tree.source.files.get(file);
    if (bytes === undefined) return [];
    const parsed = parseCached(file, bytes);
    return bytes.toString(parsed.encoding === "latin1" ? "latin1" : "utf8").replace(/^\uFEFF/, "").split(/\r?\n/);
  }

  /** The arguments after ${VAR} substitution; split again only when something was substituted, since a value may
   * hold spaces or quotes (httpd substitutes the whole line before splitting it). */
  #resolvedArgs(node: DirectiveNode | SectionNode): string[] {
    if (!node.argsText.includes("${")) return parsedValues(node) ?? node.args.map((word) => word.value);
    return splitWords(this.#resolvedText(node));
  }

  #resolvedText(node: DirectiveNode | SectionNode): string {
    if (!node.argsText.includes("${")) return node.argsText;
    const resolved = resolveVariables(node.argsText, (name) => this.#lookup(name));
    if (this.#traits.warnsUndefinedVariable) {
      for (const name of resolved.undefinedNames) {
        if (!name.includes(":")) this.#problem("warning", node.span, `Config variable \${${name}} is not defined (AH00111); httpd keeps the text as written`, `Define ${name} before this line, or set it in the environment httpd starts with`);
      }
    }
    return resolved.text;
  }

  #lookup(name: string): string | undefined {
    for (const source of this.#traits.variableSources) {
      const value = source === "define" ? this.#variables.get(name) : this.#environment[name];
      if (value !== undefined) return value;
    }
    return undefined;
  }

  #invalidCommand(node: DirectiveNode | SectionNode, name: string, hint: string): void {
    this.#problem("refusal", node.span, `Invalid command '${name}', perhaps misspelled or defined by a module not included in the server configuration`, hint);
  }

  #problem(severity: ProblemSeverity, span: Span, message: string, hint?: string): void {
    const problem: ConfProblem = { severity, file: span.file, line: span.line, column: span.column, message };
    if (hint !== undefined) problem.hint = hint;
    this.#problems.push(problem);
  }
}

/** The condition as written (before ${VAR}), as Guard documents it. */
function guardOf(node: SectionNode): Guard {
  let guard = guardsBySection.get(node);
  if (guard === undefined) guardsBySection.set(node, (guard = { name: node.name, condition: node.argsText.trim(), span: node.span }));
  return guard;
}

/** A node parsed from a macro body, moved to the lines the body was written at. Copied field by field: a parsed
 * node's span, name, words and raw text are getters (parse-file.ts), which a spread does not copy. */
function shiftNode<T extends SyntaxNode>(node: T, shift: number): T {
  return shiftedNode(node, shift) as T;
}

function shiftedNode(node: SyntaxNode, shift: number): SyntaxNode {
  const span = shiftSpan(node.span, shift);
  // Words are placed relative to their node: they move with it.
  switch (node.kind) {
    case "directive":
      return { kind: "directive", name: node.name, key: node.key, args: node.args, argsText: node.argsText, span, raw: node.raw };
    case "section":
      return {
        kind: "section",
        name: node.name,
        key: node.key,
        args: node.args,
        argsText: node.argsText,
        children: node.children.map((child) => shiftedNode(child, shift)),
        span,
        openRaw: node.openRaw,
        closeRaw: node.closeRaw,
        closeSpan: node.closeSpan === null ? null : shiftSpan(node.closeSpan, shift),
      };
    case "comment":
      return { kind: "comment", text: node.text, raw: node.raw, span };
    case "blank":
      return { kind: "blank", raw: node.raw, span };
    case "opaque":
      return { kind: "opaque", raw: node.raw, span, reason: node.reason };
  }
}

function shiftSpan(span: Span, shift: number): Span {
  return { ...span, line: span.line + shift, endLine: span.endLine + shift };
}
