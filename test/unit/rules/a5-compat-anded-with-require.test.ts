import { describe, expect, it } from "vitest";
import { A5 } from "../../../harness/rules/a5-compat-anded-with-require.ts";
import { lintJsonChunks, type LintDocument } from "../../../harness/report/lint-json.ts";
import { lintOutcome } from "../../../harness/rules/lint-outcome.ts";
import { evidence, findingsOf, finding, fragment, record } from "./access-fixture.ts";
import { lintedTree } from "./lint-findings.ts";

describe("A5: detect", () => {
  it("flags a fragment's Allow lines outside the stock config's granted paths: <Directory /> denies on 2.4", async () => {
    const findings = await findingsOf(A5, fragment("<Directory /usr/share/tool>\n    Order allow,deny\n    Allow from all\n</Directory>\n"));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ line: 3, severity: "behaviour", directive: "Allow from all" });
    expect(findings[0]!.message).toMatch(/<Directory \/> of the 2.4 stock httpd.conf/);
    // No URL maps /usr/share/tool: the rule's own words, and why the outcome is not predicted.
    expect(findings[0]!.message).toMatch(/2\.4 answers 403 \(AH01630\) where 2\.2 served \(the outcome is not predicted \(why is given at each place\)\)$/);
    expect(findings[0]!.predicted).toBe("the outcome is not predicted: no probe the plan makes for this tree reaches these lines");
  });

  it("says what the access model predicts where a URL maps to the directory", async () => {
    const findings = await findingsOf(A5, fragment("Alias /tool /usr/share/tool\n<Directory /usr/share/tool>\n    Order allow,deny\n    Allow from all\n</Directory>\n"));
    expect(findings.map((f) => [f.line, f.severity, f.security])).toEqual([[4, "behaviour", false]]);
    expect(findings[0]!.message).toMatch(/both must pass; predicted by the access model: the outcome changes \(who gets what is given at each place\)$/);
    expect(findings[0]!.predicted).toBe("predicted by the access model: 2.2 served (200), 2.4 denied (403) for an outsider without credentials (GET /tool/)");
  });

  it("takes the target's stock grants into account: /usr/share is granted on Debian, and the official htdocs", async () => {
    expect(await findingsOf(A5, fragment("<Directory /usr/share/tool>\n    Allow from all\n</Directory>\n"), "debian")).toEqual([]);
    expect(await findingsOf(A5, fragment("<Directory /usr/local/apache2/htdocs/x>\n    Allow from all\n</Directory>\n"))).toEqual([]);
  });

  it("flags Allow lines beside a Require only 2.4 reads, unless Satisfy Any lets either admit", async () => {
    const text = (satisfy: string) =>
      `<Directory /usr/local/apache2/htdocs/l>\n    Order allow,deny\n    Allow from all\n${satisfy}    <IfModule mod_authz_core.c>\n        Require ip 192.0.2.1\n    </IfModule>\n</Directory>\n`;
    const findings = await findingsOf(A5, fragment(text("")));
    expect(findings.map((f) => [f.line, f.related.map((r) => r.line)])).toEqual([[3, [5]]]);
    expect(findings[0]!.predicted).toMatch(/^predicted by the access model: 2\.2 served \(200\), 2\.4 denied \(403\) for an outsider without credentials \(GET \/l\/\)$/);
    expect(await findingsOf(A5, fragment(text("    Satisfy Any\n")))).toEqual([]);
  });

  it("groups places of one cause into one finding, each place with its own prediction (the message is the cause's)", async () => {
    const block = (name: string) =>
      `<Directory /usr/local/apache2/htdocs/${name}>\n    Order allow,deny\n    Allow from all\n    <IfModule mod_authz_core.c>\n        Require ip 192.0.2.1\n    </IfModule>\n</Directory>\n`;
    const findings = await findingsOf(A5, fragment(["l1", "l2", "l3"].map(block).join("")));
    const outcome = lintOutcome({ trees: [{ tree: lintedTree({ files: ["site.conf"] }), findings }], ignore: null, baseline: null, failOn: "blocking" });
    expect(outcome.findings).toHaveLength(1);
    const [cause] = outcome.findings;
    expect(cause!.message).toMatch(/; predicted by the access model: the outcome changes \(who gets what is given at each place\)$/);
    expect(cause!.places.map((place) => [place.line, place.predicted])).toEqual(
      ["l1", "l2", "l3"].map((name, at) => [3 + 7 * at, `predicted by the access model: 2.2 served (200), 2.4 denied (403) for an outsider without credentials (GET /${name}/)`]),
    );
    // --format json keeps every place and its prediction.
    const document = JSON.parse([...lintJsonChunks(outcome, "1.2.3")].join("")) as LintDocument;
    expect(document.findings).toHaveLength(1);
    expect(document.findings[0]!.places.map((place) => place.predicted)).toEqual(cause!.places.map((place) => place.predicted));
  });

  it("claims no difference where the model predicts the same for every client: the 2.4-only Require names the address the Allow line admits", async () => {
    const text = "<Directory /usr/local/apache2/htdocs/l>\n    Order allow,deny\n    Allow from 10.0.0.1\n    <IfModule mod_authz_core.c>\n        Require ip 10.0.0.1\n    </IfModule>\n</Directory>\n";
    expect(await findingsOf(A5, fragment(text))).toEqual([]);
  });

  it("leaves the usual dual-syntax port alone: Allow lines beside a 2.4-only Require all granted", async () => {
    const text = "<Directory /usr/local/apache2/htdocs/d>\n    Order deny,allow\n    Deny from all\n    Allow from 10.0.0.1\n    <IfModule mod_authz_core.c>\n        Require all granted\n    </IfModule>\n</Directory>\n";
    expect(await findingsOf(A5, fragment(text))).toEqual([]);
  });

  it("in a full tree, follows the tree's own <Directory /> and a nearer granting Directory", async () => {
    const conf = (middle: string) =>
      `LoadModule access_compat_module modules/mod_access_compat.so\nLoadModule authz_core_module modules/mod_authz_core.so\n<Directory />\n    Require all denied\n</Directory>\n${middle}<Directory /srv/a/b>\n    Allow from all\n</Directory>\n`;
    expect((await findingsOf(A5, { "conf/httpd.conf": conf("") })).map((f) => f.line)).toEqual([7]);
    expect(await findingsOf(A5, { "conf/httpd.conf": conf("<Directory /srv/a>\n    Require all granted\n</Directory>\n") })).toEqual([]);
  });
});

