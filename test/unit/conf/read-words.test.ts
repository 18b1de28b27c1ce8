import { describe, expect, it } from "vitest";
import { isConfSpace, isConfSpaceCode, quoteWord, readWord, readWords, unescapeWord } from "../../../harness/conf/read-words.ts";

describe("readWords", () => {
  it("gives each word's value, raw text, quote and place", () => {
    expect(readWords(`  a "b c"'d'  e\\ f`).map((w) => [w.value, w.raw, w.quote, w.start, w.end])).toEqual([
      ["a", "a", null, 2, 3],
      ["b c", '"b c"', '"', 4, 9],
      ["d", "'d'", "'", 9, 12],
      ["e\\", "e\\", null, 14, 16],
      ["f", "f", null, 17, 18],
    ]);
  });

  it("treats \\v, \\f and \\r as spaces, as apr_isspace does", () => {
    expect(readWords("a\vb\fc\rd").map((w) => w.value)).toEqual(["a", "b", "c", "d"]);
  });

  it("marks an unterminated quote and reads it to the end", () => {
    expect(readWord(`x "a \\" b`, 1)).toMatchObject({ value: 'a " b', unterminated: true, end: 9 });
  });

  it("is null when only whitespace is left", () => {
    expect(readWord("a   ", 1)).toBeNull();
  });
});

describe("unescapeWord", () => {
  it("takes the backslash away before a backslash, and before the quote character only when quoted", () => {
    expect(unescapeWord(`\\\\ \\" \\' \\n`, '"')).toBe(`\\ " \\' \\n`);
    expect(unescapeWord(`\\\\ \\" \\' \\n`, "'")).toBe(`\\ \\" ' \\n`);
    expect(unescapeWord(`\\\\ \\"`, null)).toBe(`\\ \\"`);
  });
});

describe("quoteWord", () => {
  it("leaves plain values bare and quotes what httpd would split or unescape", () => {
    expect(["/srv/www", "a=b", 'a"b', "", "a b", "'x", "C:\\dir\\", "a\\\\b", 'say "hi"'].map(quoteWord)).toEqual([
      "/srv/www",
      "a=b",
      'a"b',
      '""',
      '"a b"',
      `"'x"`,
      '"C:\\dir\\\\"',
      '"a\\\\\\b"',
      '"say \\"hi\\""',
    ]);
  });
});

describe("isConfSpaceCode", () => {
  it("agrees with isConfSpace on every UTF-16 unit, and past the end of a text", () => {
    for (let code = 0; code <= 0xffff; code++) expect(isConfSpaceCode(code)).toBe(isConfSpace(String.fromCharCode(code)));
    expect(isConfSpaceCode("a".charCodeAt(1))).toBe(isConfSpace("a"[1]));
  });
});
