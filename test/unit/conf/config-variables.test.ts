import { describe, expect, test } from "vitest";
import { resolveVariables, splitWords } from "../../../harness/conf/config-variables.ts";

describe("resolveVariables (ap_resolve_env)", () => {
  const values: Record<string, string> = { A: "1", SP: "a b", Q: '"q"' };
  const lookup = (name: string) => values[name];
  test.each([
    ["${A}/x", "1/x", []],
    ["$A ${A", "$A ${A", []],
    ["${A}${B}${A}", "1${B}1", ["B"]],
    ["${}", "${}", [""]],
    ["x${SP}y", "xa by", []],
    ["${a:b}", "${a:b}", ["a:b"]],
  ])("%s → %s", (text, expected, undefinedNames) => {
    expect(resolveVariables(text, lookup)).toEqual({ text: expected, undefinedNames });
  });
});

describe("splitWords (ap_getword_conf)", () => {
  test.each([
    ['a "b c" d', ["a", "b c", "d"]],
    ["'x y'  z", ["x y", "z"]],
    ['"a \\" b"', ['a " b']],
    ["a\\\\b c\\d", ["a\\b", "c\\d"]],
    ["  ", []],
  ])("%j → %j", (line, words) => {
    expect(splitWords(line)).toEqual(words);
  });
});