describe("A5: recognise", () => {
  const denied = { baseline: [], candidate: [record("AH01630", "client denied by server configuration: /srv/x", "authz_core")] };

  it("claims 200 -> 403 with AH01630 as behaviour, naming the check that refused", () => {
    const claim = A5.recognise!(evidence({ status: { baseline: 200, candidate: 403 }, log: denied, findings: [finding("A5", 3)] }));
    expect(claim).toMatchObject({ severity: "behaviour", lines: [{ line: 3 }] });
    expect(claim!.summary).toMatch(/AH01630/);
  });

  it("claims 2.2's 500 (AuthType not set) -> 403 too; not 403 on both, nor a 403 without the denial line", () => {
    expect(A5.recognise!(evidence({ status: { baseline: 500, candidate: 403 }, log: denied }))).not.toBeNull();
    expect(A5.recognise!(evidence({ status: { baseline: 403, candidate: 403 }, log: denied }))).toBeNull();
    expect(A5.recognise!(evidence({ status: { baseline: 200, candidate: 403 } }))).toBeNull();
  });

  // Recorded on 2.2.34 / 2.4.68 (a fragment's <Directory /srv/nox> with Order allow,deny, Allow from all and a
  // cgi-script under Options None): both 403, 2.2 from mod_cgi after access let it in, 2.4 from the inherited Require.
  it("claims the log line of a 403 on both sides that 2.2's handler gave and 2.4's access control gave, with its finding", () => {
    const both = { field: "errorLog", status: { baseline: 403, candidate: 403 }, request: { ...evidence().request!, path: "/nox/probe.cgi" } };
    const execOff = { baseline: [record("AH02809", "Options ExecCGI is off in this directory: /srv/nox/probe.cgi")], candidate: denied.candidate };
    expect(A5.recognise!(evidence({ ...both, log: execOff, findings: [finding("A5", 5)] }))).toMatchObject({ severity: "behaviour", lines: [{ line: 5 }] });
    expect(A5.recognise!(evidence({ ...both, log: execOff }))).toBeNull();
    expect(A5.recognise!(evidence({ ...both, log: { baseline: [record("AH01797", "client denied by server configuration: /srv/nox/probe.cgi")], candidate: denied.candidate }, findings: [finding("A5", 5)] }))).toBeNull();
  });
});
