// The Directory, DirectoryMatch, Location, LocationMatch, Files and FilesMatch sections, with the vhost they are
// in and the access, authentication and handler lines each holds: what decides who gets a path and what runs
// there, the part of a config the 2.2 -> 2.4 upgrade changes most. A line belongs to the innermost such section
// (a <Files> inside a <Directory> has its own lines); <RequireAll>/<RequireAny>/<RequireNone> and <Limit> it
// sits in are named in `within`.
import type { EffectiveConfig, EffectiveSection } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { enclosingVirtualHost, sectionLabel, walkConfig } from "./walk-config.ts";

export type AccessSectionKind = "Directory" | "DirectoryMatch" | "Location" | "LocationMatch" | "Files" | "FilesMatch";

export interface SectionLine {
  name: string;
  args: string[];
  span: Span;
  /** The sections between the access section and this line, outermost first (`<RequireAny>`, `<Limit GET>`). */
  within: string[];
}

export interface AccessSection {
  kind: AccessSectionKind;
  /** The path or pattern: the last argument (`<Directory ~ "^/srv">` gives `^/srv`). */
  pattern: string;
  /** A *Match section, or the `~` form. */
  regex: boolean;
  section: EffectiveSection;
  span: Span;
  /** The `<VirtualHost>` it is in, or null for the main server. */
  vhost: EffectiveSection | null;
  /** Access sections enclosing this one, outermost first. */
  parents: EffectiveSection[];
  /** Order, Allow, Deny, Satisfy, Require and the <RequireAll|Any|None> sections. */
  access: SectionLine[];
  /** AuthType, AuthName, AuthUserFile, AuthGroupFile, AuthBasicProvider, AuthDBM*. */
  auth: SectionLine[];
  /** SetHandler, AddHandler, Action, and Options that name ExecCGI. */
  handlers: SectionLine[];
}

const KINDS: Record<string, AccessSectionKind> = {
  directory: "Directory", directorymatch: "DirectoryMatch", location: "Location", locationmatch: "LocationMatch",
  files: "Files", filesmatch: "FilesMatch",
};
const ACCESS = new Set(["order", "allow", "deny", "satisfy", "require"]);
const REQUIRE_SECTIONS = new Set(["requireall", "requireany", "requirenone"]);
const AUTH = new Set(["authtype", "authname", "authuserfile", "authgroupfile", "authbasicprovider"]);
const HANDLERS = new Set(["sethandler", "addhandler", "action"]);

function category(key: string, args: readonly string[]): "access" | "auth" | "handlers" | null {
  if (ACCESS.has(key) || REQUIRE_SECTIONS.has(key)) return "access";
  if (AUTH.has(key) || key.startsWith("authdbm")) return "auth";
  if (HANDLERS.has(key) || (key === "options" && args.some((arg) => /^[+-]?execcgi$/i.test(arg)))) return "handlers";
  return null;
}

export function isAccessSection(section: EffectiveSection): boolean {
  return section.key in KINDS;
}

export function accessSections(config: EffectiveConfig): AccessSection[] {
  const walked = walkConfig(config);
  const found = new Map<EffectiveSection, AccessSection>();
  for (const { section, sections } of walked.sections) {
    const kind = KINDS[section.key];
    if (kind === undefined) continue;
    found.set(section, {
      kind,
      pattern: section.args.at(-1) ?? "",
      regex: kind.endsWith("Match") || section.args[0] === "~",
      section,
      span: section.span,
      vhost: enclosingVirtualHost(sections),
      parents: sections.filter(isAccessSection),
      access: [],
      auth: [],
      handlers: [],
    });
  }
  const place = (name: string, key: string, args: string[], span: Span, sections: readonly EffectiveSection[]) => {
    const which = category(key, args);
    if (which === null) return;
    const innermost = sections.findLastIndex(isAccessSection);
    const owner = innermost < 0 ? undefined : found.get(sections[innermost]!);
    if (owner === undefined) return;
    owner[which].push({ name, args, span, within: sections.slice(innermost + 1).map(sectionLabel) });
  };
  // Reading order: sections and directives merged by their walk index.
  const lines = [
    ...walked.directives.map((entry) => ({ node: entry.directive, sections: entry.sections, index: entry.index })),
    ...walked.sections.map((entry) => ({ node: entry.section, sections: entry.sections, index: entry.index })),
  ].sort((a, b) => a.index - b.index);
  for (const { node, sections } of lines) place(node.name, node.key, node.args, node.span, sections);
  return [...found.values()];
}
