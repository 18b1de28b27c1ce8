import { describe, expect, it } from "vitest";
import { INCLUDE_NO_MATCH } from "../../../harness/rules/include-no-match.ts";
import { configTestEvidence, lintBody, of, READY, lintFiles } from "./lint-fixture.ts";

describe("include-no-match: an Include 2.4 refuses and 2.2 read past", () => {
  it("turns 2.4's refusal of a wildcard without a match into a finding at the Include line", async () => {
    const result = await lintFiles({ "conf/httpd.conf": `${READY}\n<VirtualHost *:80>\nInclude conf/sites/*.conf\n</VirtualHost>\n`, "conf/sites/README": "" });
    const found = of(result, "include-no-match");
    expect(found.map((f) => [f.line, f.directive])).toEqual([[18, "Include conf/sites/*.conf"]]);
    expect(found[0]!.message).toContain("No matches for the wildcard");
    expect(found[0]!.includeChain).toEqual([]);
  });

  it("says nothing when the wildcard matches, or for IncludeOptional", async () => {
    expect((await lintBody("Include conf/sites/*.conf", { "conf/sites/a.conf": "ServerAdmin a@b\n" })).findings).toEqual([]);
    expect((await lintBody("IncludeOptional conf/sites/*.conf", { "conf/sites/README": "" })).findings).toEqual([]);
  });

  it("says nothing about what 2.2 refuses as well (a missing directory)", async () => {
    const result = await lintBody("Include conf/none/*.conf");
    expect(result.problems.some((problem) => problem.severity === "refusal")).toBe(true);
    expect(of(result, "include-no-match")).toEqual([]);
  });

  it("recognises the recorded refusal", () => {
    const claim = INCLUDE_NO_MATCH.recognise!(
      configTestEvidence(["httpd: Syntax error on line 14 of /tmp/t.conf: Include/IncludeOptional: No matches for the wildcard 'nomatch-*.conf' in '/usr/local/apache2/conf/extra', failing"]),
    );
    expect(claim).toEqual({ summary: expect.stringContaining("nomatch-*.conf"), lines: [{ file: "/tmp/t.conf", line: 14 }] });
    expect(INCLUDE_NO_MATCH.recognise!(configTestEvidence(["AH00534: httpd: Configuration error: No MPM loaded."]))).toBeNull();
  });
});
