import { describe, expect, it } from "vitest";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
import { M4 } from "../../../harness/rules/m4-x6-authn-core.ts";
import { BODY_LINE, configTestEvidence, lintBody, lintFiles, of } from "./lint-fixture.ts";

describe("M4/X6: mod_authn_core; mod_authn_default and mod_authz_default are gone", () => {
  it("finds AuthType and AuthName in a tree without mod_authn_core", async () => {
    const result = await lintFiles({ "conf/httpd.conf": "Listen 80\nLoadModule mpm_prefork_module modules/mod_mpm_prefork.so\n<Directory /x>\nAuthType Basic\nAuthName private\n</Directory>\n" });
    expect(of(result, "M4").map((f) => [f.line, f.fix])).toEqual([
      [4, "LoadModule authn_core_module modules/mod_authn_core.so"],
      [5, "LoadModule authn_core_module modules/mod_authn_core.so"],
    ]);
  });

  it("claims the gone module files and their Authoritative directives", async () => {
    const result = await lintBody(
      ["LoadModule authn_default_module modules/mod_authn_default.so", "LoadModule authz_default_module modules/mod_authz_default.so", "<Directory /x>", "AuthDefaultAuthoritative Off", "AuthzDefaultAuthoritative Off", "</Directory>"].join("\n"),
    );
    const found = of(result, "M4");
    expect(found.map((f) => f.line)).toEqual([BODY_LINE, BODY_LINE + 1, BODY_LINE + 3, BODY_LINE + 4]);
    expect(found[1]!.fix).toBe("LoadModule authz_core_module modules/mod_authz_core.so");
    expect(result.findings.filter((f) => f.rule !== "M4")).toEqual([]);
  });

  it("recognises the config-test refusals and X6's 500", () => {
    expect(M4.recognise!(configTestEvidence(["httpd: Syntax error on line 12 of /x/httpd.conf: Cannot load modules/mod_authz_default.so into server: x: cannot open shared object file"]))?.lines).toEqual([{ file: "/x/httpd.conf", line: 12 }]);
    expect(M4.recognise!(configTestEvidence(["AH00526: Syntax error on line 14 of /tmp/t.conf:", "Invalid command 'AuthType', perhaps misspelled or defined by a module not included in the server configuration"]))?.summary).toContain("mod_authn_core");
    const request = {
      ...configTestEvidence([]),
      field: "status",
      request: { name: "r", method: "GET", path: "/x", host: null, client: "127.0.0.1", user: null },
      status: { baseline: 200, candidate: 500 },
      log: { baseline: [], candidate: [parseErrorLogLine("[Sat Nov 21 22:41:24.568687 2026] [core:crit] [pid 1:tid 2] [client 172.17.0.1:5555] AH00025: configuration error:  couldn't check user: /private/", "2.4")] },
    };
    expect(M4.recognise!(request)).toEqual({ summary: expect.stringContaining("couldn't check user"), severity: "behaviour" });
    expect(M4.recognise!({ ...request, status: { baseline: 200, candidate: 200 } })).toBeNull();
  });
});
