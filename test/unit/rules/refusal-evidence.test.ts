import { describe, expect, it } from "vitest";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
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

  it("names the included file's own line when a one-line error nests it in the Include's (recorded on 2.4.68)", () => {
    const line =
      "httpd: Syntax error on line 81 of /etc/apache2/apache2.conf: Syntax error on line 1 of /etc/apache2/mods-enabled/authz_default.load: Cannot load /usr/local/apache2/modules/mod_authz_default.so into server: /usr/local/apache2/modules/mod_authz_default.so: cannot open shared object file: No such file or directory";
    const found = findRefusal(records([line]), cannotLoadPattern(["mod_authz_default.so"]));
    expect(found?.place).toEqual({ file: "/etc/apache2/mods-enabled/authz_default.load", line: 1 });
    expect(found?.reason).toMatch(/^Cannot load /);
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

  it("claims a request's 500 over a per-directory file's line as behaviour", () => {
    const line = "[Sat Nov 21 22:44:04.743824 2026] [core:alert] [pid 8:tid 16] [client 172.17.0.1:50760] /usr/local/apache2/htdocs/e2/.htaccess: Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration";
    const evidence = {
      ...configTestEvidence([]),
      field: "status",
      request: { name: "r", method: "GET", path: "/e2/", host: null, client: "172.17.0.1", user: null },
      status: { baseline: 403, candidate: 500 },
      log: { baseline: [], candidate: [parseErrorLogLine(line, "2.4")] },
    };
    expect(refusalClaim(evidence, invalidCommandPattern(["Order"]), () => "load mod_access_compat")).toEqual({
      summary: "500 on 2.4 (it reads /usr/local/apache2/htdocs/e2/.htaccess per request): load mod_access_compat",
      severity: "behaviour",
    });
    expect(refusalClaim({ ...evidence, status: { baseline: 403, candidate: 403 } }, invalidCommandPattern(["Order"]), () => "x")).toBeNull();
    expect(refusalClaim(evidence, invalidCommandPattern(["Deny"]), () => "x")).toBeNull();
  });
});
