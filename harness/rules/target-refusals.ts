// The configuration model's own refusals that only the 2.4 target view has (an Include wildcard that matches
// nothing: 2.2 reads on, 2.4 refuses to start), as findings of the rules that own their messages
// (Rule.ownsRefusals). A refusal names a place, not a node (httpd acts on Include while reading, so the
// evaluated views keep no node for it); the node is read back from the tree's file at that place.
import type { EffectiveDirective, EffectiveSection, Guard } from "../conf/effective-config.ts";
import { parseFile } from "../conf/parse-file.ts";
import type { ConfProblem, DirectiveNode, SectionNode, SyntaxNode } from "../conf/syntax-tree.ts";
import type { OwnedDetection } from "./invalid-commands.ts";
import type { LintContext } from "./lint-context.ts";
import type { Rule } from "./rule.ts";

function samePlace(a: ConfProblem, b: ConfProblem): boolean {
  return a.file === b.file && a.line === b.line && a.column === b.column;
}

/** Refusals of the target view at lines the source view did not refuse (the two versions word the same
 * refusal differently: 2.2's "Include directory '...' not found" is 2.4's "Could not open directory"). */
export function targetOnlyRefusals(context: LintContext): ConfProblem[] {
  const refused22 = context.source.problems.filter((problem) => problem.severity === "refusal" || problem.severity === "error");
  return context.target.problems.filter((problem) => problem.severity === "refusal" && !refused22.some((other) => samePlace(problem, other)));
}

const CONDITIONALS = new Set(["ifmodule", "ifdefine", "ifversion", "iffile", "ifdirective", "ifsection"]);

export interface PlacedNode {
  node: EffectiveDirective | EffectiveSection;
  /** The sections around it, outermost first, conditional ones left out (they are its guards). */
  sections: EffectiveSection[];
}

/** The node written at a problem's place, read from the tree's file, with the sections around it and, as its
 * guards, the conditional sections it sits in (a 2.2 branch stays a 2.2 branch). */
export function nodeAt(context: LintContext, problem: ConfProblem): PlacedNode | null {
  const { files, links } = context.tree.source;
  const path = files.has(problem.file) ? problem.file : links.get(problem.file);
  const bytes = path === undefined ? undefined : files.get(path);
  if (bytes === undefined) return null;
  const effective = (node: DirectiveNode | SectionNode, guards: Guard[]): EffectiveDirective | EffectiveSection => {
    const args = node.args.map((word) => word.value);
    const span = { ...node.span, file: problem.file };
    return node.kind === "directive"
      ? { kind: "directive", name: node.name, key: node.key, args, span, node, guards }
      : { kind: "section", name: node.name, key: node.key, args, span, node, guards, children: [] };
  };
  const find = (nodes: readonly SyntaxNode[], sections: EffectiveSection[], guards: Guard[]): PlacedNode | null => {
    for (const node of nodes) {
      if (node.kind !== "directive" && node.kind !== "section") continue;
      if (node.span.line === problem.line && node.span.column === problem.column) return { node: effective(node, guards), sections };
      if (node.kind === "section" && node.span.line <= problem.line && problem.line <= node.span.endLine) {
        const inner = CONDITIONALS.has(node.key)
          ? find(node.children, sections, guards.concat({ name: node.name, condition: node.argsText.trim(), span: { ...node.span, file: problem.file } }))
          : find(node.children, sections.concat(effective(node, guards) as EffectiveSection), guards);
        if (inner) return inner;
      }
    }
    return null;
  };
  return find(parseFile(problem.file, bytes).nodes, [], []);
}

/** Target-only refusals a rule owns, as that rule's detections. What no rule owns stays a problem only. */
export function targetRefusals(context: LintContext, rules: readonly Rule[]): OwnedDetection[] {
  const found: OwnedDetection[] = [];
  for (const problem of targetOnlyRefusals(context)) {
    const owner = rules.find((rule) => rule.ownsRefusals?.some((pattern) => pattern.test(problem.message)));
    if (owner === undefined) continue;
    const placed = nodeAt(context, problem);
    if (placed === null) continue;
    found.push({
      rule: owner.id,
      detection: { node: placed.node, sections: placed.sections, message: `2.4 refuses to start: ${problem.message}`, fix: problem.hint ?? owner.fix ?? null },
    });
  }
  return found;
}
