import { describe, expect, it } from "vitest";
import { LineReadings, parseFile } from "../../../harness/conf/parse-file.ts";
import type { DirectiveNode, ParsedFile, SectionNode, SyntaxNode } from "../../../harness/conf/syntax-tree.ts";

const parse = (text: string): ParsedFile => parseFile("t.conf", Buffer.from(text, "utf8"));

function only<K extends SyntaxNode["kind"]>(nodes: readonly SyntaxNode[], kind: K): Extract<SyntaxNode, { kind: K }>[] {
  return nodes.filter((node): node is Extract<SyntaxNode, { kind: K }> => node.kind === kind);
}
const directives = (text: string): DirectiveNode[] => only(parse(text).nodes, "directive");
const values = (text: string): string[][] => directives(text).map((node) => node.args.map((arg) => arg.value));
const messages = (file: ParsedFile): string[] => file.problems.map((p) => `${p.severity} ${p.line}:${p.column} ${p.message}`);

describe("parseFile: directives and words", () => {
  it("keeps the name as written and lower-cases the key", () => {
    const [node] = directives("  DocumentRoot /srv/www\n");
    expect(node).toMatchObject({ name: "DocumentRoot", key: "documentroot", argsText: "/srv/www", raw: "  DocumentRoot /srv/www" });
    expect(node?.span).toEqual({ file: "t.conf", line: 1, column: 3, endLine: 1, endColumn: 23 });
  });

  it("reads double and single quotes, and a backslash escapes only the quote character or a backslash", () => {
    expect(values(String.raw`Header set X "a \"b\" c" 'd \'e\' f' "g\h" "i\\j" 'k\"l'` + "\n")).toEqual([
      ["set", "X", 'a "b" c', "d 'e' f", "g\\h", "i\\j", 'k\\"l'],
    ]);
  });

  it("collapses \\\\ to \\ in unquoted words too, and keeps other backslashes", () => {
    expect(values(String.raw`Foo a\\b c\d e\ f` + "\n")).toEqual([["a\\b", "c\\d", "e\\", "f"]]);
  });

  it("ends a quoted word at its closing quote even without a space after it", () => {
    expect(values(`Foo "a"b 'it''s' x"y"\n`)).toEqual([["a", "b", "it", "s", 'x"y"']]);
  });

  it("reads an unterminated quote to the end of the line, with a warning at the quote", () => {
    const file = parse(String.raw`Foo "C:\dir\" bar` + "\n");
    expect(only(file.nodes, "directive")[0]?.args.map((arg) => arg.value)).toEqual(['C:\\dir" bar']);
    expect(messages(file)).toEqual([expect.stringMatching(/^warning 1:5 the quote " opened here is never closed/)]);
  });

  it("takes # after the name as an argument: httpd has no trailing comments", () => {
    expect(values("Listen 80 # the web\n")).toEqual([["80", "#", "the", "web"]]);
  });

  it("gives each word its line (below the node's own) and column, the quote included", () => {
    const [node] = directives(`Foo  "a b"\tc\n`);
    expect(node?.args.map((arg) => [arg.raw, arg.quote, arg.lineOffset, arg.column])).toEqual([
      ['"a b"', '"', 0, 6],
      ["c", null, 0, 12],
    ]);
  });
});

describe("parseFile: comments and blank lines", () => {
  it("makes a comment of a line starting with # after whitespace, its text after the #", () => {
    const file = parse("\t# note\n\n   \nFoo\n");
    expect(file.nodes.map((node) => node.kind)).toEqual(["comment", "blank", "blank", "directive"]);
    expect(file.nodes[0]).toMatchObject({ text: " note", raw: "\t# note", span: { line: 1, column: 2, endColumn: 7 } });
    expect(file.nodes[2]).toMatchObject({ raw: "   ", span: { line: 3, column: 1 } });
  });
});

describe("parseFile: continuation lines", () => {
  it("joins a line ending in a backslash with the next, taking away only the backslash and the line end", () => {
    const file = parse("Foo a \\\n    b\\\nc\nBar\n");
    const [foo, bar] = only(file.nodes, "directive");
    expect(foo?.argsText).toBe("a     bc");
    expect(foo?.args.map((arg) => [arg.value, arg.lineOffset, arg.column])).toEqual([
      ["a", 0, 5],
      ["bc", 1, 5],
    ]);
    expect(foo?.raw).toBe("Foo a \\\n    b\\\nc");
    expect(foo?.span).toMatchObject({ line: 1, endLine: 3, endColumn: 1 });
    expect(bar?.span.line).toBe(4);
    expect(file.problems).toEqual([]);
  });

  it("does not continue a line whose backslash is followed by whitespace, and says so", () => {
    const file = parse("Foo a \\  \nBar\n");
    expect(only(file.nodes, "directive").map((node) => [node.name, node.args.map((arg) => arg.value)])).toEqual([
      ["Foo", ["a", "\\"]],
      ["Bar", []],
    ]);
    expect(messages(file)).toEqual([expect.stringMatching(/^warning 1:7 a backslash followed by whitespace does not continue/)]);
  });

  it("keeps the backslash of a last line without a line end, and drops it with one", () => {
    expect(values("Foo a \\")).toEqual([["a", "\\"]]);
    expect(values("Foo a \\\n")).toEqual([["a"]]);
  });

  it("lets a comment ending in a backslash swallow the next line, as httpd does, with a warning", () => {
    const file = parse("# off \\\nListen 80\nListen 81\n");
    expect(file.nodes.map((node) => node.kind)).toEqual(["comment", "directive"]);
    expect(file.nodes[0]).toMatchObject({ text: " off Listen 80", raw: "# off \\\nListen 80" });
    expect(messages(file)).toEqual([expect.stringMatching(/^warning 1:1 this comment ends in a backslash, so httpd reads line 2/)]);
  });

  it("does not warn when every line a backslashed comment swallows is a comment or blank (nothing is lost)", () => {
    // Debian's default-ssl comments out a multi-line SSLRequire whose lines end in backslashes.
    const file = parse("\t#SSLRequire ( %{SSL_CIPHER} !~ m/^(EXP|NULL)/ \\\n\t#   and %{TIME_WDAY} >= 1 \\\n\t#   or %{REMOTE_ADDR} =~ m/^10/\nListen 80\n");
    expect(file.nodes.map((node) => node.kind)).toEqual(["comment", "directive"]);
    expect(messages(file)).toEqual([]);
    // One real directive among them is lost, and warned about.
    expect(messages(parse("#a \\\n#b \\\nListen 80\nListen 81\n"))).toEqual([expect.stringMatching(/^warning 1:1 this comment ends in a backslash, so httpd reads lines 2-3/)]);
  });

  it("follows 2.4 for two backslashes at a line end (continued) and warns that 2.2 reads it otherwise", () => {
    const file = parse("Foo a\\\\\nb\n");
    expect(only(file.nodes, "directive")[0]?.args.map((arg) => arg.value)).toEqual(["a\\b"]);
    expect(messages(file)).toEqual([expect.stringMatching(/^warning 1:6 this line ends in two backslashes: httpd 2.4 continues/)]);
  });

  it("warns that a commented-out line inside a continued directive is read as arguments", () => {
    const file = parse("AddType text/html \\\n  # .htm \\\n  .html\n");
    expect(values("AddType text/html \\\n  # .htm \\\n  .html\n")).toEqual([["text/html", "#", ".htm", ".html"]]);
    expect(messages(file)).toEqual([expect.stringMatching(/^warning 2:3 this line continues the line before it/)]);
  });

  it("continues a CR LF line ending in a backslash", () => {
    const file = parse("Foo a\\\r\n b\r\n");
    expect(only(file.nodes, "directive")[0]).toMatchObject({ argsText: "a b", raw: "Foo a\\\r\n b" });
    expect(file.lineEnd).toBe("\r\n");
  });
});

describe("parseFile: sections", () => {
  it("nests sections and closes them case-insensitively", () => {
    const file = parse("<VirtualHost *:80>\n  <Directory /srv>\n    Require all granted\n  </directory>\n</VIRTUALHOST>\nAfter\n");
    const [vhost, after] = file.nodes as [SectionNode, DirectiveNode];
    expect(vhost).toMatchObject({ name: "VirtualHost", key: "virtualhost", argsText: "*:80", openRaw: "<VirtualHost *:80>", closeRaw: "</VIRTUALHOST>" });
    expect(vhost.args.map((arg) => arg.value)).toEqual(["*:80"]);
    expect(vhost.span).toEqual({ file: "t.conf", line: 1, column: 1, endLine: 5, endColumn: 14 });
    expect(vhost.closeSpan).toEqual({ file: "t.conf", line: 5, column: 1, endLine: 5, endColumn: 14 });
    const inner = vhost.children.find((node) => node.kind === "section") as SectionNode;
    expect(inner).toMatchObject({ name: "Directory", closeRaw: "  </directory>", span: { line: 2, column: 3, endLine: 4, endColumn: 14 } });
    expect(inner.children.map((node) => node.kind)).toEqual(["directive"]);
    expect(after.name).toBe("After");
    expect(file.problems).toEqual([]);
  });

  it("reads a section's arguments up to the last > of the line", () => {
    const [a, b, c] = parse('<IfVersion >= 2.3>\n</IfVersion>\n<Location ~ "^/(a|b)>">\n</Location>\n<IfModule   mod_ssl.c  >\n</IfModule>\n')
      .nodes as SectionNode[];
    expect(a?.args.map((arg) => arg.value)).toEqual([">=", "2.3"]);
    expect(a?.argsText).toBe(">= 2.3");
    expect(b?.args.map((arg) => arg.value)).toEqual(["~", "^/(a|b)>"]);
    expect(c?.argsText).toBe("mod_ssl.c");
  });

  it("opens a section written without arguments", () => {
    const [node] = parse("<Else>\n</Else>\n").nodes as SectionNode[];
    expect(node).toMatchObject({ name: "Else", args: [], argsText: "" });
  });

  it("reports an opening line without >", () => {
    const file = parse("<Directory /srv\n</Directory>\n");
    expect(file.nodes[0]).toMatchObject({ kind: "section", name: "Directory", argsText: "/srv" });
    expect(messages(file)).toEqual(["error 1:1 <Directory> directive missing closing '>'"]);
  });

  it("reports a close written with a space before >, and text after a close", () => {
    const file = parse("<Directory /a>\n</Directory >\n<Directory /b>\n</Directory> x\n");
    expect(only(file.nodes, "section")).toHaveLength(2);
    expect(messages(file)).toEqual([
      "error 2:1 </Directory> directive missing closing '>'",
      "warning 4:14 httpd ignores the text after </Directory>",
    ]);
  });

  it("warns harder about text after the close of a conditional section, which httpd then does not see", () => {
    const file = parse("<IfModule mod_ssl.c>\n</IfModule> # ssl\n");
    expect(messages(file)).toEqual([expect.stringMatching(/^warning 2:13 text after <\/IfModule>: when the condition holds, httpd .* refuses to start/)]);
  });

  it("closes an unclosed section at the end of the file, with an error at its <", () => {
    const file = parse("Foo\n  <Location /a>\n    Bar\n");
    const section = file.nodes[1] as SectionNode;
    expect(section).toMatchObject({ closeRaw: null, closeSpan: null, span: { line: 2, column: 3, endLine: 3, endColumn: 7 } });
    expect(section.children).toHaveLength(1);
    expect(file.problems).toEqual([
      {
        severity: "error",
        file: "t.conf",
        line: 2,
        column: 3,
        message: "<Location> was not closed before the end of the file",
        hint: "add </Location> where the section ends",
      },
    ]);
  });

  it("reports a mismatched close at the close and lets it end the innermost section", () => {
    const file = parse("<Location /a>\n  Foo\n</Directory>\nBar\n");
    expect(file.nodes.map((node) => node.kind)).toEqual(["section", "directive"]);
    expect((file.nodes[0] as SectionNode).closeRaw).toBe("</Directory>");
    expect(messages(file)).toEqual(["error 3:1 Expected </Location> but saw </Directory>"]);
  });

  it("lets a close naming an outer section close it, reporting the inner one unclosed", () => {
    const file = parse("<VirtualHost *>\n<Location /a>\nFoo\n</VirtualHost>\nBar\n");
    const vhost = file.nodes[0] as SectionNode;
    expect(vhost.closeRaw).toBe("</VirtualHost>");
    expect((vhost.children[0] as SectionNode).closeRaw).toBeNull();
    expect(file.nodes[1]?.kind).toBe("directive");
    expect(messages(file)).toEqual([expect.stringMatching(/^error 2:1 <Location> was not closed \(<\/VirtualHost> at line 4/)]);
  });

  it("keeps a stray close as an opaque node with an error, and goes on", () => {
    const file = parse("</Directory>\nFoo\n");
    expect(file.nodes[0]).toMatchObject({ kind: "opaque", raw: "</Directory>", reason: "</Directory> without matching <Directory> section" });
    expect(file.nodes[1]?.kind).toBe("directive");
    expect(messages(file)).toEqual(["error 1:1 </Directory> without matching <Directory> section"]);
  });
});

describe("parseFile: bytes", () => {
  it("reads CR LF files without CR in any value, and remembers the line end and the final one", () => {
    const file = parse("Foo a\r\nBar b");
    expect(values("Foo a\r\nBar b")).toEqual([["a"], ["b"]]);
    expect(file).toMatchObject({ lineEnd: "\r\n", finalLineEnd: false, encoding: "utf8", bom: false });
    expect((file.nodes[0] as DirectiveNode).raw).toBe("Foo a");
  });

  it("takes a byte-order mark off the text and reports that httpd on Unix does not", () => {
    const file = parseFile("t.conf", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("ServerRoot /x\n")]));
    expect(file.bom).toBe(true);
    expect((file.nodes[0] as DirectiveNode).name).toBe("ServerRoot");
    expect(file.problems.map((p) => [p.severity, p.line, p.column])).toEqual([["refusal", 1, 1]]);
  });

  it("decodes bytes that are not UTF-8 as latin1", () => {
    const file = parseFile("t.conf", Buffer.from("# caf\xe9\nServerAdmin r\xe9mi@example.org\n", "latin1"));
    expect(file.encoding).toBe("latin1");
    expect((file.nodes[1] as DirectiveNode).args[0]?.value).toBe("rémi@example.org");
  });

  it("gives a file holding NUL bytes one error and one opaque node", () => {
    const file = parseFile("logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0a, 0x00, 0x01]));
    expect(file.nodes.map((node) => node.kind)).toEqual(["opaque"]);
    expect(file.problems).toEqual([expect.objectContaining({ severity: "error", file: "logo.png", line: 1, column: 1, hint: expect.any(String) })]);
  });

  it("warns about a line longer than httpd 2.2 reads at once (8191 bytes, as httpd -t on 2.2.34 showed)", () => {
    const at = (length: number): string[] => messages(parse(`Foo ${"a".repeat(length - 4)}\nBar\n`));
    expect(at(8191)).toEqual([]);
    expect(at(8192)).toEqual([expect.stringMatching(/^warning 1:1 this line is longer than httpd 2.2 reads at once/)]);
  });

  it("warns that a file with CR-only line ends is one line to httpd", () => {
    const file = parse("Listen 80\rListen 81\r");
    expect(only(file.nodes, "directive").map((node) => node.args.map((arg) => arg.value))).toEqual([["80", "Listen", "81"]]);
    expect(messages(file)).toEqual([expect.stringMatching(/^warning 1:1 the file's lines end in CR alone/)]);
  });

  it("tells UTF-16 text from other binary files in its problem", () => {
    const file = parseFile("t.conf", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Listen 80\n", "utf16le")]));
    expect(file.nodes.map((node) => node.kind)).toEqual(["opaque"]);
    expect(file.problems).toEqual([expect.objectContaining({ severity: "error", message: expect.stringContaining("UTF-16"), hint: expect.stringContaining("UTF-8") })]);
  });

  it("reads each line's text from the file's own bytes, whatever their encoding, BOM and line ends", () => {
    // A line not read before is made from the bytes when every character is one byte (ASCII UTF-8, latin1), and
    // sliced from the decoded text otherwise: both must give the lines as the text splits them.
    const lines = ["Listen 80", "<VirtualHost *:80>", "  ServerAdmin r\xe9mi@example.org", "  ServerName a.test\r", "</VirtualHost>", "Listen 80"];
    const cases: Array<[string, Buffer]> = [
      ["ascii", Buffer.from(lines.join("\n").replace("\xe9", "e"), "latin1")],
      ["bom", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join("\n").replace("\xe9", "e"), "latin1")])],
      ["latin1", Buffer.from(lines.join("\n"), "latin1")],
      ["utf8", Buffer.from(lines.join("\n"), "utf8")],
      ["crlf", Buffer.from(lines.join("\r\n").replace("\r\r", "\r").replace("\xe9", "e"), "latin1")],
    ];
    for (const [name, bytes] of cases) {
      const file = parseFile("t.conf", bytes);
      const section = file.nodes[1] as SectionNode;
      const read = [file.nodes[0] as DirectiveNode, ...only(section.children, "directive"), file.nodes[2] as DirectiveNode];
      const text = lines.map((line) => (name === "ascii" || name === "bom" || name === "crlf" ? line.replace("\xe9", "e") : line));
      expect([read[0]!.raw, section.openRaw, read[1]!.raw, read[2]!.raw.replace(/\r$/, ""), section.closeRaw, read[3]!.raw], name).toEqual(text.map((line) => line.replace(/\r$/, "")));
      expect(read[1]!.args.map((word) => word.value), name).toEqual([text[2]!.trim().split(" ")[1]]);
      expect(read[2]!.args.map((word) => word.value), name).toEqual(["a.test"]);
      expect(read.map((node) => [node.span.line, node.span.column, node.span.endColumn]), name).toEqual([
        [1, 1, 9],
        [3, 3, 30],
        [4, 3, 19],
        [6, 1, 9],
      ]);
    }
  });

  it("gives the words of a line asked later, short or longer than its packed word positions hold (2^15)", () => {
    for (const length of [10, 40_000]) {
      const long = "a".repeat(length);
      const file = parse(`Header set X ${long}\n<Directory "/srv/${long}">\n</Directory>\n`);
      const [directive, section] = file.nodes as [DirectiveNode, SectionNode];
      expect(directive.args.map((word) => [word.value, word.column])).toEqual([["set", 8], ["X", 12], [long, 14]]);
      expect(section.args.map((word) => [word.value, word.raw, word.column])).toEqual([[`/srv/${long}`, `"/srv/${long}"`, 12]]);
    }
  });

  it("reads an empty file as no nodes", () => {
    expect(parse("")).toMatchObject({ nodes: [], problems: [], finalLineEnd: false });
  });
});

describe("LineReadings shared by the files of a tree", () => {
  it("reads each file as a parse of its own does, whatever runs of lines the files share", () => {
    const block = (host: string) => ["<VirtualHost *:80>", `    ServerName ${host}`, "    Order allow,deny", "    Allow from all", "", "</VirtualHost>"];
    const texts = [
      [...block("a"), ...block("b"), "Foo \\", "  bar", ...block("c")].join("\n"),
      // The same lines in another order, a run broken by a new line, a line that reads with a problem, a continued one.
      [...block("d").reverse().filter((line) => !line.startsWith("<")), "Allow from all", "<Directory \"x>", "</Directory>", "  Order allow,deny", "    Order allow,deny", ...block("a")].join("\n"),
      ["    Order allow,deny", "    Order allow,deny \\", "    Allow from all", "    Allow from all"].join("\n"),
    ];
    const shape = (file: ParsedFile) => JSON.stringify({ nodes: file.nodes, problems: file.problems });
    const readings = new LineReadings();
    for (const [i, text] of texts.entries()) {
      const alone = parseFile(`f${i}.conf`, Buffer.from(text, "utf8"));
      expect(shape(parseFile(`f${i}.conf`, Buffer.from(text, "utf8"), readings))).toBe(shape(alone));
    }
    // And again, every line now known.
    for (const [i, text] of texts.entries()) expect(shape(parseFile(`f${i}.conf`, Buffer.from(text, "utf8"), readings))).toBe(shape(parseFile(`f${i}.conf`, Buffer.from(text, "utf8"))));
  });

  it("places a close read before only where it closes the innermost section, and reads it anew elsewhere", () => {
    const texts = [
      ["<VirtualHost *:80>", "  <Directory /a>", "  </Directory>", "</VirtualHost>", "<Location /x>", "</location>"].join("\n"),
      // The same close lines: stray, closing an outer section over an open one, misspelt, and inside a macro body.
      ["</VirtualHost>", "<VirtualHost *:80>", "  <Directory /b>", "</VirtualHost>", "<Location /y>", "  </Directory>", "</location>"].join("\n"),
      ["<Macro M>", "  <Directory /c>", "  </Directory>", "</VirtualHost>", "</Macro>", "<VirtualHost *:80>", "  <Directory /d>", "  </Directory>", "</VirtualHost>"].join("\n"),
    ];
    const shape = (file: ParsedFile) => JSON.stringify({ nodes: file.nodes, problems: file.problems });
    const readings = new LineReadings();
    for (const round of [1, 2]) {
      for (const [i, text] of texts.entries()) {
        expect(shape(parseFile(`f${i}.conf`, Buffer.from(text, "utf8"), readings)), `round ${round}, file ${i}`).toBe(shape(parseFile(`f${i}.conf`, Buffer.from(text, "utf8"))));
      }
    }
  });

  it("makes a line's words when asked just as it reads a continued line's words as it goes", () => {
    // One physical line keeps only where its words are (read when asked); a continued one reads them at once.
    const line = `  Foo a "b c" 'd e' f\\"g <h> \t"i\\"j"`;
    const alone = parse(`${line}\n`).nodes[0] as DirectiveNode;
    const continued = parse(`${line} \\\n  k\n`).nodes[0] as DirectiveNode;
    const words = (node: DirectiveNode) => node.args.map(({ value, raw, quote, lineOffset, column }) => ({ value, raw, quote, lineOffset, column }));
    expect(words(alone)).toEqual(words(continued).slice(0, -1));
    expect(words(alone).map((word) => word.column)).toEqual([7, 9, 15, 21, 26, 31]);
  });

  it("keeps a node's place beyond the numbers it packs: a line of 40,000 columns, a section of 2,000 lines", () => {
    const long = parse(`Foo ${"x".repeat(40_000)}\n`).nodes[0] as DirectiveNode;
    expect(long.span).toEqual({ file: "t.conf", line: 1, column: 1, endLine: 1, endColumn: 40_004 });
    const body = Array.from({ length: 2_000 }, () => "  Bar").join("\n");
    const section = parse(`<Location />\n${body}\n</Location>\n`).nodes[0] as SectionNode;
    expect(section.span).toEqual({ file: "t.conf", line: 1, column: 1, endLine: 2_002, endColumn: 11 });
    expect(section.children.at(-1)!.span).toEqual({ file: "t.conf", line: 2_001, column: 3, endLine: 2_001, endColumn: 5 });
  });
});
