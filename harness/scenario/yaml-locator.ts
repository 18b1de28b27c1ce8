// Maps a path into the parsed value (["requests", 0, "expect", "2.4", "status"]) back to the YAML node it came
// from, and that node to file:line:column. Keys are compared as text, so `2.4:` (a number in YAML) matches "2.4".
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from "yaml";
import type { SourcePosition } from "../errors.ts";

export type PathSegment = string | number;

export interface LocatedNode {
  /** The deepest node the path reaches (the document's root when nothing matches). */
  node: Node | null;
  /** The key of the pair `node` is the value of, when it is one. */
  key: Node | null;
  /** How many segments of the path were found. */
  depth: number;
}

export class YamlLocator {
  constructor(
    private readonly source: string,
    private readonly doc: Document,
    private readonly lineCounter: LineCounter,
    private readonly file: string,
  ) {}

  locate(path: readonly PathSegment[]): LocatedNode {
    let node = this.resolve(this.doc.contents);
    let key: Node | null = null;
    let depth = 0;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
        if (pair === undefined) break;
        key = pair.key as Node;
        node = this.resolve(pair.value as Node | null);
      } else if (isSeq(node) && typeof segment === "number") {
        const item = node.items[segment];
        if (item === undefined) break;
        key = null;
        node = this.resolve(item as Node | null);
      } else {
        break;
      }
      depth += 1;
      if (node === null) break;
    }
    return { node, key, depth };
  }

  /** The position of the value at `path`; of its key when the value is empty (`key:` with nothing after it);
   * of the deepest existing parent when the path does not exist (a missing key points at its map). */
  position(path: readonly PathSegment[]): SourcePosition {
    const { node, key } = this.locate(path);
    if (node === null || isEmptyScalar(node)) return this.nodePosition(key ?? node);
    return this.nodePosition(node);
  }

  /** The position of the key of the last segment (for unknown keys), else of the value. */
  keyPosition(path: readonly PathSegment[]): SourcePosition {
    const located = this.locate(path);
    if (located.depth === path.length && located.key !== null) return this.nodePosition(located.key);
    return this.position(path);
  }

  /** The source text of the scalar at `path` and its offset in the file, for finding things inside it. */
  scalarSource(path: readonly PathSegment[]): { text: string; offset: number } | null {
    const located = this.locate(path);
    if (located.depth !== path.length || !isScalar(located.node) || located.node.range == null) return null;
    const [start, end] = located.node.range;
    return { text: this.source.slice(start, end), offset: start };
  }

  offsetPosition(offset: number): SourcePosition {
    const { line, col } = this.lineCounter.linePos(offset);
    return { file: this.file, line, column: col };
  }

  private nodePosition(node: Node | null): SourcePosition {
    const offset = node?.range?.[0];
    if (offset === undefined) return { file: this.file, line: 1, column: 1 };
    return this.offsetPosition(offset);
  }

  private resolve(node: Node | null | undefined): Node | null {
    let current: Node | null | undefined = node;
    for (let hops = 0; isAlias(current) && hops < 100; hops += 1) current = current.resolve(this.doc) as Node | undefined;
    return current ?? null;
  }
}

function isEmptyScalar(node: Node): boolean {
  return isScalar(node) && node.value === null && (node.range == null || node.range[0] === node.range[1]);
}
