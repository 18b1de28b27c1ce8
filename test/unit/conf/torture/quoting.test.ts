// Quotes and backslashes where other Apache parsers go wrong, with the values httpd's ap_getword_conf
// (server/util.c, 2.2.34 and 2.4.62) gives for them; the quoting rules were also checked with `httpd -t` on
// 2.2.34 and 2.4.68, the test value written as a directive name so that httpd echoes it ("Invalid command").
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFile } from "../../../../harness/conf/parse-file.ts";
import { printFile } from "../../../../harness/conf/print-file.ts";
import type { DirectiveNode } from "../../../../harness/conf/syntax-tree.ts";

const path = "test/fixtures/conf/torture/quoting.conf";
const bytes = readFileSync(path);
const file = parseFile("quoting.conf", bytes);
const byName = (name: string, nth = 0): DirectiveNode => {
  const found = file.nodes.filter((node): node is DirectiveNode => node.kind === "directive" && node.name === name)[nth];
  if (found === undefined) throw new Error(`no ${name} #${nth} in ${path}`);
  return found;
};
const values = (name: string, nth = 0): string[] => byName(name, nth).args.map((arg) => arg.value);

describe("torture: quoting.conf", () => {
  it("unescapes \\\" inside double quotes and keeps the quotes' content whole", () => {
    expect(values("Header")).toEqual(["set", "X-A", 'a "b" c']);
    expect(values("LogFormat")).toEqual(['%h %l %u %t "%r" %>s %b', "common"]);
  });

  it("reads 'it''s' as two words, it and s", () => {
    expect(values("Header", 1)).toEqual(["set", "X-B", "it", "s"]);
  });

  it('reads "C:\\path\\" as an unterminated quote: the \\" is an escaped quote', () => {
    expect(values("DocumentRoot")).toEqual(['C:\\path"']);
    expect(file.problems).toContainEqual(expect.objectContaining({ severity: "warning", line: 4, column: 14 }));
  });

  it("keeps backslashes that escape nothing and takes one of \\\\", () => {
    expect(values("Alias")).toEqual(["/x", "C:\\Program Files\\x\\"]);
    expect(values("RewriteCond")).toEqual(["%{HTTP:Accept-Encoding}", "\\b(x-)?gzip\\b"]);
    expect(values("SetEnvIf")).toEqual(["Request_URI", "\\.gif$", "image=yes"]);
  });

  it("does not let a backslash escape a space outside quotes", () => {
    expect(values("RewriteRule")).toEqual(["^/a\\", "b", "/c", "[L]"]);
  });

  it("splits two quoted words written without a space between them", () => {
    expect(values("ProxyPassReverse")).toEqual(["/js/app", "http://127.0.0.1:8123/js/app/"]);
  });

  it("keeps quotes inside an unquoted word as literal characters", () => {
    expect(values("RequestHeader")).toEqual(["set", "X-Proto", "https", `expr=(%{HTTP:X-Visitor}='{"scheme":"https"}')`]);
  });

  it("reads an ErrorDocument message with only an opening quote to the end of the line", () => {
    expect(values("ErrorDocument")).toEqual(["404", "The page was not found."]);
  });

  it("keeps =, -D and glob characters as plain text", () => {
    expect(values("Define")).toEqual(["X", "a=b"]);
    expect(values("Foo")).toEqual(["-DSSL", "-D", "SSL"]);
    expect(values("IncludeOptional")).toEqual(["[c]onf.d/*.conf"]);
    expect(values("CustomLog")).toEqual(["|/usr/bin/rotatelogs -l /var/log/access.%Y-%m-%d 86400", "combined"]);
  });

  it("reads a # after a directive as arguments, not a comment", () => {
    expect(values("AddDefaultCharset")).toEqual(["off", "#", "not", "a", "comment"]);
  });

  it("reads empty quotes as empty words, and whitespace runs inside quotes as written", () => {
    expect(byName("Empty").args.map((arg) => [arg.value, arg.quote])).toEqual([
      ["", '"'],
      ["", "'"],
    ]);
    expect(byName("Indented")).toMatchObject({ argsText: '"with   spaces"\ttab', span: { line: 19, column: 6 } });
    expect(values("Indented")).toEqual(["with   spaces", "tab"]);
  });

  it("reports only the unterminated quotes, and prints the file back byte for byte", () => {
    expect(file.problems.map((p) => [p.severity, p.line])).toEqual([
      ["warning", 4],
      ["warning", 10],
    ]);
    expect(printFile(file).equals(bytes)).toBe(true);
  });
});
