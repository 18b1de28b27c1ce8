// Which module registers a directive on each release line, from the tables real servers listed
// (versions/directive-tables.ts). Lint asks: would this line be an "Invalid command" on 2.4 with the modules
// the tree loads there, and did it exist on 2.2 at all.
import { moduleIdOfFile } from "../conf/module-identity.ts";
import { BUILD_2_2_34, BUILD_2_4_62, type DirectiveTable } from "../versions/directive-tables.ts";
import type { Family } from "../versions/httpd-version.ts";

export interface DirectiveKnowledge {
  family: Family;
  /** Module ids that register the directive (lower-case key, sections without `<`); empty when none does. */
  modulesOf(key: string): readonly string[];
  /** Module file names the build installs (`mod_rewrite.so`). */
  moduleFiles: ReadonlySet<string>;
}

function knowledge(family: Family, tables: readonly DirectiveTable[]): DirectiveKnowledge {
  const byKey = new Map<string, string[]>();
  for (const table of tables) {
    for (const [name, sources] of table.directives) {
      const key = name.replace(/^<|>$/g, "").toLowerCase();
      const list = byKey.get(key) ?? [];
      for (const source of sources.split(",")) {
        const id = moduleIdOfFile(source) ?? `${source.replace(/\.c$/, "")}_module`;
        if (!list.includes(id)) list.push(id);
      }
      byKey.set(key, list);
    }
  }
  return {
    family,
    modulesOf: (key) => byKey.get(key.replace(/^</, "").toLowerCase()) ?? [],
    moduleFiles: new Set(tables.flatMap((table) => table.moduleFiles)),
  };
}

/** One table per family (2.4's holds the directives of both its event and prefork builds). */
export const DIRECTIVES: Readonly<Record<Family, DirectiveKnowledge>> = {
  "2.2": knowledge("2.2", [BUILD_2_2_34]),
  "2.4": knowledge("2.4", [BUILD_2_4_62]),
};
