// The path regions of one virtual host: its root, and a URL inside and one just outside every distinct Alias,
// ScriptAlias, Location and Directory (a Directory reached through the DocumentRoot or an Alias), a script in every
// region that runs CGI (ScriptAlias, SetHandler cgi-script, ExecCGI or AddHandler cgi-script) and a parsed page in
// every region with Includes on, plus files that must stay hidden in every directory served (.htaccess, .htpasswd,
// backups, the source of scripts). Each region names the section pattern it stands for, the kind of object its path
// names (the world plants one where the tree holds none) and the config line that called for it.
import { posix } from "node:path";
import { regexExample } from "./regex-example.ts";
import type { EffectiveConfig, EffectiveNode, EffectiveSection } from "../../conf/effective-config.ts";
import { aliasTargets } from "../../conf/queries/alias-targets.ts";
import { documentRoot } from "../../conf/queries/document-roots.ts";
import { directivesNamed, serverSections } from "../../conf/queries/walk-config.ts";
import type { ConfigOrigin, ObjectKind } from "./probe.ts";

export interface Region {
  path: string;
  purpose: "root" | "inside" | "outside" | "hidden";
  region: string;
  object: ObjectKind;
  origin: ConfigOrigin | null;
}

const HIDDEN = [".htaccess", ".htpasswd", "index.html~", "index.html.bak"];
const NESTED_ACCESS = new Set(["directory", "directorymatch", "location", "locationmatch", "files", "filesmatch", "virtualhost"]);

function inVhost(sections: readonly EffectiveSection[], vhost: EffectiveSection | null): boolean {
  const own = sections.find((s) => s.key === "virtualhost") ?? null;
  return own === null || own === vhost;
}

function sibling(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed === "" ? "/probe-outside" : `${trimmed}-outside${url.endsWith("/") ? "/" : ""}`;
}

function originOf(node: EffectiveNode): ConfigOrigin {
  return { file: node.span.file, line: node.span.line, text: (node.kind === "section" ? node.node.openRaw : node.node.raw).trim() };
}

/** The kind of object a plain path names: a directory URL's index page, else a file. */
function plainKind(url: string): ObjectKind {
  return url.endsWith("/") ? "index" : "static";
}

/** The URL a file system path is served at in this vhost (through an Alias or the DocumentRoot); null if none. */
function urlOf(path: string, aliases: Array<{ url: string; path: string }>, root: string | null): string | null {
  const clean = path.replace(/\/+$/, "");
  for (const alias of [...aliases].sort((a, b) => b.path.length - a.path.length)) {
    const target = alias.path.replace(/\/+$/, "");
    if (clean === target || clean.startsWith(`${target}/`)) return `${posix.join(alias.url, clean.slice(target.length)).replace(/\/+$/, "")}/`;
  }
  if (root !== null) {
    const base = root.replace(/\/+$/, "");
    if (clean === base) return "/";
    if (clean.startsWith(`${base}/`)) return `${clean.slice(base.length)}/`;
  }
  return null;
}

/** What a section says about handlers itself (not in a nested access section): CGI on (ExecCGI or a cgi-script
 * handler), SSI on (Includes), and the extensions mapped to each. */
interface SectionHandlers {
  cgi: boolean;
  cgiEverything: boolean;
  includes: boolean;
  cgiExtensions: string[];
  ssiExtensions: string[];
}

function optionWords(args: readonly string[]): { execCgi: boolean; includes: boolean } {
  const words = args.map((a) => a.toLowerCase().replace(/^\+/, ""));
  const on = (name: string) => args.some((a) => !a.startsWith("-") && a.toLowerCase().replace(/^\+/, "") === name);
  return { execCgi: on("execcgi") || words.includes("all"), includes: on("includes") || on("includesnoexec") || words.includes("all") };
}

/** The directives handlerLines reads. */
const HANDLER_KEYS = ["options", "sethandler", "addhandler", "addtype", "addoutputfilter"];

