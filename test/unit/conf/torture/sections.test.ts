// Section openings where other Apache parsers go wrong: httpd takes the first word as `<Name` and each section
// handler reads its arguments up to the last `>` of the line (server/core.c, ap_strrchr_c(arg, '>');
// mod_version's <IfVersion> gets them as words and strips the `>` of the last one: the same result).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../../harness/conf/parse-file.ts";
import { printFile } from "../../../../harness/conf/print-file.ts";
import type { DirectiveNode, SectionNode } from "../../../../harness/conf/syntax-tree.ts";

const bytes = readFileSync("test/fixtures/conf/torture/sections.conf");
const file = parseFile("sections.conf", bytes);
const sections = file.nodes.filter((node): node is SectionNode => node.kind === "section");
const head = (section: SectionNode | undefined): [string, string[]] => [section?.name ?? "", section?.args.map((arg) => arg.value) ?? []];

describe("torture: sections.conf", () => {
  it("reads <IfVersion> comparisons whose operator holds a >", () => {
    expect(sections.slice(0, 3).map(head)).toEqual([
      ["IfVersion", [">=", "2.3"]],
      ["IfVersion", ["~", "^2\\.4"]],
      ["ifversion", ["!~", "^2\\.2"]],
    ]);
    expect(sections[0]?.children.map((node) => (node as DirectiveNode).name)).toEqual(["Require"]);
    expect(sections[2]).toMatchObject({ key: "ifversion", closeRaw: "</IFVERSION>" });
  });

  it("keeps a > inside a quoted regular expression", () => {
    expect(head(sections[3])).toEqual(["Location", ["~", "^/(a|b)>"]]);
    expect(head(sections[4])).toEqual(["LocationMatch", ["^/(?<name>[^/]+)"]]);
  });

  it("reads an opening quote that never closes up to the last >, the space before it included", () => {
    expect(head(sections[5])).toEqual(["Directory", ["~", "/.svn "]]);
    expect(head(sections[6])).toEqual(["Location", ["~", "/(.*)/adm"]]);
  });

  it("reads a quoted path with a space and closes case-insensitively", () => {
    expect(head(sections[7])).toEqual(["Files", ["with space.txt"]]);
  });

  it("reads a <Macro> as a section whose arguments are the $names, its body as plain nodes", () => {
    const macro = sections[8] as SectionNode;
    expect(head(macro)).toEqual(["Macro", ["VHost", "$name", "${domain}"]]);
    const vhost = macro.children.find((node): node is SectionNode => node.kind === "section");
    expect(vhost?.children.map((node) => [(node as DirectiveNode).name, (node as DirectiveNode).args.map((arg) => arg.value)])).toEqual([
      ["ServerName", ["$name.${domain}"]],
      ["DocumentRoot", ["/srv/$name"]],
    ]);
    const use = file.nodes.find((node): node is DirectiveNode => node.kind === "directive" && node.key === "use");
    expect(use?.args.map((arg) => arg.value)).toEqual(["VHost", "www", "example.test"]);
  });

  it("nests negated <IfDefine> and <IfModule>", () => {
    const ifDefine = sections[9] as SectionNode;
    expect(head(ifDefine)).toEqual(["IfDefine", ["!SSL"]]);
    const ifModule = ifDefine.children.find((node): node is SectionNode => node.kind === "section");
    expect(head(ifModule)).toEqual(["IfModule", ["!mod_ssl.c"]]);
    expect(ifModule?.span).toMatchObject({ line: 26, column: 3, endLine: 28, endColumn: 13 });
  });

  it("opens sections written without arguments", () => {
    expect(sections.slice(10).map(head)).toEqual([
      ["VirtualHost", []],
      ["Else", []],
    ]);
  });

  it("reports only the two unterminated quotes, and prints the file back byte for byte", () => {
    expect(file.problems.map((p) => [p.severity, p.line])).toEqual([
      ["warning", 12],
      ["warning", 14],
    ]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });
});
