import { describe, expect, it } from "vitest";
import { D1 } from "../../../harness/rules/d1-allowoverride-default.ts";
import { evidence, findingsOf, finding, fragment, record } from "./access-fixture.ts";

const TREE = (extra: string) => ({ "conf/httpd.conf": `Listen 80\n<Directory />\n    Options FollowSymLinks\n${extra}</Directory>\n<Directory /usr/local/apache2/htdocs>\n    Options Indexes\n</Directory>\n` });

describe("D1: detect", () => {
  it("flags a full tree that never sets AllowOverride, at its first <Directory>", async () => {
    const findings = await findingsOf(D1, TREE(""));
    expect(findings.map((f) => [f.line, f.directive, f.severity])).toEqual([[2, "<Directory />", "behaviour"]]);
  });

  it("says nothing once AllowOverride is set anywhere, nor for a fragment (both stock configs set None)", async () => {
    expect(await findingsOf(D1, TREE("    AllowOverride None\n"))).toEqual([]);
    expect(await findingsOf(D1, fragment("<Directory /srv/x>\n    Options None\n</Directory>\n"))).toEqual([]);
  });
});

describe("D1: recognise", () => {
  it("claims 2.4's 500 with '.htaccess: X not allowed here'", () => {
    const log = { baseline: [], candidate: [record(null, "/srv/x/h1/.htaccess: AuthType not allowed here", "core")] };
    const claim = D1.recognise!(evidence({ status: { baseline: 401, candidate: 500 }, log, findings: [finding("D1", 2)] }));
    expect(claim).toMatchObject({ severity: "behaviour", lines: [{ line: 2 }] });
  });

  it("does not claim a 500 with another cause", () => {
    const log = { baseline: [], candidate: [record("AH00025", "configuration error:  couldn't check user: /x", "core")] };
    expect(D1.recognise!(evidence({ status: { baseline: 401, candidate: 500 }, log }))).toBeNull();
  });
});
