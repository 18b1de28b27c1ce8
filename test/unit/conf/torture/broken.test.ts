// Sections httpd refuses (server/config.c ap_build_config_sub and ap_build_config): the parser reports each at
// the place httpd names, keeps going, and loses no byte. `httpd -t` on 2.2.34 and 2.4.68 gives the same messages
// for `</Directory >` ("missing closing '>'") and refuses `</IfModule> x` in a holding <IfModule>.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../../harness/conf/parse-file.ts";
import { printFile } from "../../../../harness/conf/print-file.ts";
import type { DirectiveNode, ParsedFile, SectionNode } from "../../../../harness/conf/syntax-tree.ts";

const read = (name: string): { bytes: Buffer; file: ParsedFile } => {
  const bytes = readFileSync(`test/fixtures/conf/torture/${name}`);
  return { bytes, file: parseFile(name, bytes) };
};
const brief = (file: ParsedFile): string[] => file.problems.map((p) => `${p.severity} ${p.file}:${p.line}:${p.column} ${p.message}`);

describe("torture: broken sections", () => {
  it("closes an unclosed <VirtualHost> at the end of the file with an error at its <", () => {
    const { bytes, file } = read("unclosed.conf");
    const vhost = file.nodes[0] as SectionNode;
    expect(vhost).toMatchObject({ closeRaw: null, closeSpan: null, span: { line: 1, column: 1, endLine: 5, endColumn: 16 } });
    expect((vhost.children[1] as SectionNode).closeRaw).toBe("    </Directory>");
    expect(brief(file)).toEqual(["error unclosed.conf:1:1 <VirtualHost> was not closed before the end of the file"]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });

  it("reports </Directory> closing a <Location> at the close, as httpd's 'Expected </Location> but saw </Directory>'", () => {
    const { bytes, file } = read("mismatched.conf");
    expect(file.nodes.map((node) => node.kind)).toEqual(["section", "directive"]);
    expect((file.nodes[1] as DirectiveNode).name).toBe("Listen");
    expect(brief(file)).toEqual(["error mismatched.conf:3:1 Expected </Location> but saw </Directory>"]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });

  it("keeps a stray </IfModule> as an opaque node and reads the lines after it", () => {
    const { bytes, file } = read("stray-close.conf");
    expect(file.nodes.map((node) => node.kind)).toEqual(["directive", "opaque", "directive"]);
    expect(brief(file)).toEqual(["error stray-close.conf:2:1 </IfModule> without matching <IfModule> section"]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });

  it("reports a missing > on an opening, a space before > on a close, and text after >", () => {
    const { bytes, file } = read("missing-bracket.conf");
    expect(file.nodes.map((node) => [node.kind, (node as SectionNode).name])).toEqual([
      ["section", "Directory"],
      ["section", "Files"],
    ]);
    expect((file.nodes[0] as SectionNode).args.map((arg) => arg.value)).toEqual(["/srv"]);
    expect(brief(file)).toEqual([
      "error missing-bracket.conf:1:1 <Directory> directive missing closing '>'",
      "error missing-bracket.conf:3:1 </Directory> directive missing closing '>'",
      "warning missing-bracket.conf:4:14 httpd ignores the text after the last '>' of <Files>",
      "warning missing-bracket.conf:5:10 httpd ignores the text after </Files>",
    ]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });
});
