import { describe, expect, it } from "vitest";
import { combined, hostPolicy, hostRequirement, ORDER_ALLOW_DENY_TO_REQUIRE, render } from "../../../harness/rules/order-allow-deny-to-require.ts";
import { findingsOf, fragment } from "./access-fixture.ts";

const form = (order: string, allows: string[], denies: string[], users: string[] = [], satisfy: "all" | "any" = "all") => render(combined(hostPolicy(order, allows, denies), users, satisfy));

describe("order-allow-deny-to-require: the guide's table as real servers answered it", () => {
  it("Q1, Q2: deny-all and allow-all", () => {
    expect(form("deny,allow", [], ["all"])).toBe("Require all denied");
    expect(form("allow,deny", ["all"], [])).toBe("Require all granted");
  });

  it("Q3: Deny from all + Allow from a domain is Require host; addresses are Require ip, env= is Require env", () => {
    expect(form("Deny,Allow", ["example.org"], ["all"])).toBe("Require host example.org");
    expect(hostRequirement("10.1")).toBe("ip 10.1");
    expect(hostRequirement("2001:db8::/32")).toBe("ip 2001:db8::/32");
    expect(hostRequirement("env=let_in")).toBe("env let_in");
    expect(form("deny,allow", ["127.0.0.1", "::1", "mon.example.org"], ["all"])).toBe("<RequireAny>\n    Require ip 127.0.0.1 ::1\n    Require host mon.example.org\n</RequireAny>");
  });

  it("Q5, Q6: Satisfy All is RequireAll, Satisfy Any is RequireAny", () => {
    expect(form("deny,allow", ["10.0.0.0/8"], ["all"], ["Require valid-user"], "all")).toBe("<RequireAll>\n    Require valid-user\n    Require ip 10.0.0.0/8\n</RequireAll>");
    expect(form("deny,allow", ["10.0.0.0/8"], ["all"], ["Require valid-user"], "any")).toBe("<RequireAny>\n    Require valid-user\n    Require ip 10.0.0.0/8\n</RequireAny>");
  });

  it("keeps 2.2's meaning where the table's 2.2 text means something else: Q4's deny-all snippet refuses everyone, Q6's allow,deny form admits by password only", () => {
    expect(form("deny,allow", [], ["all"], ["Require valid-user"], "all")).toBe("Require all denied");
    expect(form("allow,deny", ["10.0.0.1"], ["all"], ["Require valid-user"], "any")).toBe("Require valid-user");
  });

  it("writes 'everyone but' with a granting RequireAll, and Allow-overrides-Deny as RequireAny", () => {
    expect(form("allow,deny", ["all"], ["192.0.2.9"])).toBe("<RequireAll>\n    Require all granted\n    Require not ip 192.0.2.9\n</RequireAll>");
    expect(form("allow,deny", ["10.0.0.0/8", "172.16.0.0/12"], ["10.9.9.9"])).toBe("<RequireAll>\n    Require ip 10.0.0.0/8 172.16.0.0/12\n    Require not ip 10.9.9.9\n</RequireAll>");
    expect(form("deny,allow", ["10.9.9.9"], ["10.0.0.0/8"])).toBe(
      "<RequireAny>\n    Require ip 10.9.9.9\n    <RequireAll>\n        Require all granted\n        Require not ip 10.0.0.0/8\n    </RequireAll>\n</RequireAny>",
    );
  });
});

