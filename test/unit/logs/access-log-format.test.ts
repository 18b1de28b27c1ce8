// LogFormat strings as mod_log_config reads them: directives with their modifiers, literal text with its escapes,
// and the stock nicknames.
import { describe, expect, it } from "vitest";
import { compileLogFormat, STANDARD_LOG_FORMATS } from "../../../harness/logs/access-log-format.ts";

const directives = (text: string) => compileLogFormat(text).parts.filter((p) => p.kind === "directive").map((p) => p.kind === "directive" && [p.text, p.letter, p.param, p.conditional]);

describe("compileLogFormat", () => {
  it("reads combined into its directives and the literal text between them", () => {
    const format = compileLogFormat(STANDARD_LOG_FORMATS.combined!);
    expect(format.parts).toEqual([
      { kind: "directive", text: "%h", letter: "h", param: null, conditional: false },
      { kind: "literal", text: " " },
      { kind: "directive", text: "%l", letter: "l", param: null, conditional: false },
      { kind: "literal", text: " " },
      { kind: "directive", text: "%u", letter: "u", param: null, conditional: false },
      { kind: "literal", text: " " },
      { kind: "directive", text: "%t", letter: "t", param: null, conditional: false },
      { kind: "literal", text: ' "' },
      { kind: "directive", text: "%r", letter: "r", param: null, conditional: false },
      { kind: "literal", text: '" ' },
      { kind: "directive", text: "%>s", letter: "s", param: null, conditional: false },
      { kind: "literal", text: " " },
      { kind: "directive", text: "%b", letter: "b", param: null, conditional: false },
      { kind: "literal", text: ' "' },
      { kind: "directive", text: "%{Referer}i", letter: "i", param: "Referer", conditional: false },
      { kind: "literal", text: '" "' },
      { kind: "directive", text: "%{User-Agent}i", letter: "i", param: "User-Agent", conditional: false },
      { kind: "literal", text: '"' },
    ]);
  });

  it("takes modifiers in any order: conditions, < and >, a {param}, and two-letter ^ directives", () => {
    expect(directives('%!200,304{Referer}i %400,501{User-agent}i %<s %{%d/%b/%Y}t %{local}p %^ti %{c}a')).toEqual([
      ["%!200,304{Referer}i", "i", "Referer", true],
      ["%400,501{User-agent}i", "i", "User-agent", true],
      ["%<s", "s", null, false],
      ["%{%d/%b/%Y}t", "t", "%d/%b/%Y", false],
      ["%{local}p", "p", "local", false],
      ["%^ti", "^ti", null, false],
      ["%{c}a", "a", "c", false],
    ]);
  });

  it("reads %% as a percent and \\t, \\n, \\\\ as escapes; any other backslash stays", () => {
    const format = compileLogFormat("100%% \\t%h\\n\\q\\\\");
    expect(format.parts).toEqual([
      { kind: "literal", text: "100% \t" },
      { kind: "directive", text: "%h", letter: "h", param: null, conditional: false },
      { kind: "literal", text: "\n\\q\\" },
    ]);
  });

  it("keeps an unknown letter as a directive (an opaque field) and a trailing % as text", () => {
    expect(directives("%Z %{x}Q")).toEqual([["%Z", "Z", null, false], ["%{x}Q", "Q", "x", false]]);
    expect(compileLogFormat("%h %").parts.at(-1)).toEqual({ kind: "literal", text: " %" });
  });
});
