import { describe, expect, it } from "vitest";
import { portableRegex } from "../../../harness/conf/portable-regex.ts";

describe("portable regular expressions (read alike by PCRE and JavaScript)", () => {
  it("takes the plain forms httpd configs use", () => {
    for (const pattern of ["^\\.ht", "\\.(bak|old)$", "^/+$", "(?:a|b)+", "^/(.*)$", "[^/]*\\.php$"]) expect(portableRegex(pattern), pattern).toBe(true);
  });

  it("refuses group extensions, POSIX classes, PCRE-only escapes and possessive quantifiers, and what JavaScript cannot compile", () => {
    for (const pattern of ["(?<!x)\\.bak$", "(?i)\\.php$", "[[:alpha:]]+", "\\A/x\\z", "a*+", "\\Qa.b\\E", "(unclosed"]) expect(portableRegex(pattern), pattern).toBe(false);
  });
});