describe("order-allow-deny-to-require: detect", () => {
  it("flags each section's Order line once, with the Require form as fix and the other lines related", async () => {
    const findings = await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, fragment('<Directory /srv/s>\n    Order deny,allow\n    Deny from all\n    Allow from 127.0.0.1\n    AuthType Basic\n    AuthName "s"\n    AuthUserFile /srv/p\n    Require valid-user\n    Satisfy Any\n</Directory>\n'));
    expect(findings.map((f) => [f.line, f.severity, f.fix, f.related.map((r) => r.line)])).toEqual([[2, "deprecated", "<RequireAny>\n    Require valid-user\n    Require ip 127.0.0.1\n</RequireAny>", [3, 4, 9]]]);
  });

  // 2.2's mod_authz_host has no merger: a section with a lone Order replaces what it inherits (the Drupal-era
  // <FilesMatch> of source files with only "Order allow,deny" denies everyone; a lone "Order deny,allow" admits all).
  it("flags a section with a lone Order line: allow,deny alone denies everyone, deny,allow alone admits everyone", async () => {
    const lone = (order: string) => fragment(`<Directory /srv/site>\n    <FilesMatch "\\.(inc|module|sql)$">\n        Order ${order}\n    </FilesMatch>\n</Directory>\n`);
    expect((await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, lone("allow,deny"))).map((f) => [f.line, f.fix])).toEqual([[3, "Require all denied"]]);
    expect((await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, lone("deny,allow"))).map((f) => [f.line, f.fix])).toEqual([[3, "Require all granted"]]);
  });

  it("notes Q4's trap in the message", async () => {
    const findings = await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, fragment('<Location /a>\n    Order Deny,Allow\n    Deny from all\n    AuthType Basic\n    AuthName "a"\n    AuthUserFile /srv/p\n    Require valid-user\n</Location>\n'));
    expect(findings[0]!.message).toMatch(/refuses every client here, even with a password \(predicted by the access model;/);
    expect(findings[0]!.predicted).toMatch(/^2\.2 refuses every client here: predicted by the access model for the \d+ requests probed here$/);
  });

  it("notes Q6's reading where the model predicts it (a password admits, nothing else), and says so where it cannot predict", async () => {
    const q6 = (path: string) => `<Location ${path}>\n    Order allow,deny\n    Deny from all\n    AuthType Basic\n    AuthName "a"\n    AuthUserFile /srv/p\n    Require valid-user\n    Satisfy any\n</Location>\n`;
    const findings = await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, fragment(q6("/q6")));
    expect(findings[0]!.message).toMatch(/admit no one on 2\.2, so only the password does \(predicted by the access model;/);
    expect(findings[0]!.predicted).toMatch(/^only the password admits on 2\.2: predicted by the access model for the \d+ requests probed here$/);
    // A pattern the plan makes an example path for is probed like a literal one (plan/probes/regex-example.ts).
    const regex = await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, fragment(q6("~ ^/q6")));
    expect(regex[0]!.message).toMatch(/admit no one on 2\.2, so only the password does \(predicted by the access model;/);
    // A look-ahead is read by no example: no probe reaches these lines, and the note says so.
    const unread = await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, fragment(q6("~ ^/q6/(?=x)")));
    expect(unread[0]!.message).toMatch(/admit no one on 2\.2, so only the password does \(not predicted;/);
    expect(unread[0]!.predicted).toBe("only the password admits on 2.2: not predicted: no probe the plan makes for this tree reaches these lines");
  });

  it("leaves a dual-syntax config's 2.2 branch and an already ported section alone, and a target without mod_access_compat", async () => {
    const dual = "<Directory /srv/d>\n    <IfModule !mod_authz_core.c>\n        Order allow,deny\n        Allow from all\n    </IfModule>\n    <IfModule mod_authz_core.c>\n        Require all granted\n    </IfModule>\n</Directory>\n";
    expect(await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, fragment(dual))).toEqual([]);
    const mixed = "<Directory /srv/m>\n    Order allow,deny\n    Allow from all\n    <IfModule mod_authz_core.c>\n        Require ip 192.0.2.1\n    </IfModule>\n</Directory>\n";
    expect(await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, fragment(mixed))).toEqual([]);
    const full = { "conf/httpd.conf": "LoadModule authz_core_module modules/mod_authz_core.so\n<Directory /srv/f>\n    Order allow,deny\n    Allow from all\n</Directory>\n" };
    expect(await findingsOf(ORDER_ALLOW_DENY_TO_REQUIRE, full)).toEqual([]);
  });
});
