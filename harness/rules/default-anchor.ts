// Where a finding about a default the tree leaves unset is placed: there is no line of the row's own, so the
// finding points at the first server-wide line of the main file (where the operator would add the directive),
// as the 2.4 target reads the tree.
import { walkConfig, type WalkedDirective } from "../conf/queries/walk-config.ts";
import type { LintContext } from "./lint-context.ts";

export function defaultAnchor(context: LintContext): WalkedDirective | null {
  const { directives } = walkConfig(context.target);
  return (
    directives.find((entry) => entry.directive.span.file === context.target.mainFile && entry.sections.length === 0) ??
    directives.find((entry) => entry.sections.length === 0) ??
    null
  );
}

/** Whether the tree sets a directive anywhere, as either version reads it. */
export function setsAnywhere(context: LintContext, key: string): boolean {
  return [context.source, context.target].some((config) => (walkConfig(config).byKey.get(key)?.length ?? 0) > 0);
}
