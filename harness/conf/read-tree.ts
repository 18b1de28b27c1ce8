// A configuration tree read at the input boundary and refused, with every reason at once, when the harness
// cannot read it as given (a missing include, an unclosed section, an Include cycle, a link out of the tree),
// as 2.2 or 2.4 would read it. `run --config`, `prove`, `replay` and `fleet` read trees through here.
import { evaluateTree } from "./evaluate-tree.ts";
import type { LayoutId } from "./effective-config.ts";
import { type ConfigTree, loadTree } from "./load-tree.ts";
import type { ConfProblem } from "./syntax-tree.ts";
import { HarnessError } from "../errors.ts";
import { httpdVersion } from "../versions/httpd-version.ts";

/** Reads a tree and refuses it, with every reason at once, when the harness cannot read it as given. */
export async function readTree(path: string, layout: LayoutId | null, defines: readonly string[]): Promise<ConfigTree> {
  const tree = await loadUncheckedTree(path, layout);
  checkTree(tree, path, defines);
  return tree;
}

/** The tree as readTree loads it, not checked: for a caller that checked the same tree before and tells it is the
 * same (the fleet compares its fingerprint, which covers everything the check reads, with the one it checked at
 * its start: the check evaluates the tree for both versions, each time). */
export function loadUncheckedTree(path: string, layout: LayoutId | null): Promise<ConfigTree> {
  return loadTree(path, layout === null ? {} : { layout });
}

/** Refuses a tree, with every reason at once, when the harness cannot read it as given (as 2.2 or 2.4 would). */
export function checkTree(tree: ConfigTree, path: string, defines: readonly string[]): void {
  const problems = new Map<string, ConfProblem>();
  for (const problem of tree.problems) if (problem.severity === "error") problems.set(key(problem), problem);
  for (const version of ["2.2.34", "2.4.68"].map(httpdVersion)) {
    const config = evaluateTree(tree, { version, defines: [...defines], environment: {}, builtinModules: ["core.c", "http_core.c", "mod_so.c"] });
    for (const problem of config.problems) if (problem.severity === "error") problems.set(key(problem), problem);
  }
  if (problems.size === 0) return;
  // Files in the order httpd reads them, lines in order within a file.
  const fileOrder = new Map<string, number>();
  for (const problem of problems.values()) if (!fileOrder.has(problem.file)) fileOrder.set(problem.file, fileOrder.size);
  const list = [...problems.values()].sort((a, b) => fileOrder.get(a.file)! - fileOrder.get(b.file)! || a.line - b.line || a.column - b.column);
  const first = list[0]!;
  const lines = list.map((p) => `  ${p.file}:${p.line}:${p.column}: ${p.message}${p.hint ? ` (${p.hint})` : ""}`);
  throw new HarnessError("HARNESS_CONFIG_FILE", `the configuration tree ${path} cannot be read as given (${list.length} problem${list.length > 1 ? "s" : ""}):\n${lines.join("\n")}`, {
    position: { file: first.file, line: first.line, column: first.column },
    hint: first.hint ?? "Fix the lines named above, or give the files the tree refers to inside it.",
  });
}

function key(problem: ConfProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}:${problem.message}`;
}
