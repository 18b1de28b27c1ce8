import { describe, expect, it } from "vitest";
import { applyLineEdits } from "../../../../harness/plan/tree/line-edit.ts";

describe("applyLineEdits", () => {
  it("returns the text unchanged when there is no edit", () => {
    expect(applyLineEdits("a\r\nb\n", [])).toBe("a\r\nb\n");
  });

  it("replaces one line and keeps every other line and the line count", () => {
    const text = "Listen 80\nLoadModule a_module /x/mod_a.so\nUser daemon\n";
    const out = applyLineEdits(text, [{ file: "f", line: 2, endLine: 2, text: "LoadModule a_module /m/mod_a.so" }]);
    expect(out).toBe("Listen 80\nLoadModule a_module /m/mod_a.so\nUser daemon\n");
    expect(out.split("\n")).toHaveLength(text.split("\n").length);
  });

  it("pads a directive continued over three lines with comment lines, so the lines after it keep their numbers", () => {
    const text = "A\nCustomLog \"|/usr/bin/logger \\\n  -t web\" \\\n  combined\nB\n";
    const out = applyLineEdits(text, [{ file: "f", line: 2, endLine: 4, text: 'CustomLog "/l/access-1.log" combined' }]);
    expect(out).toBe('A\nCustomLog "/l/access-1.log" combined\n#\n#\nB\n');
    expect(out.split("\n").indexOf("B")).toBe(4);
  });

  it("cuts a replacement longer than the directive's lines to the directive's line count", () => {
    const out = applyLineEdits("A\nB\nC", [{ file: "f", line: 2, endLine: 2, text: "X\nY\nZ" }]);
    expect(out).toBe("A\nX\nC");
  });

  it("keeps CRLF line ends on replaced and padding lines of a CRLF file", () => {
    const text = "A\r\nLoadModule x \\\r\n  /p/mod_x.so\r\nB\r\n";
    const out = applyLineEdits(text, [{ file: "f", line: 2, endLine: 3, text: "LoadModule x /m/mod_x.so" }]);
    expect(out).toBe("A\r\nLoadModule x /m/mod_x.so\r\n#\r\nB\r\n");
    expect(out.split("\r\n")).toHaveLength(text.split("\r\n").length);
  });

  it("applies several edits of one file, each at its own lines", () => {
    const out = applyLineEdits("1\n2\n3\n4\n", [
      { file: "f", line: 4, endLine: 4, text: "four" },
      { file: "f", line: 1, endLine: 1, text: "one" },
    ]);
    expect(out).toBe("one\n2\n3\nfour\n");
  });

  it("edits a last line that has no line end without adding one", () => {
    expect(applyLineEdits("A\nB", [{ file: "f", line: 2, endLine: 2, text: "C" }])).toBe("A\nC");
  });
});
