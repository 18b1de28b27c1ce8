// The migrated tree as a unified diff against the original (jsdiff), paths a/ and b/ relative to the tree.
import { createTwoFilesPatch } from "diff";
import type { SourceTree } from "../conf/source-tree.ts";

export function treeDiff(before: SourceTree, after: SourceTree): string {
  const paths = [...new Set([...before.files.keys(), ...after.files.keys()])].sort();
  const parts: string[] = [];
  for (const path of paths) {
    const a = before.files.get(path);
    const b = after.files.get(path);
    if (a !== undefined && b !== undefined && a.equals(b)) continue;
    parts.push(createTwoFilesPatch(a === undefined ? "/dev/null" : `a/${path}`, b === undefined ? "/dev/null" : `b/${path}`, a?.toString("utf8") ?? "", b?.toString("utf8") ?? "", undefined, undefined, { context: 3 }));
  }
  return parts.join("");
}
