import { describe, expect, it } from "vitest";
import { decodeFile, joinLogicalLines, splitLines } from "../../../harness/conf/lex-lines.ts";

describe("decodeFile", () => {
  it("reads UTF-8, falls back to latin1, takes a BOM off and flags NUL bytes", () => {
    expect(decodeFile(Buffer.from("é\n"))).toEqual({ text: "é\n", encoding: "utf8", bom: false, binary: false });
    expect(decodeFile(Buffer.from([0xe9, 0x0a]))).toEqual({ text: "é\n", encoding: "latin1", bom: false, binary: false });
    expect(decodeFile(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ text: "A", encoding: "utf8", bom: true, binary: false });
    expect(decodeFile(Buffer.from([0x41, 0x00])).binary).toBe(true);
  });
});

describe("splitLines", () => {
  it("takes CR LF as the file's line end only when every line ends so", () => {
    expect(splitLines("a\r\nb\r\n")).toMatchObject({ lineEnd: "\r\n", finalLineEnd: true, lines: [{ text: "a", eol: "\r\n", body: "a" }, { text: "b" }] });
    expect(splitLines("a\r\nb\n")).toMatchObject({ lineEnd: "\n", lines: [{ text: "a\r", eol: "\n", body: "a" }, { text: "b", body: "b" }] });
    expect(splitLines("a\r\nb")).toMatchObject({ lineEnd: "\r\n", finalLineEnd: false, lines: [{ eol: "\r\n" }, { text: "b", eol: "" }] });
    expect(splitLines("")).toEqual({ lines: [], lineEnd: "\n", finalLineEnd: false });
  });
});

describe("joinLogicalLines", () => {
  it("joins continued lines and maps every joined character back to its line and column", () => {
    const [line] = joinLogicalLines(splitLines("  Foo a\\\n\tb \\\nc\n").lines);
    expect(line).toMatchObject({ firstLine: 1, lastLine: 3, text: "  Foo a\tb c", trimStart: 2, trimEnd: 11, raw: "  Foo a\\\n\tb \\\nc" });
    expect([2, 6, 7, 8, 10].map((i) => line?.positionOf(i))).toEqual([
      { line: 1, column: 3 },
      { line: 1, column: 7 },
      { line: 2, column: 1 },
      { line: 2, column: 2 },
      { line: 3, column: 1 },
    ]);
  });

  it("notes a backslash followed by spaces, and two backslashes at a line end", () => {
    const lines = joinLogicalLines(splitLines("a \\ \nb\\\\\nc\n").lines);
    expect(lines.map((line) => line.text)).toEqual(["a \\ ", "b\\c"]);
    expect(lines.flatMap((line) => line.notes.map((note) => [note.line, note.column]))).toEqual([
      [1, 3],
      [2, 2],
    ]);
  });
});