function handlerLines(nodes: readonly EffectiveNode[]): SectionHandlers {
  const found: SectionHandlers = { cgi: false, cgiEverything: false, includes: false, cgiExtensions: [], ssiExtensions: [] };
  const visit = (list: readonly EffectiveNode[]): void => {
    for (const node of list) {
      if (node.kind === "section") {
        if (!NESTED_ACCESS.has(node.key)) visit(node.children);
        continue;
      }
      const args = node.args;
      const first = (args[0] ?? "").toLowerCase();
      if (node.key === "options") {
        const words = optionWords(args);
        found.cgi ||= words.execCgi;
        found.includes ||= words.includes;
      } else if (node.key === "sethandler" && (first === "cgi-script" || first === "\"cgi-script\"")) {
        found.cgi = true;
        found.cgiEverything = true;
      } else if (node.key === "addhandler" && first === "cgi-script") {
        found.cgiExtensions.push(...args.slice(1));
      } else if ((node.key === "addhandler" && first === "server-parsed") || (node.key === "addtype" && first === "text/x-server-parsed-html")) {
        found.ssiExtensions.push(...args.slice(1));
      } else if (node.key === "addoutputfilter" && first.split(";").includes("includes")) {
        found.ssiExtensions.push(...args.slice(1));
      }
    }
  };
  visit(nodes);
  return found;
}

function extension(list: readonly string[], fallback: string): string {
  const first = list.find((e) => /^\.?[A-Za-z0-9_-]+$/.test(e));
  return first === undefined ? fallback : first.startsWith(".") ? first : `.${first}`;
}

/** @param accessDirs directories (inside the server) holding an .htaccess file: each is a region of its own
 * @param defaultRoot where URLs map when the config sets no DocumentRoot (a fragment: the image's own) */
