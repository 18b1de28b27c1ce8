// Whether the lines migrate writes are allowed on 2.4 where they land: each line, read inside the sections of the
// line it is written beside (and inside the sections it opens itself), against 2.4's recorded contexts
// (rules/context-knowledge.ts). migrate never writes a line 2.4 would refuse with "not allowed here".
import { parseFile } from "../conf/parse-file.ts";
import type { SyntaxNode } from "../conf/syntax-tree.ts";
import { CONTEXTS, placeOf, type Place } from "../rules/context-knowledge.ts";
import type { DirectiveWhere } from "../versions/directive-contexts.ts";

export interface RefusedLine {
  /** The directive as written (`<Limit` for a section). */
  name: string;
  /** Where 2.4 takes it. */
  where: DirectiveWhere;
  place: Place;
}

// Conditional sections: read where they are, their body at the same place.
const EVALUATOR = new Set(["ifmodule", "ifdefine", "ifversion", "iffile", "ifdirective", "ifsection"]);

/** The lines among `lines` that 2.4 refuses when written inside `sections` (keys, outermost first). */
export function refusedLines(lines: readonly string[], sections: ReadonlyArray<{ key: string }>): RefusedLine[] {
  const refused: RefusedLine[] = [];
  const visit = (nodes: readonly SyntaxNode[], enclosing: ReadonlyArray<{ key: string }>): void => {
    const place = placeOf(enclosing);
    for (const node of nodes) {
      if (node.kind !== "directive" && node.kind !== "section") continue;
      if (!EVALUATOR.has(node.key) && CONTEXTS["2.4"].refuses(node.key, place)) {
        refused.push({ name: node.kind === "section" ? `<${node.name}` : node.name, where: CONTEXTS["2.4"].of(node.key)![0]!.where, place });
      }
      if (node.kind === "section") visit(node.children, [...enclosing, { key: node.key }]);
    }
  };
  visit(parseFile("(migrate)", Buffer.from(lines.join("\n"), "utf8")).nodes, sections);
  return refused;
}
