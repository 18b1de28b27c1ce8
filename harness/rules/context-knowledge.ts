// Where each directive is allowed on each release line, from `httpd -L` of real servers
// (versions/directive-contexts.ts). A directive written where its version does not allow it fails the config
// test ("X not allowed here", AH00526 on 2.4). Lint and migrate ask: would this line, in these sections, be
// refused by 2.4, and was it refused by 2.2 already.
import { CONTEXTS_2_2_34, CONTEXTS_2_4_62, type ContextTable, type DirectiveWhere } from "../versions/directive-contexts.ts";
import type { Family } from "../versions/httpd-version.ts";

/** Where a line is read: the server or a <VirtualHost> (httpd's "outside"), a per-directory section, a <Proxy>
 * section, or a .htaccess file. */
export type Place = "server" | "directory" | "proxy" | "htaccess";

/** Sections whose body httpd reads as per-directory configuration (cmd->path set). <Limit> and the conditional
 * sections take their place from what encloses them. */
const PER_DIRECTORY = new Set(["directory", "directorymatch", "files", "filesmatch", "location", "locationmatch", "if", "elseif", "else"]);
const PROXY = new Set(["proxy", "proxymatch"]);

/** The place of a line enclosed by sections with these keys (outermost first). */
export function placeOf(sections: ReadonlyArray<{ key: string }>): Place {
  let place: Place = "server";
  for (const section of sections) {
    if (PROXY.has(section.key)) return "proxy";
    if (PER_DIRECTORY.has(section.key)) place = "directory";
  }
  return place;
}

export interface DirectiveContext {
  where: DirectiveWhere;
  /** null: never in .htaccess; []: whenever AllowOverride isn't None; else one of these classes. */
  htaccess: readonly string[] | null;
}

export interface ContextKnowledge {
  family: Family;
  /** Whether the table holds every module's directives (2.2.34's holds only its compiled-in ones). */
  complete: boolean;
  /** The contexts of a directive (lower-case key, sections without `<`); undefined when the table lacks it. A name
   * two modules register is allowed where either allows it. */
  of(key: string): readonly DirectiveContext[] | undefined;
  /** Whether the version refuses the directive at this place; false when the table does not know it. */
  refuses(key: string, place: Place): boolean;
}

export function allows(context: DirectiveContext, place: Place): boolean {
  if (place === "htaccess") return context.htaccess !== null;
  // A <Proxy> section is per-directory, and also takes the directives a module marks PROXY_CONF (mod_ssl's
  // SSLProxy* since 2.4.30), which -L prints as "only outside": from the recording, nothing is known refused there.
  if (place === "proxy") return true;
  if (context.where === "anywhere") return true;
  return place === "server" ? context.where === "outside" : context.where === "inside";
}

function knowledge(table: ContextTable): ContextKnowledge {
  const byKey = new Map<string, DirectiveContext[]>();
  for (const [name, , where, htaccess] of table.directives) {
    const key = name.replace(/^</, "").toLowerCase();
    byKey.set(key, [...(byKey.get(key) ?? []), { where, htaccess }]);
  }
  const of = (key: string): readonly DirectiveContext[] | undefined => byKey.get(key.replace(/^</, "").toLowerCase());
  return {
    family: table.family,
    complete: table.complete,
    of,
    refuses: (key, place) => {
      const contexts = of(key);
      return contexts !== undefined && !contexts.some((context) => allows(context, place));
    },
  };
}

export const CONTEXTS: Readonly<Record<Family, ContextKnowledge>> = {
  "2.2": knowledge(CONTEXTS_2_2_34),
  "2.4": knowledge(CONTEXTS_2_4_62),
};

/** In an operator's words, where 2.4 takes a directive. */
export function whereText(where: DirectiveWhere): string {
  return where === "inside"
    ? "only inside <Directory>, <Files>, <Location> or <If>"
    : where === "outside"
      ? "only outside <Directory>, <Files>, <Location> and <If> (server or <VirtualHost> level)"
      : "anywhere";
}
