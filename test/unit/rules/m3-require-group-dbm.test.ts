import { describe, expect, it } from "vitest";
import { M3 } from "../../../harness/rules/m3-require-group-dbm.ts";
import { evidence, findingsOf, finding, record } from "./access-fixture.ts";

const TREE = (groupfile: string) => ({
  "conf/httpd.conf":
    "LoadModule authz_core_module modules/mod_authz_core.so\nLoadModule authz_dbm_module modules/mod_authz_dbm.so\n" +
    groupfile +
    "<Directory /srv/admins>\n    AuthDBMGroupFile /srv/groups\n</Directory>\n<Directory /srv/admins/x>\n    Require group admins\n</Directory>\n",
});

describe("M3: detect", () => {
  it("flags Require group under an AuthDBMGroupFile (here one directory up) when 2.4 has no mod_authz_groupfile, with Require dbm-group as fix", async () => {
    const findings = await findingsOf(M3, TREE(""));
    expect(findings.map((f) => [f.line, f.severity, f.fix])).toEqual([[7, "blocking", "Require dbm-group admins"]]);
  });

  it("says nothing when 2.4 loads mod_authz_groupfile (it then takes the group line itself)", async () => {
    expect(await findingsOf(M3, TREE("LoadModule authz_groupfile_module modules/mod_authz_groupfile.so\n"))).toEqual([]);
  });
});

describe("M3: recognise", () => {
  it("claims 2.4's config-test refusal 'Unknown Authz provider: group'", () => {
    const log = { baseline: [], candidate: [record(null, "Unknown Authz provider: group")] };
    expect(M3.recognise!(evidence({ field: "configTest", log, findings: [finding("M3", 6)] }))).toMatchObject({ lines: [{ line: 6 }] });
    expect(M3.recognise!(evidence({ field: "configTest" }))).toBeNull();
  });
});
