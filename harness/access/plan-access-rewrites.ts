// For every per-directory section of a 2.2 tree that holds access lines: the 2.4 lines that decide as 2.2 did,
// or why the section keeps mod_access_compat. The translation needs the whole 2.2 state at the section, and on
// 2.4 the section's Require lines replace what it inherits (AuthMerging Off), so what the section does not set
// itself (its address rules, Satisfy, Require) is taken from the sections 2.2 merges before it: for a
// <Directory>, the Directory sections along its path (one answer); for a <Location> or <Files>, whichever
// Directory a request under it reaches (every candidate, through Alias and DocumentRoot): when they disagree on
// a part the section does not set, no single 2.4 form exists and the section keeps its 2.2 lines.
import { posix } from "node:path";
import type { EffectiveConfig, EffectiveDirective, EffectiveNode, EffectiveSection } from "../conf/effective-config.ts";
import { parseCached } from "../conf/evaluate-tree.ts";
import type { SectionNode, Span, SyntaxNode } from "../conf/syntax-tree.ts";
import { matchComponent } from "../conf/glob.ts";
import type { ConfigTree } from "../conf/load-tree.ts";
import { aliasTargets } from "../conf/queries/alias-targets.ts";
import { documentRoot } from "../conf/queries/document-roots.ts";
import { virtualHostSections, walkConfig } from "../conf/queries/walk-config.ts";
import type { AccessRewrite } from "./access-rewrite.ts";
import { EMPTY_STATE_22, merge22, mergeAll22, type Section22, type State22 } from "./model-22.ts";
import { ACCESS_SECTION_KEYS, type SectionAccess, sectionAccess } from "./section-access.ts";
import { translateAccess } from "./translate-access.ts";

export interface PlanAccessOptions {
  /** Hunks to leave as 2.2 wrote them (rolled back by `migrate --prove`). */
  rollback: ReadonlySet<string>;
  /** Lines 2.4 never reads (a dual-syntax config's 2.2 branch): neither translated nor removed. */
  skip?: (directive: EffectiveDirective) => boolean;
  /** For a fragment: the 2.2 stock config's sections around it, by the path they govern (`/`: deny all). */
  stock?: ReadonlyArray<{ path: string; section: Section22 }>;
  /** For a fragment: the stock config's DocumentRoot, where URLs no Alias takes are served from. */
  stockDocumentRoot?: string;
}

/** The 2.2 stock config around a fragment (the official image's httpd.conf): `<Directory />` refuses everyone,
 * the document root admits everyone. */
export const OFFICIAL_22_STOCK: ReadonlyArray<{ path: string; section: Section22 }> = [
  { path: "/", section: { host: { order: "deny,allow", allow: [], deny: ["all"] } } },
  { path: "/usr/local/apache2/htdocs", section: { host: { order: "allow,deny", allow: ["all"], deny: [] } } },
];

/** The 2.2 stock config's <Files> sections around a fragment: `<FilesMatch "^\.ht">` refuses everyone. */
export const OFFICIAL_22_STOCK_FILES: ReadonlyArray<FilesVariant> = [
  { pattern: "^\\.ht", regex: true, section: { host: { order: "allow,deny", allow: [], deny: ["all"] }, satisfy: "all" } },
];

/** A <Files> section that may merge between the Directory sections and a <Location>. */
export interface FilesVariant {
  pattern: string;
  regex: boolean;
  section: Section22;
}

/** The ap_expr test of REQUEST_FILENAME that holds where a <Files>/<FilesMatch> pattern matches the base name;
 * null when the pattern cannot be written so. */
