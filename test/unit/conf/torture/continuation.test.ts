// Continuation lines as httpd's ap_cfg_getline_core (server/util.c) joins them: a backslash right before the
// line end continues the line, nothing else does, and the joining happens before the comment test. Checked
// with `httpd -t` on 2.2.34 and 2.4.68: `\ ` does not continue, `# c \` swallows the next line, a commented-out
// line inside a continuation is read, `\\` at a line end continues in 2.4 only.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../../harness/conf/parse-file.ts";
import { printFile } from "../../../../harness/conf/print-file.ts";
import type { DirectiveNode, ParsedFile, SectionNode, SyntaxNode } from "../../../../harness/conf/syntax-tree.ts";

const read = (name: string): { bytes: Buffer; file: ParsedFile } => {
  const bytes = readFileSync(`test/fixtures/conf/torture/${name}`);
  return { bytes, file: parseFile(name, bytes) };
};
const { bytes, file } = read("continuation.conf");
const top = (kind: SyntaxNode["kind"]): SyntaxNode[] => file.nodes.filter((node) => node.kind === kind);
const directive = (name: string): DirectiveNode | undefined =>
  file.nodes.find((node): node is DirectiveNode => node.kind === "directive" && node.name === name);

describe("torture: continuation.conf", () => {
  it("joins a list over three lines, keeping each line's indentation as spaces between words", () => {
    const node = directive("AddOutputFilterByType");
    expect(node?.args.map((arg) => [arg.value, arg.lineOffset, arg.column])).toEqual([
      ["DEFLATE", 0, 23],
      ["text/html", 0, 31],
      ["text/css", 1, 5],
      ["application/javascript", 2, 2],
    ]);
    expect(node?.raw).toBe("AddOutputFilterByType DEFLATE text/html \\\n    text/css \\\n\tapplication/javascript");
    expect(node?.span).toMatchObject({ line: 1, column: 1, endLine: 3, endColumn: 23 });
  });

  it("continues inside a quoted word, keeping the next lines' tabs in the value", () => {
    expect(directive("SecRule")?.args.map((arg) => arg.value)).toEqual(["ARGS", "@rx <script", "id:1001,\tphase:2,\tdeny"]);
  });

  it("continues a section's opening line", () => {
    const vhost = top("section")[0] as SectionNode;
    expect(vhost).toMatchObject({ name: "VirtualHost", argsText: "*:80              *:8080", openRaw: "<VirtualHost *:80 \\\n             *:8080>" });
    expect(vhost.args.map((arg) => arg.value)).toEqual(["*:80", "*:8080"]);
    expect(vhost.children.map((node) => (node as DirectiveNode).name)).toEqual(["ServerName"]);
  });

  it("does not continue after a backslash followed by spaces", () => {
    expect(directive("Foo")?.args.map((arg) => arg.value)).toEqual(["one", "\\"]);
    expect(directive("Bar")?.args.map((arg) => arg.value)).toEqual(["two"]);
    expect(file.problems).toContainEqual(expect.objectContaining({ severity: "warning", line: 12, column: 9 }));
  });

  it("lets a comment ending in a backslash swallow the Listen on the next line", () => {
    expect(directive("Listen")).toBeUndefined();
    expect(top("comment")[0]).toMatchObject({ text: " A comment that ends in a backslash Listen 8081", span: { line: 14, endLine: 15 } });
    expect(file.problems).toContainEqual(expect.objectContaining({ severity: "warning", line: 14, column: 1 }));
  });

  it("ends a continuation at an empty line, which belongs to the directive's raw but not to its span", () => {
    expect(directive("Key1")).toMatchObject({ argsText: "abc         pqr", span: { line: 16, endLine: 17, endColumn: 11 } });
    expect(directive("Key1")?.raw).toBe("Key1 abc \\\n        pqr\\\n");
    expect(directive("Key1")?.args.map((arg) => arg.value)).toEqual(["abc", "pqr"]);
    expect(directive("Key2")?.span.line).toBe(19);
  });

  it("joins a line holding only a backslash with the section opening after it", () => {
    const main = top("section")[1] as SectionNode;
    expect(main).toMatchObject({ name: "Main", openRaw: "\\\n<Main>", closeRaw: "</Main>", span: { line: 21, column: 1 } });
  });

  it("follows 2.4 for a line ending in two backslashes, and warns that 2.2 differs", () => {
    expect(directive("Baz")?.args.map((arg) => arg.value)).toEqual(["a\\b"]);
    expect(file.problems).toContainEqual(expect.objectContaining({ severity: "warning", line: 23, message: expect.stringContaining("2.2") }));
  });

  it("drops the backslash of a last line that still has its line end", () => {
    expect(directive("Last")?.args.map((arg) => arg.value)).toEqual(["line"]);
    expect(file.finalLineEnd).toBe(true);
  });

  it("keeps the backslash of a last line without a line end", () => {
    const atEnd = read("continuation-at-end.conf");
    expect((atEnd.file.nodes[0] as DirectiveNode).args.map((arg) => arg.value)).toEqual(["a", "\\"]);
    expect(atEnd.file.problems).toEqual([]);
    expect(printFile(atEnd.file).equals(atEnd.bytes)).toBe(true);
  });

  it("has exactly the problems above, and prints the file back byte for byte", () => {
    expect(file.problems.map((p) => p.line)).toEqual([12, 14, 23]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });
});
