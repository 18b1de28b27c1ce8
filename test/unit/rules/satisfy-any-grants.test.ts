import { describe, expect, it } from "vitest";
import { SATISFY_ANY_GRANTS } from "../../../harness/rules/satisfy-any-grants.ts";
import { evidence, findingsOf, finding, fragment } from "./access-fixture.ts";

const HOSTS = "    Order deny,allow\n    Deny from all\n    Allow from 10.0.0.0/8\n";

describe("satisfy-any-grants: detect", () => {
  it("flags pure 2.2 text under the official stock htdocs, which 2.4 grants with Require all granted", async () => {
    const findings = await findingsOf(SATISFY_ANY_GRANTS, fragment(`<Directory /usr/local/apache2/htdocs/internal>\n${HOSTS}    Satisfy Any\n</Directory>\n`));
    expect(findings.map((f) => [f.line, f.severity, f.security])).toEqual([[5, "security", true]]);
    expect(findings[0]!.message).toMatch(/stock config's <Directory "\/usr\/local\/apache2\/htdocs">/);
    expect(findings[0]!.predicted).toMatch(/^predicted by the access model: 2\.2 denied \(403\), 2\.4 served \(200\) for an outsider without credentials \(GET \/internal\/\)$/);
    expect(findings[0]!.fix).toBe('Remove "Satisfy Any" and write the host rule for 2.4:\nRequire ip 10.0.0.0/8');
  });

  it("flags a section whose own 2.4-only Require grants all, and one under a parent that grants", async () => {
    const own = `<Directory /srv/a>\n${HOSTS}    Satisfy Any\n    <IfModule mod_authz_core.c>\n        Require all granted\n    </IfModule>\n</Directory>\n`;
    expect((await findingsOf(SATISFY_ANY_GRANTS, fragment(own))).map((f) => f.line)).toEqual([5]);
    // /srv/a and /srv/p are no URL's (no Alias maps them): the rule keeps its own words and its rating, and says
    // why the outcome is not predicted; aliased, the access model predicts who gets what.
    const aliased = await findingsOf(SATISFY_ANY_GRANTS, fragment(`Alias /a /srv/a\n${own}`));
    expect(aliased.map((f) => [f.line, f.severity])).toEqual([[6, "security"]]);
    expect(aliased[0]!.message).toMatch(/this section's "Require all granted", which admits everyone; .*predicted by the access model: the outcome changes/);
    expect(aliased[0]!.predicted).toMatch(/^predicted by the access model: 2\.2 denied \(403\), 2\.4 served \(200\) for an outsider without credentials/);
    const parent = `<Directory /srv/p>\n    <IfModule mod_authz_core.c>\n        Require all granted\n    </IfModule>\n</Directory>\n<Directory /srv/p/c>\n${HOSTS}    Satisfy Any\n</Directory>\n`;
    const unreached = await findingsOf(SATISFY_ANY_GRANTS, fragment(parent));
    expect(unreached.map((f) => [f.line, f.severity])).toEqual([[10, "security"]]);
    expect(unreached[0]!.message).toMatch(/\(the outcome is not predicted \(why is given at each place\)\)$/);
    expect(unreached[0]!.predicted).toBe("the outcome is not predicted: no probe the plan makes for this tree reaches these lines");
  });

  it("flags a fragment's <Location> served from the stock DocumentRoot, not one the fragment aliases elsewhere", async () => {
    const findings = await findingsOf(SATISFY_ANY_GRANTS, fragment(`<Location /admin>\n${HOSTS}    Satisfy Any\n</Location>\n`));
    expect(findings.map((f) => [f.line, f.sections])).toEqual([[5, ["<Location /admin>"]]]);
    const aliased = `Alias /admin /srv/admin\n<Location /admin>\n${HOSTS}    Satisfy Any\n</Location>\n`;
    expect(await findingsOf(SATISFY_ANY_GRANTS, fragment(aliased))).toEqual([]);
  });

  it("says nothing outside the stock grants, with a user requirement, or without a host restriction", async () => {
    expect(await findingsOf(SATISFY_ANY_GRANTS, fragment(`<Directory /srv/out>\n${HOSTS}    Satisfy Any\n</Directory>\n`))).toEqual([]);
    const auth = `<Directory /usr/local/apache2/htdocs/s>\n${HOSTS}    AuthType Basic\n    AuthName "s"\n    AuthUserFile /srv/p\n    Require valid-user\n    Satisfy Any\n</Directory>\n`;
    expect(await findingsOf(SATISFY_ANY_GRANTS, fragment(auth))).toEqual([]);
    expect(await findingsOf(SATISFY_ANY_GRANTS, fragment("<Directory /usr/local/apache2/htdocs/o>\n    Order allow,deny\n    Allow from all\n    Satisfy Any\n</Directory>\n"))).toEqual([]);
  });
});

describe("satisfy-any-grants: recognise", () => {
  it("claims 403 -> 200 as security when its finding may govern the request", () => {
    const claim = SATISFY_ANY_GRANTS.recognise!(evidence({ status: { baseline: 403, candidate: 200 }, findings: [finding("satisfy-any-grants", 5)] }));
    expect(claim).toMatchObject({ severity: "security", lines: [{ line: 5 }] });
    expect(claim!.summary).toMatch(/refused \(403\)/);
  });

  it("does not claim without its finding or when 2.4 refuses too", () => {
    expect(SATISFY_ANY_GRANTS.recognise!(evidence({ status: { baseline: 403, candidate: 200 } }))).toBeNull();
    expect(SATISFY_ANY_GRANTS.recognise!(evidence({ status: { baseline: 403, candidate: 403 }, findings: [finding("satisfy-any-grants", 5)] }))).toBeNull();
  });
});
