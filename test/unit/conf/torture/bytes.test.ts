// Line ends, byte-order marks and encodings: the tree reads what httpd reads and the printer gives back the
// very bytes. httpd on Unix does not take a UTF-8 byte-order mark away (that code in ap_pcfg_openfile is under
// #ifdef WIN32; `httpd -t` on 2.2.34 and 2.4.68 says "Invalid command '\xef\xbb\xbf#'" for a BOM before a comment),
// and reads bytes, not characters: latin1 text is kept byte for byte.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../../harness/conf/parse-file.ts";
import { printFile } from "../../../../harness/conf/print-file.ts";
import type { CommentNode, DirectiveNode, ParsedFile, SectionNode } from "../../../../harness/conf/syntax-tree.ts";

const read = (name: string): { bytes: Buffer; file: ParsedFile } => {
  const bytes = readFileSync(`test/fixtures/conf/torture/${name}`);
  return { bytes, file: parseFile(name, bytes) };
};

describe("torture: line ends and encodings", () => {
  it("reads a CR LF file with no CR in any value, and prints it back without a final line end", () => {
    const { bytes, file } = read("crlf.conf");
    expect(file).toMatchObject({ lineEnd: "\r\n", finalLineEnd: false, encoding: "utf8", bom: false, problems: [] });
    const directory = file.nodes[2] as SectionNode;
    expect(directory.args.map((arg) => arg.value)).toEqual(["/srv/www"]);
    const options = directory.children[0] as DirectiveNode;
    expect(options).toMatchObject({ argsText: "Indexes         FollowSymLinks", raw: "    Options Indexes \\\r\n        FollowSymLinks" });
    expect((file.nodes[3] as DirectiveNode).args.map((arg) => arg.value)).toEqual(["80"]);
    expect(JSON.stringify(file.nodes)).not.toMatch(/"value":"[^"]*\\r/);
    expect(printFile(file).equals(bytes)).toBe(true);
  });

  it("keeps each line's own end in a file mixing CR LF and LF", () => {
    const { bytes, file } = read("mixed-line-ends.conf");
    expect(file.nodes.map((node) => (node as DirectiveNode).args.map((arg) => arg.value))).toEqual([["1"], ["2"], ["3", "4"]]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });

  it("takes a byte-order mark off, reports that httpd would refuse it, and writes it back", () => {
    const { bytes, file } = read("bom.conf");
    expect(file.bom).toBe(true);
    expect((file.nodes[0] as DirectiveNode)).toMatchObject({ name: "ServerRoot", span: { line: 1, column: 1 } });
    expect(file.problems).toEqual([expect.objectContaining({ severity: "refusal", line: 1, column: 1, hint: expect.any(String) })]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });

  it("decodes a latin1 file as latin1 (é in a comment and in arguments) and writes the same bytes", () => {
    const { bytes, file } = read("latin1.conf");
    expect(file.encoding).toBe("latin1");
    expect((file.nodes[0] as CommentNode).text).toBe(" Propriétaire : José");
    expect((file.nodes[1] as DirectiveNode).args.map((arg) => arg.value)).toEqual(["José <jose@example.test>"]);
    expect((file.nodes[2] as DirectiveNode).args.map((arg) => arg.value)).toEqual(["/café", "/srv/café"]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });

  it("reads the same text as UTF-8 when it is UTF-8", () => {
    const { bytes, file } = read("utf8.conf");
    expect(file.encoding).toBe("utf8");
    expect((file.nodes[2] as DirectiveNode).args.map((arg) => arg.value)).toEqual(["/café", "/srv/café"]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });

  it("gives a file with NUL bytes one error at 1:1 with a hint, only an opaque node, and its bytes back", () => {
    const { bytes, file } = read("binary.conf");
    expect(file.nodes.map((node) => node.kind)).toEqual(["opaque"]);
    expect(file.problems).toEqual([expect.objectContaining({ severity: "error", file: "binary.conf", line: 1, column: 1, hint: expect.any(String) })]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });
});
