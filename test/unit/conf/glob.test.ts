import { describe, expect, test } from "vitest";
import { hasWildcard, matchComponent } from "../../../harness/conf/glob.ts";

describe("hasWildcard (apr_fnmatch_test)", () => {
  test.each([
    ["*.conf", true],
    ["a?c", true],
    ["[c]onf.d", true],
    ["[c", false],
    ["plain.conf", false],
    ["a\\*b", false],
    ["a]b", false],
  ])("%s → %s", (pattern, expected) => {
    expect(hasWildcard(pattern)).toBe(expected);
  });
});

describe("matchComponent (apr_fnmatch with APR_FNM_PERIOD)", () => {
  test.each([
    ["*.conf", "site.conf", true],
    ["*.conf", "site.conf~", false],
    ["*.conf", ".hidden.conf", false],
    [".*.conf", ".hidden.conf", true],
    ["?onf", ".onf", false],
    ["[c]onf.d", "conf.d", true],
    ["[!a]*", "b.conf", true],
    ["[!a]*", "a.conf", false],
    ["[^a]*", "a.conf", false],
    ["[a-c]x", "bx", true],
    ["[a-c]x", "dx", false],
    ["a\\*", "a*", true],
    ["a\\*", "ab", false],
    ["*", "", true],
    ["[", "[", true],
    ["0*-*.conf", "000-default.conf", true],
  ])("%s against %s → %s", (pattern, name, expected) => {
    expect(matchComponent(pattern, name)).toBe(expected);
  });
});
