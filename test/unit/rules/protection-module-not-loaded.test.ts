import { describe, expect, it } from "vitest";
import { PROTECTION_MODULE_NOT_LOADED } from "../../../harness/rules/protection-module-not-loaded.ts";
import { evidence, findingsOf, finding, fragment } from "./access-fixture.ts";

describe("protection-module-not-loaded: detect", () => {
  it("flags Digest auth inside <IfModule mod_auth_digest.c> of a fragment once, at its first line, with the others related", async () => {
    const findings = await findingsOf(
      PROTECTION_MODULE_NOT_LOADED,
      fragment('<Location />\n    <IfModule mod_auth_digest.c>\n        AuthType Digest\n        AuthName "s"\n        AuthUserFile /etc/d\n        Require valid-user\n    </IfModule>\n</Location>\n'),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ line: 3, directive: "AuthType Digest", severity: "security", sections: ["<Location />"] });
    expect(findings[0]!.message).toMatch(/auth_digest_module/);
    // Computed by the access model over the probes of the <Location />: 2.2.34 401, 2.4.68 200 (recorded above).
    expect(findings[0]!.predicted).toMatch(/^predicted by the access model: 2\.2 asked for credentials \(401\), 2\.4 served \(200\) for an outsider without credentials, /);
    expect(findings[0]!.related.map((r) => r.line)).toEqual([2, 5, 6]);
  });

  it("flags a RewriteRule [F] inside <IfModule mod_rewrite.c>, not one that only rewrites", async () => {
    const findings = await findingsOf(
      PROTECTION_MODULE_NOT_LOADED,
      fragment("<Directory /srv/p>\n    <IfModule mod_rewrite.c>\n        RewriteEngine On\n        RewriteRule .* - [F]\n    </IfModule>\n</Directory>\n<IfModule mod_rewrite.c>\n    RewriteRule ^/old /new [R=301,L]\n</IfModule>\n"),
    );
    expect(findings.map((f) => f.line)).toEqual([4]);
    expect(findings[0]!.message).toMatch(/refuses/);
    // The access model does not read rewrites: the rule's own words, its own rating, and why.
    expect(findings[0]!.severity).toBe("security");
    expect(findings[0]!.message).toMatch(/\(the outcome is not predicted \(why is given at each place\)\)$/);
    expect(findings[0]!.predicted).toBe("the outcome is not predicted: the access model does not read RewriteRule");
  });

  it("says nothing for a module 2.4 loads too, or a negated condition, or a module 2.2 does not load", async () => {
    const text = "<IfModule mod_authz_host.c>\n    Order deny,allow\n    Deny from all\n</IfModule>\n<IfModule !mod_rewrite.c>\n    Require all denied\n</IfModule>\n<IfModule mod_nonexistent.c>\n    Deny from all\n</IfModule>\n";
    expect(await findingsOf(PROTECTION_MODULE_NOT_LOADED, fragment(text))).toEqual([]);
  });

  it("claims no difference where the model predicts the same on both (a directory both stock <Directory /> refuse): deprecated, what breaks later", async () => {
    const text = 'Alias /p /srv/p\n<Directory /srv/p>\n    <IfModule mod_auth_digest.c>\n        AuthType Digest\n        AuthName "s"\n        AuthUserFile /etc/d\n        Require valid-user\n    </IfModule>\n</Directory>\n';
    const findings = await findingsOf(PROTECTION_MODULE_NOT_LOADED, fragment(text));
    expect(findings.map((f) => [f.line, f.severity, f.security])).toEqual([[4, "deprecated", false]]);
    expect(findings[0]!.message).toMatch(/predicted by the access model: the same outcome on 2\.2 and 2\.4 \(at each place\), but once 2\.4 lets a client reach/);
    expect(findings[0]!.predicted).toMatch(/^predicted by the access model: the same on 2\.2 and 2\.4 for every request probed here \(\d+: denied \(403\)\)$/);
  });

  it("leaves a protection with a fallback for the module's absence alone", async () => {
    const text = "<Directory /srv/p>\n    <IfModule mod_rewrite.c>\n        RewriteEngine On\n        RewriteRule .* - [F]\n    </IfModule>\n    <IfModule !mod_rewrite.c>\n        Require all denied\n    </IfModule>\n</Directory>\n";
    expect(await findingsOf(PROTECTION_MODULE_NOT_LOADED, fragment(text))).toEqual([]);
  });
});

describe("protection-module-not-loaded: recognise", () => {
  it("claims 401 on 2.2 and 200 on 2.4 as security when a finding may govern the path", () => {
    const claim = PROTECTION_MODULE_NOT_LOADED.recognise!(evidence({ findings: [finding("protection-module-not-loaded", 3, ["<Location />"])] }));
    expect(claim).toMatchObject({ severity: "security", lines: [{ line: 3 }] });
    expect(claim!.summary).toMatch(/password/);
  });

  it("does not claim a request outside the finding's Location, a narrowing, or evidence without its finding", () => {
    const findings = [finding("protection-module-not-loaded", 3, ["<Location /admin>"])];
    expect(PROTECTION_MODULE_NOT_LOADED.recognise!(evidence({ findings }))).toBeNull();
    expect(PROTECTION_MODULE_NOT_LOADED.recognise!(evidence({ findings, request: { ...evidence().request!, path: "/admin/x" }, status: { baseline: 200, candidate: 403 } }))).toBeNull();
    expect(PROTECTION_MODULE_NOT_LOADED.recognise!(evidence())).toBeNull();
  });

  it("claims the Digest answer's Authentication-Info 2.2 sent and 2.4, asking for no credentials, did not", () => {
    const findings = [finding("protection-module-not-loaded", 3, ["<Location />"])];
    const info = { field: "header:authentication-info", baseline: 'rspauth="5d1a", qop=auth', candidate: null, status: { baseline: 200, candidate: 200 }, findings };
    expect(PROTECTION_MODULE_NOT_LOADED.recognise!(evidence(info))).toMatchObject({ severity: "security", lines: [{ line: 3 }] });
    expect(PROTECTION_MODULE_NOT_LOADED.recognise!(evidence({ ...info, candidate: 'rspauth="77"' }))).toBeNull();
    expect(PROTECTION_MODULE_NOT_LOADED.recognise!(evidence({ ...info, findings: [] }))).toBeNull();
  });
});