export function probeRegions(config: EffectiveConfig, vhost: EffectiveSection | null, scripts: readonly string[], accessDirs: readonly string[] = [], defaultRoot: string | null = null): Region[] {
  const rootLine = documentRoot(config, vhost);
  const regions: Region[] = [{ path: "/", purpose: "root", region: "/", object: "index", origin: rootLine === null ? null : { file: rootLine.span.file, line: rootLine.span.line, text: `DocumentRoot ${rootLine.value}` } }];
  const add = (r: Region): void => {
    if (!regions.some((x) => x.path === r.path)) regions.push(r);
  };
  const aliasEntries = aliasTargets(config).filter((a) => !a.regex && a.url !== null && a.path !== null && (a.vhost === null || a.vhost === vhost));
  const aliases = aliasEntries.map((a) => ({ url: a.url!, path: a.path!, directive: a.directive, origin: { file: a.span.file, line: a.span.line, text: `${a.directive} ${a.url} ${a.target}` } }));
  const root = rootLine?.path ?? defaultRoot;
  const served: string[] = root === null ? [] : [root];
  // Where the tree's own scripts are asked for by name (ScriptAlias targets too).
  const withScripts: string[] = [...served];
  // Handler extensions named outside any section apply everywhere (the main server's and this vhost's lines).
  const global = handlerLines(directivesNamed(config, ...HANDLER_KEYS).filter((d) => d.sections.every((s) => s.key === "virtualhost" || !NESTED_ACCESS.has(s.key)) && inVhost(d.sections, vhost)).map((d) => d.directive));
  for (const alias of aliases) {
    const label = `${alias.directive} ${alias.url}`;
    const dir = alias.url.endsWith("/") ? alias.url : `${alias.url}/`;
    add({ path: dir, purpose: "inside", region: label, object: "index", origin: alias.origin });
    add({ path: sibling(alias.url), purpose: "outside", region: label, object: plainKind(sibling(alias.url)), origin: alias.origin });
    // A ScriptAlias runs every file under it as a script: a script is asked for there, and no backup or page that
    // would only fail as one.
    if (alias.directive === "ScriptAlias") add({ path: `${dir}probe.cgi`, purpose: "inside", region: label, object: "cgi", origin: alias.origin });
    else served.push(alias.path);
    withScripts.push(alias.path);
  }
  for (const { section, sections: enclosing } of serverSections(config, vhost)) {
    const pattern = section.args.at(-1) ?? "";
    const regex = section.key.endsWith("match") || section.args[0] === "~";
    const label = `<${section.name}${regex ? " ~" : ""} ${pattern}>`;
    const origin = originOf(section);
    let url: string | null = null;
    if (section.key === "location" && !regex) {
      add({ path: pattern, purpose: "inside", region: label, object: plainKind(pattern), origin });
      if (!pattern.endsWith("/")) add({ path: `${pattern}/probe`, purpose: "inside", region: label, object: "static", origin });
      if (pattern !== "/") add({ path: sibling(pattern), purpose: "outside", region: label, object: plainKind(sibling(pattern)), origin });
      url = pattern.endsWith("/") ? pattern : `${pattern}/`;
    } else if (section.key === "directory" && !regex && !pattern.includes("*")) {
      url = urlOf(pattern, aliases, root);
      if (url === null) continue;
      add({ path: url, purpose: "inside", region: label, object: "index", origin });
      if (url !== "/") add({ path: sibling(url), purpose: "outside", region: label, object: plainKind(sibling(url)), origin });
    } else if (section.key === "files" && !regex && !/[*?[]/.test(pattern)) {
      add({ path: `/${pattern}`, purpose: "inside", region: label, object: "static", origin });
    } else if (section.key === "filesmatch" || (section.key === "files" && regex)) {
      // A file the pattern matches, in the directory that holds the section (the document root when none does).
      const name = regexExample(pattern, "file");
      const holder = [...enclosing].reverse().find((s) => s.key === "directory" && s.args[0] !== "~" && !(s.args.at(-1) ?? "").includes("*"));
      const base = holder === undefined ? "/" : urlOf(holder.args.at(-1) ?? "", aliases, root);
      if (name !== null && base !== null) add({ path: `${base}${name}`, purpose: "inside", region: label, object: "static", origin });
    } else if (section.key === "locationmatch" || (section.key === "location" && regex)) {
      const path = regexExample(pattern, "url");
      if (path !== null) add({ path, purpose: "inside", region: label, object: plainKind(path), origin });
    }
    if (url === null) continue;
    // What runs here: a script where CGI is on (or would be, with a handler named), a parsed page where SSI is.
    const own = handlerLines(section.children);
    if (own.cgi || own.cgiExtensions.length > 0) {
      const ext = own.cgiEverything ? ".cgi" : extension([...own.cgiExtensions, ...global.cgiExtensions], ".cgi");
      add({ path: `${url}probe${ext}`, purpose: "inside", region: label, object: "cgi", origin });
    }
    if (own.includes) add({ path: `${url}probe${extension([...own.ssiExtensions, ...global.ssiExtensions], ".shtml")}`, purpose: "inside", region: label, object: "ssi", origin });
  }
  for (const dir of accessDirs) {
    const url = urlOf(dir, aliases, root);
    if (url === null) continue;
    const label = `${dir}/.htaccess`;
    add({ path: url, purpose: "inside", region: label, object: "index", origin: null });
    add({ path: `${url}index.html`, purpose: "inside", region: label, object: "static", origin: null });
    add({ path: posix.join(url, ".htaccess"), purpose: "hidden", region: `hidden .htaccess in ${url}`, object: "hidden", origin: null });
  }
  for (const dir of served) {
    const url = urlOf(dir, aliases, root);
    if (url === null) continue;
    const origin = dir === root ? regions[0]!.origin : (aliases.find((a) => a.path === dir)?.origin ?? null);
    for (const name of HIDDEN) add({ path: posix.join(url, name), purpose: "hidden", region: `hidden ${name} in ${url}`, object: "hidden", origin });
  }
  for (const script of scripts) {
    for (const dir of withScripts) {
      const base = dir.replace(/\/+$/, "");
      if (!script.startsWith(`${base}/`)) continue;
      const url = urlOf(posix.dirname(script), aliases, root);
      if (url !== null) add({ path: posix.join(url, posix.basename(script)), purpose: "hidden", region: `script ${posix.basename(script)}`, object: "cgi", origin: null });
    }
  }
  return regions;
}
