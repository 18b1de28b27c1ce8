// Where a finding about a default the tree leaves unset is placed: there is no line of the row's own, so the
// finding points at the line that makes the default matter, the first DocumentRoot (the changed defaults are
// about serving files: sendfile, ETags), as the 2.4 target reads the tree. A tree that sets no DocumentRoot
// serves no files of its own, and gets no such finding.
import { walkConfig, type WalkedDirective } from "../conf/queries/walk-config.ts";
import { ONLY_IN_24, type LintContext } from "./lint-context.ts";

export function defaultAnchor(context: LintContext): WalkedDirective | null {
  // A fragment is read into a server config it does not own: the server's defaults are not its to set.
  if (context.target.layout === "fragment") return null;
  // A tree that loads a module only 2.4 has (its MPM, mod_authz_core) was written for 2.4: 2.4's defaults are
  // what its authors saw.
  if (writtenFor24(context)) return null;
  const roots = walkConfig(context.target).byKey.get("documentroot") ?? [];
  // The main server's DocumentRoot is its last one (a later line replaces an earlier); without one there, the
  // first a virtual host sets.
  return roots.filter((entry) => entry.sections.length === 0).at(-1) ?? roots[0] ?? null;
}

/** Whether the tree sets a directive anywhere, as either version reads it. */
export function setsAnywhere(context: LintContext, key: string): boolean {
  return [context.source, context.target].some((config) => (walkConfig(config).byKey.get(key)?.length ?? 0) > 0);
}

const written24 = new WeakMap<LintContext, boolean>();

/** Whether the tree was written for 2.4, so that 2.4's defaults and 2.4's reading of its Require lines are its
 * authors' choice and how 2.2 would read it is moot: it loads a module only 2.4 has (its MPM, mod_authz_core),
 * or 2.2 reads a line of it that only 2.4 has (`<RequireAny>`, `Mutex`...), which 2.2 refuses at start: such a
 * tree never ran on 2.2 (a fragment written for 2.4 loads nothing itself, the stock config does). */
export function writtenFor24(context: LintContext): boolean {
  const known = written24.get(context);
  if (known !== undefined) return known;
  const loads24 = (walkConfig(context.target).byKey.get("loadmodule") ?? []).some((entry) => {
    const file = entry.directive.args[1]?.split("/").pop();
    return file !== undefined && ONLY_IN_24.has(file);
  });
  const only24 = (key: string): boolean => context.directives["2.2"].modulesOf(key).length === 0 && context.directives["2.4"].modulesOf(key).length > 0;
  const source = walkConfig(context.source);
  const answer = loads24 || source.sections.some((entry) => only24(entry.section.key)) || [...source.byKey.keys()].some(only24);
  written24.set(context, answer);
  return answer;
}
