// One configuration of a fleet, as discovery or a fleet.yaml names it: where it is, how to read it, what its
// findings may ignore. Its id is what reports, shards and blobs know it by.
import type { LayoutId } from "../conf/effective-config.ts";

export interface FleetConfig {
  /** Unique in the fleet; a scenario id (letters, digits, . _ -), made from the label. */
  id: string;
  /** The path as reports show it: relative to the working directory when inside it, "/"-separated. */
  label: string;
  /** The absolute host path (a directory, or one file). */
  path: string;
  layout: LayoutId | null;
  defines: string[];
  /** An ignore file for this config's findings alone (fleet.yaml `ignore:`), absolute; null: the fleet's. */
  ignoreFile: string | null;
}

/** Pure: scenario ids from labels, unique, in the order given: what follows the directories all labels share
 * ("configs/web/apache2", "configs/db/apache2" → "web-apache2", "db-apache2"; one label → its last part). */
export function configIds(labels: readonly string[]): string[] {
  const taken = new Set<string>();
  const parts = labels.map((label) => label.replace(/^\.\/+/, "").split("/").filter((part) => part !== ""));
  let shared = parts.length > 0 ? Math.min(...parts.map((p) => p.length - 1)) : 0;
  for (let index = 0; index < shared; index++) {
    if (parts.some((p) => p[index] !== parts[0]![index])) {
      shared = index;
      break;
    }
  }
  return parts.map((part) => {
    const base = part.slice(shared).join("-").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "") || "config";
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    taken.add(id);
    return id;
  });
}
