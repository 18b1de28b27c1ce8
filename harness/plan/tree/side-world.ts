// What the probe world is on one side, as the plan stages it (world-staging.ts) and the observation and the judge
// read it: per URL, the file behind it and whether the world planted it or the tree holds it; the stores that
// hold the world's users. Plain data.
import type { ObjectKind, ProbeTarget } from "../../scenario/probe-world.ts";

/** What one URL of the world is on this side. */
export interface SideWorldObject {
  target: ProbeTarget;
  url: string;
  /** The file behind it on this side; null when the config maps the URL to no file the harness can name. */
  path: string | null;
  /** planted: the world made it; tree: the tree (or the image's own staging) holds it; none: nothing is there. */
  held: "planted" | "tree" | "none";
  /** What is there: the planted kind (a directory URL's index may be a script), or the kind asked for. */
  kind: ObjectKind;
  /** The marker of what was planted there (another URL's, when two URLs name one file); null unless planted. */
  marker: string | null;
  /** sha256 of the tree's file, so the judge knows it when it is served as it is; null unless held by the tree. */
  sha256: string | null;
  /** Why nothing is there (held "none"). */
  reason: string | null;
}

/** A store of identities on this side and how the world reached it. */
export interface SideWorldStore {
  path: string;
  directive: string;
  format: "file" | "group" | "dbm-user" | "dbm-group";
  held: "tree" | "made";
}

export interface SideWorld {
  objects: SideWorldObject[];
  stores: SideWorldStore[];
  users: string[];
}
