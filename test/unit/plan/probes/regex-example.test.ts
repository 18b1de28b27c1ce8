import { describe, expect, it } from "vitest";
import { regexExample } from "../../../../harness/plan/probes/regex-example.ts";

describe("regexExample", () => {
  it.each([
    ["(\\.(conf|inc|module|pl|sh|sql|theme)|Entries|Repositories|Root|scripts|updates)$", "probe.conf"],
    ["\\.(bak|old|orig|swp)$", "probe.bak"],
    ["^(wp-config\\.php|xmlrpc\\.php)$", "wp-config.php"],
    ["~$", "probe~"],
    ["^\\.ht", ".ht"],
    ["\\.(?:inc|sql)$", "probe.inc"],
    ["^[a-z]+\\.log$", "x.log"],
    // An empty first alternative gives way to the next reading.
    ["(^$|index\\.html|index\\.php)", "probeindex.html"],
    ["^(composer|\\.)", "composer"],
  ])("gives a file name the pattern %s matches: %s", (pattern, example) => {
    expect(regexExample(pattern, "file")).toBe(example);
    expect(new RegExp(pattern).test(example)).toBe(true);
  });

  it.each([
    ["^/(admin|login)", "/admin"],
    ["^/server-(status|info)$", "/server-status"],
    ["/\\.svn/", "/probe/.svn/"],
    ["\\.php$", "/probe.php"],
    ["admin", "/probe/admin"],
  ])("gives a URL path the pattern %s matches: %s", (pattern, example) => {
    expect(regexExample(pattern, "url")).toBe(example);
  });

  it("gives nothing for what it does not read (inline flags, look-arounds, back-references) or what no plain name fits", () => {
    for (const pattern of ["\\.(?i:bak)$", "(?<=x)y", "^(a)\\1$", "^/$"]) expect(regexExample(pattern, "file"), pattern).toBeNull();
    expect(regexExample("^(?!public)", "url")).toBeNull();
    expect(regexExample("^/a b$", "url")).toBeNull();
  });
});
