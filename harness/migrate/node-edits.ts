// Edits of a parsed file without touching it: the parse is shared with every evaluation of the same bytes
// (conf/evaluate-tree.ts parseCached), so a rewrite builds new node lists and leaves the old ones alone. New lines
// are written with the indentation of the line they replace or follow and parsed, so the printer gives them
// back as written; untouched nodes print byte for byte.
import { parseFile } from "../conf/parse-file.ts";
import type { ParsedFile, SectionNode, SyntaxNode } from "../conf/syntax-tree.ts";

export interface NodeEdit {
  anchor: SyntaxNode;
  /** Lines that take the anchor's place ([]: removed); undefined: the anchor stays. */
  replace?: readonly string[];
  before?: readonly string[];
  after?: readonly string[];
}

function indentOf(node: SyntaxNode): string {
  const raw = node.kind === "section" ? node.openRaw : node.raw;
  return /^[ \t]*/.exec(raw)?.[0] ?? "";
}

/** Lines (their own relative indentation kept) as nodes indented like `like`. */
export function nodesOf(lines: readonly string[], indent: string): SyntaxNode[] {
  if (lines.length === 0) return [];
  const text = lines.map((line) => (line === "" ? "" : indent + line)).join("\n");
  return parseFile("(migrate)", Buffer.from(text, "utf8")).nodes;
}

export function applyNodeEdits(file: ParsedFile, edits: readonly NodeEdit[]): ParsedFile {
  if (edits.length === 0) return file;
  const byAnchor = new Map<SyntaxNode, NodeEdit[]>();
  for (const edit of edits) byAnchor.set(edit.anchor, [...(byAnchor.get(edit.anchor) ?? []), edit]);
  const rewrite = (nodes: readonly SyntaxNode[]): SyntaxNode[] => {
    const out: SyntaxNode[] = [];
    for (const node of nodes) {
      const own = byAnchor.get(node);
      let self: SyntaxNode[] = [node];
      if (node.kind === "section") {
        const children = rewrite(node.children);
        if (children.some((child, i) => child !== node.children[i]) || children.length !== node.children.length) {
          // Field by field: a parsed node's span, name, words and opening line are getters (parse-file.ts), which a
          // spread does not copy.
          const { kind, name, key, args, argsText, span, openRaw, closeRaw, closeSpan } = node;
          self = [{ kind, name, key, args, argsText, children, span, openRaw, closeRaw, closeSpan } satisfies SectionNode];
        }
      }
      if (own === undefined) {
        out.push(...self);
        continue;
      }
      const indent = indentOf(node);
      const replaced = own.find((edit) => edit.replace !== undefined);
      for (const edit of own) out.push(...nodesOf(edit.before ?? [], indent));
      out.push(...(replaced ? nodesOf(replaced.replace!, indent) : self));
      for (const edit of own) out.push(...nodesOf(edit.after ?? [], indent));
    }
    return out;
  };
  return { ...file, nodes: rewrite(file.nodes) };
}
