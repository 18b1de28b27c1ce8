import { describe, expect, it } from "vitest";
import { matchesText, regexLiteral, toTextMatcher } from "../../../harness/scenario/text-matcher.ts";

describe("toTextMatcher", () => {
  it("reads a plain string as a substring match", () => {
    expect(toTextMatcher("client denied")).toEqual({ ok: true, matcher: { kind: "contains", value: "client denied" } });
  });

  it('reads "/re/flags" as a regular expression', () => {
    expect(toTextMatcher("/^AH0179[0-9]$/i")).toEqual({ ok: true, matcher: { kind: "matches", pattern: "^AH0179[0-9]$", flags: "i" } });
    expect(toTextMatcher("/htdocs\\/server-status/")).toEqual({
      ok: true,
      matcher: { kind: "matches", pattern: "htdocs\\/server-status", flags: "" },
    });
  });

  it("keeps strings that only start with a slash, or hold unescaped slashes, as substrings", () => {
    expect(toTextMatcher("/server-status")).toEqual({ ok: true, matcher: { kind: "contains", value: "/server-status" } });
    expect(toTextMatcher("/usr/local/apache2/htdocs/")).toEqual({
      ok: true,
      matcher: { kind: "contains", value: "/usr/local/apache2/htdocs/" },
    });
    expect(toTextMatcher("/usr/local")).toEqual({ ok: true, matcher: { kind: "contains", value: "/usr/local" } });
    expect(toTextMatcher("/")).toEqual({ ok: true, matcher: { kind: "contains", value: "/" } });
    expect(toTextMatcher("//")).toEqual({ ok: true, matcher: { kind: "contains", value: "//" } });
  });

  it("accepts a slash inside a character class", () => {
    expect(toTextMatcher("/[/]x/")).toEqual({ ok: true, matcher: { kind: "matches", pattern: "[/]x", flags: "" } });
  });

  it("reads the explicit forms", () => {
    expect(toTextMatcher({ equals: "/x/" })).toEqual({ ok: true, matcher: { kind: "equals", value: "/x/" } });
    expect(toTextMatcher({ contains: "/x/" })).toEqual({ ok: true, matcher: { kind: "contains", value: "/x/" } });
    expect(toTextMatcher({ matches: "^a", flags: "m" })).toEqual({ ok: true, matcher: { kind: "matches", pattern: "^a", flags: "m" } });
    expect(toTextMatcher({ matches: "^a" })).toEqual({ ok: true, matcher: { kind: "matches", pattern: "^a", flags: "" } });
  });

  it("rejects a pattern that does not compile, and the g and y flags", () => {
    expect(toTextMatcher("/a(/")).toEqual({ ok: false, problem: "invalid regular expression /a(/: Unterminated group" });
    expect(toTextMatcher({ matches: "[" })).toMatchObject({ ok: false });
    expect(toTextMatcher("/a/g")).toMatchObject({ ok: false, problem: expect.stringContaining("g and y are not allowed") });
    expect(toTextMatcher("/a/ii")).toMatchObject({ ok: false });
  });
});

describe("regexLiteral", () => {
  it("returns null for text that is not a regex literal", () => {
    expect(regexLiteral("plain")).toBeNull();
    expect(regexLiteral("/a/b/")).toBeNull();
    expect(regexLiteral("/a/xyz")).toBeNull();
  });
});

describe("matchesText", () => {
  it("applies each kind", () => {
    expect(matchesText({ kind: "contains", value: "deni" }, "client denied")).toBe(true);
    expect(matchesText({ kind: "equals", value: "client" }, "client denied")).toBe(false);
    expect(matchesText({ kind: "matches", pattern: "^CLIENT", flags: "i" }, "client denied")).toBe(true);
  });
});
