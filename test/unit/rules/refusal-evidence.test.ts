import { describe, expect, it } from "vitest";
import { parseConfigTestOutput } from "../../../harness/logs/split-config-test.ts";
import { cannotLoadPattern, findRefusal, invalidCommandPattern, refusalClaim } from "../../../harness/rules/refusal-evidence.ts";
import { configTestEvidence } from "./lint-fixture.ts";

const records = (lines: string[]) => parseConfigTestOutput(lines.join("\n"), 1, "2.4").records;

describe("reading 2.4's refusal lines", () => {
  it("pairs the reason with the Syntax error line before it", () => {
    const found = findRefusal(records(["AH00526: Syntax error on line 7 of /usr/local/apache2/conf/extra/a.conf:", "Invalid command 'Order', perhaps misspelled"]), invalidCommandPattern(["Order"]));
    expect(found).toMatchObject({ reason: "Invalid command 'Order', perhaps misspelled", place: { file: "/usr/local/apache2/conf/extra/a.conf", line: 7 } });
  });

  it("reads a one-line error (LoadModule, Include) with its place", () => {
    const found = findRefusal(records(["httpd: Syntax error on line 3 of /x/httpd.conf: Cannot load modules/mod_mem_cache.so into server: nope"]), cannotLoadPattern(["mod_mem_cache.so"]));
    expect(found?.place).toEqual({ file: "/x/httpd.conf", line: 3 });
    expect(found?.match[2]).toBe("mod_mem_cache.so");
  });

  it("gives no place for a start-up line, and matches names whole and case-insensitively", () => {
    expect(findRefusal(records(["AH00534: httpd: Configuration error: No MPM loaded."]), /No MPM loaded/)?.place).toBeNull();
    expect(invalidCommandPattern(["User"]).test("Invalid command 'user', perhaps")).toBe(true);
    expect(invalidCommandPattern(["User"]).test("Invalid command 'UserDir', perhaps")).toBe(false);
    expect(invalidCommandPattern(["AuthnProviderAlias"]).test("Invalid command '<AuthnProviderAlias', perhaps")).toBe(true);
  });

  it("claims only config-test and start-up evidence", () => {
    const evidence = configTestEvidence(["AH00534: httpd: Configuration error: No MPM loaded."]);
    expect(refusalClaim(evidence, /No MPM/, () => "x")).toEqual({ summary: "x" });
    expect(refusalClaim({ ...evidence, field: "body" }, /No MPM/, () => "x")).toBeNull();
  });
});
