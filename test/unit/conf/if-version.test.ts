import { describe, expect, test } from "vitest";
import { testIfVersion } from "../../../harness/conf/if-version.ts";
import { httpdVersion } from "../../../harness/versions/httpd-version.ts";

const v = httpdVersion("2.4.62");

describe("testIfVersion (mod_version start_ifversion)", () => {
  test.each([
    [["2.4.62"], true],
    [["2.4"], false],
    [["=", "2.4.62"], true],
    [["==", "2.4.62"], true],
    [["!=", "2.4.62"], false],
    [[">", "2.4"], true],
    [[">=", "2.4.62"], true],
    [["<", "2.4.63"], true],
    [["<=", "2"], false],
    [["!<", "2.4"], true],
    [["~", "^2\\.4"], true],
    [["!~", "^2\\.4"], false],
    [["=", "/^2\\.[0-3]/"], false],
    [["==", "/62$/"], true],
  ])("%j on 2.4.62 → %s", (words, holds) => {
    expect(testIfVersion(words, v)).toEqual({ ok: true, holds });
  });

  test.each([
    [["=~", "2.4"], "unrecognized operator '=~'"],
    [["!", "2.4.62"], "unrecognized operator '!'"],
    [["~=", "2.4"], "unrecognized operator '~='"],
    [[">", "2.x"], expect.stringMatching(/^Version appears to be invalid/)],
    [["=", "/2.4"], "Missing delimiting / of regular expression."],
  ])("%j is refused", (words, error) => {
    expect(testIfVersion(words, v)).toEqual({ ok: false, error });
  });
});
