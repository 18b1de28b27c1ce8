// A syntax tree → the file's bytes. An unmodified parse prints back byte for byte (same line ends, byte-order
// mark, final line end, encoding); a node a rewrite changed is printed canonically, keeping its neighbours'
// bytes untouched.
//
// How the printer knows a node was changed: no flag to keep in step, a rewrite only changes the fields it means
// to change. A node is printed as its `raw` (a section: its `openRaw`) when that raw still reads, by the parser's
// own rules, as the node's name and argument values (a comment: its text). Otherwise (a rewrite set `raw: ""`,
// or changed `name`/`args` and left `raw` alone) the node is printed canonically, `Name arg "quoted arg"`,
// indented like its first line, or like its neighbours when it has no raw. For a node parseFile made and nobody
// touched, that check is one comparison with what the parser remembered (unchangedSinceParse), not a second
// reading. A section's close is printed as written unless it no longer names the section; a new section (close
// "" or null) gets `</Name>`. A value holding a line break or NUL cannot be written in httpd's syntax at all:
// printing one throws (HARNESS_INTERNAL), as it is a bug in the rewrite.

import { HarnessError } from "../errors.ts";
import { encodeText } from "./lex-lines.ts";
import { parseFile, unchangedSinceParse } from "./parse-file.ts";
import { quoteWord, readWord } from "./read-words.ts";
import type { ParsedFile, SectionNode, SyntaxNode, Word } from "./syntax-tree.ts";

const childIndent = "    ";

export function printFile(file: ParsedFile): Buffer {
  const lines: string[] = [];
  printNodes(file.nodes, "", lines);
  let text = lines.join(file.lineEnd);
  if (file.finalLineEnd && lines.length > 0) text += file.lineEnd;
  if (file.encoding === "latin1" && /[^\u0000-\u00ff]/.test(text)) {
    throw new HarnessError(
      "HARNESS_CONFIG_FILE",
      `${file.path} is a latin1 file, and a rewrite put characters into it that latin1 cannot hold`,
      { hint: "save the file as UTF-8 first" },
    );
  }
  const body = encodeText(text, file.encoding);
  return file.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}

function printNodes(nodes: readonly SyntaxNode[], fallbackIndent: string, out: string[]): void {
  nodes.forEach((node, index) => {
    switch (node.kind) {
      case "blank":
      case "opaque":
        out.push(node.raw);
        return;
      case "comment":
        out.push(
          (unchangedSinceParse(node) === true || commentReads(node.raw, node.text))
            ? node.raw
            : `${indentOf(nodes, index, fallbackIndent)}#${writable(node.text)}`,
        );
        return;
      case "directive":
        out.push(
          (unchangedSinceParse(node) === true || headReads(node.raw, "directive", node.name, node.args))
            ? node.raw
            : indentOf(nodes, index, fallbackIndent) + canonicalDirective(node.name, node.args),
        );
        return;
      case "section":
        printSection(node, indentOf(nodes, index, fallbackIndent), out);
        return;
    }
  });
}

function printSection(node: SectionNode, indent: string, out: string[]): void {
  const openReads = unchangedSinceParse(node) === true || headReads(node.openRaw, "section", node.name, node.args);
  out.push(openReads ? node.openRaw : indent + canonicalOpening(node.name, node.args));
  printNodes(node.children, indent + childIndent, out);
  if (node.closeRaw === null && openReads) return; // unclosed as written: keep it so
  if (node.closeRaw !== null && node.closeRaw !== "" && (openReads || closeNames(node.closeRaw, node.name))) {
    out.push(node.closeRaw);
    return;
  }
  out.push(`${indent}</${node.name}>`);
}

export function canonicalDirective(name: string, args: readonly Word[]): string {
  return [quoteWord(writable(name)), ...args.map((arg) => quoteWord(writable(arg.value)))].join(" ");
}

export function canonicalOpening(name: string, args: readonly Word[]): string {
  return `<${[writable(name), ...args.map((arg) => quoteWord(writable(arg.value)))].join(" ")}>`;
}

/** httpd reads a file line by line and a line stops at NUL: a rewrite that put either in a value has a bug, and
 * printing it would silently change the lines around it. */
function writable(value: string): string {
  if (/[\n\0]/.test(value)) {
    throw new HarnessError("HARNESS_INTERNAL", `a rewritten configuration value holds a line break or NUL: ${JSON.stringify(value)}`);
  }
  return value;
}

/** The indentation of the node's first line; for a node without raw text, its nearest neighbour's. */
function indentOf(nodes: readonly SyntaxNode[], index: number, fallback: string): string {
  const own = leadingSpace(firstRaw(nodes[index] as SyntaxNode));
  if (own !== null) return own;
  for (let i = index - 1; i >= 0; i--) {
    const found = leadingSpace(firstRaw(nodes[i] as SyntaxNode));
    if (found !== null) return found;
  }
  for (let i = index + 1; i < nodes.length; i++) {
    const found = leadingSpace(firstRaw(nodes[i] as SyntaxNode));
    if (found !== null) return found;
  }
  return fallback;
}

function firstRaw(node: SyntaxNode): string {
  return node.kind === "section" ? node.openRaw : node.kind === "blank" ? "" : node.raw;
}

function leadingSpace(raw: string): string | null {
  if (raw.trim() === "") return null;
  return /^[ \t]*/.exec(raw)?.[0] ?? "";
}

/** Whether `raw` still reads (as the parser reads it) as a node of `kind` with this name and these values. A
 * node's raw has no final line end; in the file one follows it unless it is the file's last line, and a last
 * backslash reads differently with or without it, so both readings count. */
function headReads(raw: string, kind: "directive" | "section", name: string, args: readonly Word[]): boolean {
  if (raw === "") return false;
  return [raw, `${raw}\n`].some((text) => {
    const parsed = parseFile("", Buffer.from(text, "utf8"));
    const node = parsed.nodes[0];
    if (parsed.nodes.length !== 1 || node === undefined || node.kind !== kind) return false;
    return node.name === name && sameValues(node.args, args);
  });
}

function commentReads(raw: string, text: string): boolean {
  if (raw === "") return false;
  return [raw, `${raw}\n`].some((candidate) => {
    const parsed = parseFile("", Buffer.from(candidate, "utf8"));
    const node = parsed.nodes[0];
    return parsed.nodes.length === 1 && node?.kind === "comment" && node.text === text;
  });
}

function sameValues(a: readonly Word[], b: readonly Word[]): boolean {
  return a.length === b.length && a.every((word, i) => word.value === (b[i] as Word).value);
}

function closeNames(closeRaw: string, name: string): boolean {
  const word = readWord(closeRaw, 0);
  if (word === null || !word.value.startsWith("</")) return false;
  const closed = word.value.endsWith(">") ? word.value.slice(2, -1) : word.value.slice(2);
  return closed.toLowerCase() === name.toLowerCase();
}