export function filesExpression(variant: Pick<FilesVariant, "pattern" | "regex">): string | null {
  const p = variant.pattern;
  if (/[#"/]/.test(p)) return null;
  let regex: string;
  if (variant.regex) {
    if (p.startsWith("^")) regex = `/${p.slice(1)}${p.endsWith("$") ? "" : "[^/]*$"}`;
    else regex = p.endsWith("$") ? p : `${p}[^/]*$`;
  } else {
    regex = `/${p.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]")}$`;
  }
  return `%{REQUEST_FILENAME} =~ m#${regex}#`;
}

/** Lines whose top level holds several Require lines are OR-ed only on their own: inside a container they need
 * their own <RequireAny>. */
function asOnePart(lines: readonly string[]): string[] {
  const top = lines.filter((line) => !/^\s/.test(line) && !/^<\//.test(line));
  return top.length > 1 ? ["<RequireAny>", ...lines.map((l) => `    ${l}`), "</RequireAny>"] : [...lines];
}

/** Where a <Files> section decides otherwise than the Directory sections: the one for matching names, the other
 * for the rest, told apart by an expression on the file name. */
function splitByFiles(test: string, matching: readonly string[], rest: readonly string[]): string[] {
  const indent = (lines: readonly string[]) => lines.map((l) => `    ${l}`);
  const not = `Require expr "!(${test})"`;
  if (matching.length === 1 && matching[0] === "Require all denied") return ["<RequireAll>", ...indent([not, ...asOnePart(rest)]), "</RequireAll>"];
  return [
    "<RequireAny>",
    ...indent(["<RequireAll>", ...indent([`Require expr "${test}"`, ...asOnePart(matching)]), "</RequireAll>"]),
    ...indent(["<RequireAll>", ...indent([not, ...asOnePart(rest)]), "</RequireAll>"]),
    "</RequireAny>",
  ];
}

interface Scoped {
  section: EffectiveSection;
  enclosing: EffectiveSection[];
  vhost: EffectiveSection | null;
  access: SectionAccess;
  index: number;
}

function pattern(section: EffectiveSection): { value: string; regex: boolean } {
  const regex = section.key.endsWith("match") || section.args[0] === "~";
  return { value: section.args.at(-1) ?? "", regex };
}

/** A section's regex as httpd compiles it (case-sensitive, unanchored); null when JavaScript cannot read it. */
function safeRegex(value: string): RegExp | null {
  try {
    return new RegExp(value);
  } catch {
    return null;
  }
}

/** A <Files> wildcard (fnmatch: * and ? within a name, [...] classes) as a whole-name regex. */
function wildcardRegex(value: string): RegExp | null {
  const body = value.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]");
  return safeRegex(`^${body}$`);
}

function components(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/** A non-regex <Directory> pattern (wildcards per component) against a path: the path is at or under it. */
function directoryCovers(dir: string, path: string): boolean {
  const want = components(dir);
  const have = components(path);
  return want.length <= have.length && want.every((component, i) => matchComponent(component, have[i]!));
}

function regexTest(source: string, subject: string): boolean {
  try {
    return new RegExp(source).test(subject);
  } catch {
    return false;
  }
}

export function planAccessRewrites(tree: ConfigTree, config22: EffectiveConfig, options: PlanAccessOptions): AccessRewrite[] {
  const fragment = tree.layout === "fragment";
  const stock = options.stock ?? (fragment ? OFFICIAL_22_STOCK : []);
  const stockRoot = options.stockDocumentRoot ?? (fragment ? "/usr/local/apache2/htdocs" : null);
  const stockFiles = fragment ? OFFICIAL_22_STOCK_FILES : [];
  const walked = walkConfig(config22);
  const all: Scoped[] = [];
  for (const entry of walked.sections) {
    if (!ACCESS_SECTION_KEYS.has(entry.section.key)) continue;
    const access = sectionAccess(entry.section);
    if (options.skip) access.directives = access.directives.filter((d) => !options.skip!(d));
    all.push({ section: entry.section, enclosing: entry.sections, vhost: entry.sections.find((s) => s.key === "virtualhost") ?? null, access, index: entry.index });
  }
  const vhosts = virtualHostSections(config22);
  // Per server, once: chain() asks for them for every candidate path of every section.
  const memo = <T>(make: (ctx: EffectiveSection | null) => T) => {
    const cache = new Map<EffectiveSection | null, T>();
    return (ctx: EffectiveSection | null): T => {
      if (!cache.has(ctx)) cache.set(ctx, make(ctx));
      return cache.get(ctx)!;
    };
  };
  const inContext = memo((ctx) => all.filter((s) => s.vhost === null || s.vhost === ctx));
  const directories = memo((ctx) =>
    inContext(ctx)
      .filter((s) => s.section.key === "directory" && !pattern(s.section).regex)
      .sort((a, b) => components(pattern(a.section).value).length - components(pattern(b.section).value).length || (a.vhost === null ? 0 : 1) - (b.vhost === null ? 0 : 1) || a.index - b.index));
  const regexDirectories = memo((ctx) => inContext(ctx).filter((s) => (s.section.key === "directory" || s.section.key === "directorymatch") && pattern(s.section).regex));
  const stockFor = (path: string): Section22[] => stock.filter((s) => directoryCovers(s.path, path)).sort((a, b) => components(a.path).length - components(b.path).length).map((s) => s.section);
  // What a section does on 2.2, its skipped lines included: a dual-syntax config's 2.2 branch is how 2.2 ran.
  const own = (s: Scoped): Section22 => s.access.own;

  /** The state a request for `path` has once every Directory section has merged (stock ones first). */
  const chain = (ctx: EffectiveSection | null, path: string, before?: Scoped): State22 => {
    const plain = directories(ctx).filter((s) => directoryCovers(pattern(s.section).value, path));
    const upTo = before === undefined ? plain : plain.slice(0, plain.indexOf(before));
    const regex = before === undefined ? regexDirectories(ctx).filter((s) => regexTest(pattern(s.section).value, path)) : [];
    return mergeAll22([...stockFor(path), ...[...upTo, ...regex].map(own)]);
  };
  const contextsOf = (s: Scoped): (EffectiveSection | null)[] => (s.vhost !== null ? [s.vhost] : [null, ...vhosts]);
  const dirPathsUnder = (ctx: EffectiveSection | null, base: string | null): string[] => {
    const paths = directories(ctx).map((d) => pattern(d.section).value.replace(/\*/g, "x"));
    return base === null ? ["/", ...paths] : [base, ...paths.filter((p) => directoryCovers(base, p))];
  };
  const aliasesOf = (ctx: EffectiveSection | null) => aliasTargets(config22).filter((a) => !a.regex && a.url !== null && a.path !== null && (a.vhost === null || a.vhost === ctx));
  const under = (url: string, prefix: string): boolean => url === prefix || url.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
  const urlToPath = (ctx: EffectiveSection | null, url: string): string | null => {
    const alias = aliasesOf(ctx).filter((a) => under(url, a.url!)).sort((a, b) => b.url!.length - a.url!.length)[0];
    if (alias) return posix.join(alias.path!, url.slice(alias.url!.length));
    const root = documentRoot(config22, ctx)?.path ?? stockRoot;
    return root === null ? null : posix.join(root, url);
  };
  /** Where the URLs under a <Location> can lead: its own path mapped, and every Alias under it. */
  const locationPaths = (ctx: EffectiveSection | null, url: string): string[] | null => {
    const mapped = urlToPath(ctx, url);
    if (mapped === null) return null;
    const aliased = aliasesOf(ctx).filter((a) => under(a.url!, url)).map((a) => a.path!);
    return [...new Set([mapped, ...aliased])];
  };
  const filesVariants = (ctx: EffectiveSection | null): FilesVariant[] => [
    ...stockFiles,
    ...inContext(ctx)
      .filter((s) => (s.section.key === "files" || s.section.key === "filesmatch") && Object.keys(s.access.own).length > 0 && !s.enclosing.some((e) => e.key === "directory" || e.key === "directorymatch"))
      .map((s) => ({ ...pattern(s.section), pattern: pattern(s.section).value, section: s.access.own })),
  ];

  /** Every state a request could carry into the section, before the section's own lines; for a <Location>, also
   * what each <Files> section makes of them. */
  const candidates = (s: Scoped): { base: State22[]; variants: Array<{ files: FilesVariant; states: State22[] }> } => {
    const out: State22[] = [];
    const variants = new Map<FilesVariant, State22[]>();
    for (const ctx of contextsOf(s)) {
      const { value, regex } = pattern(s.section);
      const key = s.section.key;
      if (key === "directory" && !regex) {
        out.push(chain(ctx, value.replace(/\*/g, "x"), s));
        continue;
      }
      // A proxied request's file name is "proxy:URL": no <Directory> holds it, its <Proxy> sections merge first.
      if (key === "proxy" || key === "proxymatch") {
        out.push(EMPTY_STATE_22);
        continue;
      }
      let paths: string[];
      const inDirectory = s.enclosing.findLast((e) => e.key === "directory" && !pattern(e).regex);
      if (key === "files" || key === "filesmatch") paths = dirPathsUnder(ctx, inDirectory ? pattern(inDirectory).value : null);
      else if (key === "location" && !regex) {
        const reached = locationPaths(ctx, value);
        paths = reached === null ? dirPathsUnder(ctx, null) : [...new Set(reached.flatMap((p) => dirPathsUnder(ctx, p)))];
      } else paths = dirPathsUnder(ctx, null);
      for (const path of paths) {
        const base = chain(ctx, path);
        out.push(base);
        if (key === "location" || key === "locationmatch") {
          for (const files of filesVariants(ctx)) variants.set(files, [...(variants.get(files) ?? []), merge22(base, files.section)]);
        }
      }
    }
    return { base: out.length > 0 ? out : [EMPTY_STATE_22], variants: [...variants].map(([files, states]) => ({ files, states })) };
  };

  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  // An earlier <Files>/<FilesMatch> with access lines in the same place (the same <Directory>, or none) whose names
  // may overlap this one's: 2.2 merges both for such a name, the earlier first (the differential fuzzer's fixture:
  // two <FilesMatch "\.cgi$">, the first's Satisfy All under the second's Mutual-failure refuses everyone on 2.2).
  const isFiles = (x: Scoped) => x.section.key === "files" || x.section.key === "filesmatch";
  const placeOf = (x: Scoped) => x.enclosing.filter((e) => e !== x.section).findLast((e) => e.key === "directory" || e.key === "directorymatch" || e.key === "location" || e.key === "locationmatch") ?? null;
  const literal = (x: Scoped) => (pattern(x.section).regex || /[*?[]/.test(pattern(x.section).value) ? null : pattern(x.section).value);
  // Two <Files> sections may take the same name unless one names a file outright and the other's pattern does not
  // match that name (a Drupal-style <Files "cron.php"> after a <FilesMatch> of extensions). Two patterns may.
  const mayShareNames = (o: Scoped, x: Scoped): boolean => {
    const [a, b] = [literal(o), literal(x)];
    if (a !== null && b !== null) return a === b;
    const name = a ?? b;
    if (name === null) return true;
    const other = pattern((a !== null ? x : o).section);
    const test = other.regex ? safeRegex(other.value) : wildcardRegex(other.value);
    return test === null || test.test(name);
  };
  const earlierFiles = (x: Scoped): string | null => {
    if (!isFiles(x)) return null;
    const before = all.find((o) => o !== x && isFiles(o) && o.index < x.index && o.vhost === x.vhost && placeOf(o) === placeOf(x) && Object.keys(o.access.own).length > 0
      && mayShareNames(o, x));
    return before === undefined ? null : `<${before.section.name} ${before.section.args.join(" ")}> (line ${before.section.span.line})`;
  };
  const byNode = new Map<object, AccessRewrite>();
  const rewrites: AccessRewrite[] = [];
  for (const s of all) {
    if (s.access.directives.length === 0) continue;
    const span = s.section.span;
    const id = `access:${span.file}:${span.line}`;
    const base: Omit<AccessRewrite, "remove" | "insert" | "compat" | "meaning"> = { id, file: span.file, section: s.section.node, span, rules: ["M2"] };
    const keep = (reason: string): AccessRewrite => ({ ...base, remove: [], insert: [], compat: { reason }, meaning: "as 2.2 wrote it, through mod_access_compat" });
    let rewrite: AccessRewrite;
    if (options.rollback.has(id)) rewrite = keep("rolled back after a counterexample");
    else if (s.section.viaMacro) rewrite = keep(`the section comes from macro ${s.section.viaMacro.name}: its lines are written once for every Use`);
    else if (s.access.obstacle !== null) rewrite = keep(s.access.obstacle);
    else if (earlierFiles(s) !== null) rewrite = keep(`${earlierFiles(s)} in the same place may match the same names, and 2.2 merges it first: what this section inherits from it is not translated`);
    else {
      const { base: states, variants } = candidates(s);
      const parts: Array<[keyof Section22, string]> = [["host", "its address rules (Order/Allow/Deny)"], ["satisfy", "Satisfy"], ["require", "its Require lines"]];
      const differ = (list: readonly State22[], first: State22) => parts.find(([part]) => s.access.own[part] === undefined && list.some((state) => !same(state[part as keyof State22], first[part as keyof State22])));
      const ambiguous = differ(states, states[0]!);
      // The <Files> sections whose decision differs from the Directory sections' for what the section inherits.
      const deciding = variants.filter((v) => differ(v.states, states[0]!) !== undefined);
      const files = deciding[0];
      if (ambiguous) rewrite = keep(`it inherits ${ambiguous[1]} from whichever <Directory> a request reaches, and those differ`);
      else if (deciding.length > 1 || (files !== undefined && differ(files.states, files.states[0]!))) {
        rewrite = keep("what it inherits differs by the <Files> sections a request meets, and more than one of them decides");
      } else {
        const rest = translateAccess(merge22(states[0]!, s.access.own));
        const matching = files === undefined ? null : translateAccess(merge22(files.states[0]!, s.access.own));
        const test = files === undefined ? null : filesExpression(files.files);
        if (rest.lines === null) rewrite = keep(rest.reason);
        else if (matching === null) rewrite = { ...base, remove: s.access.directives.map((d) => d.node), insert: rest.lines, compat: null, meaning: rest.meaning };
        else if (matching.lines === null) rewrite = keep(matching.reason);
        else if (test === null) rewrite = keep(`<Files ${files!.files.pattern}> decides otherwise for the names it matches, and its pattern cannot be written as an expression`);
        else {
          rewrite = {
            ...base,
            remove: s.access.directives.map((d) => d.node),
            insert: splitByFiles(test, matching.lines, rest.lines),
            compat: null,
            meaning: `${rest.meaning}; names matching ${files!.files.pattern}: ${matching.meaning} (as 2.2's <Files> section decided under this <Location>)`,
          };
        }
      }
    }
    const earlier = byNode.get(s.section.node);
    if (earlier !== undefined) {
      // One section read in several places (a file included twice): one rewrite must hold for all.
      if (earlier.compat === null && (rewrite.compat !== null || !same(earlier.insert, rewrite.insert))) {
        Object.assign(earlier, keep("the file is included in several places where it inherits different access rules"));
      }
      continue;
    }
    byNode.set(s.section.node, rewrite);
    rewrites.push(rewrite);
  }
  // The servers whose DocumentRoot or an Alias serves a directory: only their <Directory> chains reach it.
  const serving = (dir: string): (EffectiveSection | null)[] => {
    const found = [null, ...vhosts].filter((ctx) => {
      const root = documentRoot(config22, ctx)?.path ?? stockRoot;
      return (root !== null && directoryCovers(root, dir)) || aliasesOf(ctx).some((a) => directoryCovers(a.path!, dir));
    });
    return found.length > 0 ? found : [null];
  };
  rewrites.push(...accessFileRewrites(tree, options, (path) => serving(path).map((ctx) => chain(ctx, path)), directories(null).concat(...vhosts.map(directories))));
  return rewrites;
}

/** A parsed per-directory file as the evaluated sections sectionAccess reads (no ${VAR} in .htaccess). */
function asSection(nodes: readonly SyntaxNode[], span: Span, file: string): EffectiveSection {
  const convert = (list: readonly SyntaxNode[]): EffectiveNode[] => list.flatMap((node): EffectiveNode[] => {
    if (node.kind === "directive") return [{ kind: "directive", name: node.name, key: node.key, args: node.args.map((w) => w.value), span: node.span, node, guards: [] }];
    if (node.kind === "section") return [{ kind: "section", name: node.name, key: node.key, args: node.args.map((w) => w.value), span: node.span, node, guards: [], children: convert(node.children) }];
    return [];
  });
  const top: SectionNode = { kind: "section", name: ".htaccess", key: ".htaccess", args: [], argsText: "", children: [...nodes], span, openRaw: "", closeRaw: null, closeSpan: null };
  return { kind: "section", name: ".htaccess", key: ".htaccess", args: [], span: { ...span, file }, node: top, guards: [], children: convert(nodes) };
}

/** .htaccess files: 2.2 merges one right after the <Directory> sections of its directory, so its state is that
 * chain's with its own lines; a <Files> inside it adds its own. Translated like a section (section null: the top
 * of the file), or kept with compat when the chain differs by virtual host or AllowOverride turns it off. */
function accessFileRewrites(
  tree: ConfigTree,
  options: PlanAccessOptions,
  chains: (dir: string) => State22[],
  dirs: ReadonlyArray<{ section: EffectiveSection }>,
): AccessRewrite[] {
  const out: AccessRewrite[] = [];
  const mount = tree.source.mount.replace(/\/+$/, "");
  for (const [path, bytes] of tree.source.files) {
    if (posix.basename(path) !== ".htaccess") continue;
    const parsed = parseCached(path, bytes);
    const first = parsed.nodes.find((n) => n.kind !== "blank");
    if (first === undefined) continue;
    const dir = `${mount}/${posix.dirname(path)}`.replace(/\/\.$/, "");
    // AllowOverride None on the way (the last <Directory> covering it that sets one): httpd never reads the file.
    const override = dirs
      .filter((d) => directoryCovers(pattern(d.section).value, dir))
      .flatMap((d) => d.section.children.filter((c) => c.kind === "directive" && c.key === "allowoverride"))
      .at(-1);
    if (override?.kind === "directive" && override.args[0]?.toLowerCase() === "none") continue;
    const span: Span = { file: path, line: first.span.line, column: 1, endLine: parsed.nodes.at(-1)!.span.endLine, endColumn: 1 };
    const top = asSection(parsed.nodes, span, path);
    const keep = (id: string, at: Span, section: SectionNode | null, reason: string): AccessRewrite =>
      ({ id, file: path, section, span: at, remove: [], insert: [], compat: { reason }, meaning: "as 2.2 wrote it, through mod_access_compat", rules: ["M2"] });
    const states = chains(dir);
    const agree = states.every((state) => JSON.stringify(state) === JSON.stringify(states[0]));
    const own = sectionAccess(top);
    const base = merge22(states[0] ?? EMPTY_STATE_22, own.own);
    const rewrite = (id: string, at: Span, section: SectionNode | null, access: SectionAccess, state: State22): void => {
      if (access.directives.length === 0) return;
      if (options.rollback.has(id)) return void out.push(keep(id, at, section, "rolled back after a counterexample"));
      if (!agree) return void out.push(keep(id, at, section, "its directory's <Directory> sections differ by virtual host"));
      if (access.obstacle !== null) return void out.push(keep(id, at, section, access.obstacle));
      const translation = translateAccess(state);
      if (translation.lines === null) return void out.push(keep(id, at, section, translation.reason));
      out.push({ id, file: path, section, span: at, remove: access.directives.map((d) => d.node), insert: translation.lines, compat: null, meaning: translation.meaning, rules: ["M2"] });
    };
    rewrite(`access:${path}:${span.line}`, span, null, own, base);
    for (const child of top.children) {
      if (child.kind !== "section" || (child.key !== "files" && child.key !== "filesmatch")) continue;
      rewrite(`access:${path}:${child.span.line}`, child.span, child.node, sectionAccess(child), merge22(base, sectionAccess(child).own));
    }
  }
  return out;
}
