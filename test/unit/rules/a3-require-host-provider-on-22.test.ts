import { describe, expect, it } from "vitest";
import { A3 } from "../../../harness/rules/a3-require-host-provider-on-22.ts";
import { evidence, findingsOf, finding, fragment } from "./access-fixture.ts";

const AUTH = '    AuthType Basic\n    AuthName "p"\n    AuthUserFile /srv/passwd\n';

describe("A3: detect", () => {
  it("flags Require ip added beside Require valid-user as security, with a RequireAll fix and the valid-user line related", async () => {
    const findings = await findingsOf(A3, fragment(`<Directory /srv/p>\n${AUTH}    Require valid-user\n    Require ip 10.0.0.0/8\n</Directory>\n`));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ line: 6, severity: "security", directive: "Require ip 10.0.0.0/8" });
    expect(findings[0]!.message).toMatch(/implicit <RequireAny>/);
    expect(findings[0]!.fix).toMatch(/^<RequireAll>\n    Require ip 10.0.0.0\/8\n    Require valid-user\n<\/RequireAll>/);
    expect(findings[0]!.related.map((r) => r.line)).toEqual([5]);
  });

  it("flags Require all granted in a subdirectory of a password-protected directory as security", async () => {
    const findings = await findingsOf(A3, fragment(`<Directory /srv/p>\n${AUTH}    Require valid-user\n</Directory>\n<Directory /srv/p/sub>\n    Require all granted\n</Directory>\n`));
    expect(findings.map((f) => [f.line, f.severity])).toEqual([[8, "security"]]);
  });

  it("leaves a fragment written for 2.4 alone: Require ip inside an explicit <RequireAny>, and a host Require without AuthType beside it (2.2 refuses <RequireAny>: the tree never ran there)", async () => {
    const port = `<Directory /srv/p>\n${AUTH}    <RequireAny>\n        Require ip 127.0.0.1\n        Require valid-user\n    </RequireAny>\n</Directory>\n<Directory /srv/status>\n    Require ip 127.0.0.1\n</Directory>\n`;
    expect(await findingsOf(A3, fragment(port))).toEqual([]);
  });

  it("rates a host Require without authentication on 2.2 as behaviour (2.2 answers 500), and a Require all denied too", async () => {
    const findings = await findingsOf(A3, fragment("<Location /status>\n    Require ip 127.0.0.1\n</Location>\n<Directory /srv/p>\n" + AUTH + "    Require all denied\n</Directory>\n"));
    expect(findings.map((f) => [f.line, f.severity])).toEqual([
      [2, "behaviour"],
      [8, "behaviour"],
    ]);
    expect(findings[0]!.message).toMatch(/AuthType not set/);
    // Computed by the access model for the <Location>: 2.2's 500 for everyone, 2.4's grant for 127.0.0.1 and 403
    // for others (the recorded case a4); a grant where 2.2 failed every request is behaviour, as prove's "changed".
    expect(findings[0]!.predicted).toMatch(/2\.2 answered 500, 2\.4 denied \(403\) for an outsider without credentials \(GET \/status\)/);
    expect(findings[0]!.predicted).toMatch(/2\.2 answered 500, 2\.4 served \(200\) for a client on 127\.0\.0\.1 without credentials \(GET \/status\/probe\)/);
  });

  it("says per client what the model predicts where a URL reaches the lines: a password on 2.2, none on 2.4", async () => {
    const findings = await findingsOf(A3, fragment(`<Directory /usr/local/apache2/htdocs/p>\n${AUTH}    Require valid-user\n    Require ip 10.0.0.0/8\n</Directory>\n`));
    expect(findings.map((f) => [f.line, f.severity, f.security])).toEqual([[6, "security", true]]);
    expect(findings[0]!.predicted).toMatch(/^predicted by the access model: 2\.2 asked for credentials \(401\), 2\.4 served \(200\) for a client from 10\.0\.0\.0\/8 without credentials, a client from 10\.0\.0\.0\/8 with a wrong password, .*\(GET \/p\/\)$/);
  });

  it("flags a 2.4-only Require all granted beside a Require valid-user 2.2 enforced (the dual-syntax mistake), also through a <Limit>", async () => {
    const dual = `<Directory /srv/p>\n${AUTH}    Require valid-user\n    <IfModule mod_authz_core.c>\n        Require all granted\n    </IfModule>\n    <IfModule !mod_authz_core.c>\n        Order allow,deny\n        Allow from all\n    </IfModule>\n</Directory>\n`;
    const findings = await findingsOf(A3, fragment(dual));
    expect(findings.map((f) => [f.line, f.severity, f.related.map((r) => r.line)])).toEqual([[7, "security", [5]]]);
    const limit = `<Directory /srv/p>\n${AUTH}    <IfModule mod_authz_core.c>\n        Require all granted\n    </IfModule>\n    <Limit POST>\n        Require valid-user\n    </Limit>\n</Directory>\n`;
    expect((await findingsOf(A3, fragment(limit))).map((f) => f.line)).toEqual([6]);
  });

  it("leaves alone a 2.4-only Require without a user requirement beside it, a 2.4-only user requirement, and user lines alone", async () => {
    const alone = "<Directory /srv/p>\n    <IfModule mod_authz_core.c>\n        Require ip 10.0.0.0/8\n    </IfModule>\n</Directory>\n";
    expect(await findingsOf(A3, fragment(alone))).toEqual([]);
    const both24 = `<Directory /srv/p>\n${AUTH}    <IfModule mod_authz_core.c>\n        Require valid-user\n        Require ip 10.0.0.0/8\n    </IfModule>\n</Directory>\n`;
    expect(await findingsOf(A3, fragment(both24))).toEqual([]);
    expect(await findingsOf(A3, fragment(`<Directory /srv/p>\n${AUTH}    Require user alice\n</Directory>\n`))).toEqual([]);
  });
});

describe("A3: recognise", () => {
  it("claims 401 -> 200 without credentials as security", () => {
    const claim = A3.recognise!(evidence({ findings: [finding("A3", 6)] }));
    expect(claim).toMatchObject({ severity: "security", lines: [{ line: 6 }] });
  });

  it("claims 500 -> 200 (2.2 could not evaluate the line) as behaviour", () => {
    const claim = A3.recognise!(evidence({ status: { baseline: 500, candidate: 200 }, findings: [finding("A3", 2)] }));
    expect(claim?.severity).toBe("behaviour");
  });

  it("does not claim without its finding, nor 200 -> 403", () => {
    expect(A3.recognise!(evidence())).toBeNull();
    expect(A3.recognise!(evidence({ status: { baseline: 200, candidate: 403 }, findings: [finding("A3", 2)] }))).toBeNull();
  });
});

describe("A3 on a tree written for 2.4", () => {
  it("says nothing of how 2.2 would read a Require line of a tree that loads 2.4's own modules", async () => {
    const { lintFiles } = await import("./lint-fixture.ts");
    const result = await lintFiles({
      "conf/httpd.conf": [
        "LoadModule mpm_event_module modules/mod_mpm_event.so",
        "LoadModule authz_core_module modules/mod_authz_core.so",
        "Listen 80",
        "<Directory /srv>",
        "    Require all granted",
        "</Directory>",
        "",
      ].join("\n"),
    });
    expect(result.findings.filter((finding) => finding.rule === "A3")).toEqual([]);
  });
});
