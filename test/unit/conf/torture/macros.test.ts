// <Macro> bodies as mod_macro (2.4, modules/core/mod_macro.c get_lines_till_end_token) reads them: lines up to
// the matching </Macro>, counting only <Macro> nesting. A body may open a section another macro closes; httpd
// only warns, and so does the parser, without letting such a close end the macro or anything outside it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../../harness/conf/parse-file.ts";
import { printFile } from "../../../../harness/conf/print-file.ts";
import type { DirectiveNode, SectionNode } from "../../../../harness/conf/syntax-tree.ts";

const bytes = readFileSync("test/fixtures/conf/torture/macro-unbalanced.conf");
const file = parseFile("macro-unbalanced.conf", bytes);
const brief = file.problems.map((p) => `${p.severity} ${p.line}:${p.column} ${p.message}`);

describe("torture: macro-unbalanced.conf", () => {
  it("keeps every macro at the top level with its own body, and the Use lines after them", () => {
    expect(file.nodes.map((node) => (node.kind === "section" || node.kind === "directive" ? `${node.kind}:${node.name}` : node.kind))).toEqual([
      "section:Macro",
      "section:Macro",
      "section:Macro",
      "directive:Use",
      "directive:Use",
      "opaque",
      "opaque",
      "directive:Listen",
    ]);
  });

  it("ends a body that leaves <VirtualHost> open at </Macro>, with a warning at the <VirtualHost>", () => {
    const open = file.nodes[0] as SectionNode;
    expect(open.args.map((arg) => arg.value)).toEqual(["OpenSite", "$host"]);
    expect(open.closeRaw).toBe("</Macro>");
    const vhost = open.children[0] as SectionNode;
    expect(vhost).toMatchObject({ name: "VirtualHost", closeRaw: null });
    expect((vhost.children[0] as DirectiveNode).args[0]?.value).toBe("$host");
    expect(brief).toContain("warning 2:1 <VirtualHost> is left open in the body of <Macro>; the macro's expansion must close it");
  });

  it("keeps a </VirtualHost> without its opening inside the body as an opaque line, with a warning", () => {
    const close = file.nodes[1] as SectionNode;
    expect(close.children.map((node) => node.kind)).toEqual(["directive", "opaque"]);
    expect(close.closeRaw).toBe("</Macro>");
    expect(brief).toContain(
      "warning 7:1 </VirtualHost> without its opening in the body of <Macro>; the macro's expansion must open it",
    );
  });

  it("nests a macro in a macro, each </Macro> closing the innermost", () => {
    const outer = file.nodes[2] as SectionNode;
    const inner = outer.children[0] as SectionNode;
    expect([outer.span.line, outer.span.endLine, inner.span.line, inner.span.endLine]).toEqual([9, 13, 10, 12]);
  });

  it("refuses a '<' with no section name as an error, without swallowing the lines after it", () => {
    expect(brief.filter((line) => line.startsWith("error"))).toEqual([
      "error 16:1 Invalid command '<': a '<' with no section name",
      "error 17:1 Invalid command '<': a '<' with no section name",
    ]);
    expect(brief).toHaveLength(4);
    expect(printFile(file).equals(bytes)).toBe(true);
  });
});
