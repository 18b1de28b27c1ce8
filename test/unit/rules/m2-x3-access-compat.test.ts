import { describe, expect, it } from "vitest";
import { M2, requireTranslation } from "../../../harness/rules/m2-x3-access-compat.ts";
import { configTestEvidence, lintFiles, of } from "./lint-fixture.ts";
import { walkConfig } from "../../../harness/conf/queries/walk-config.ts";
import type { EffectiveDirective } from "../../../harness/conf/effective-config.ts";

const HEAD = "Listen 80\nLoadModule mpm_prefork_module modules/mod_mpm_prefork.so\nLoadModule authz_host_module modules/mod_authz_host.so\n";

function line(name: string, ...args: string[]): EffectiveDirective {
  return { name, key: name.toLowerCase(), args } as unknown as EffectiveDirective;
}

describe("M2/X3: Order, Allow, Deny, Satisfy need mod_access_compat", () => {
  it("finds each line with the Require that says the same as its fix", async () => {
    const result = await lintFiles({ "conf/httpd.conf": `${HEAD}<Directory /x>\n  Order deny,allow\n  Deny from all\n  Allow from 10.0.0.0/8 example.org\n</Directory>\n` });
    const found = of(result, "M2");
    expect(found.map((f) => f.line)).toEqual([5, 6, 7]);
    expect(found[0]!.fix).toContain("LoadModule access_compat_module");
    expect(found[1]!.fix).toMatch(/^Require all denied/);
    expect(found[2]!.fix).toMatch(/^Require ip 10\.0\.0\.0\/8\nRequire host example\.org/);
  });

  it("gives no finding inside <IfModule !mod_authz_core.c>, which 2.4 holds but does not read in a dual config", async () => {
    const result = await lintFiles({ "conf/httpd.conf": `${HEAD}LoadModule unixd_module modules/mod_unixd.so\n<Directory /x>\n  <IfModule !mod_authz_core.c>\n    Order deny,allow\n  </IfModule>\n</Directory>\n` });
    // 2.4 without mod_authz_core holds the condition: the line is in its view, and only the guard drops it.
    expect(walkConfig(result.context.target).byKey.get("order")).toHaveLength(1);
    expect(result.findings).toEqual([]);
  });

  it("translates Allow/Deny/Satisfy lines to Require", () => {
    expect(requireTranslation(line("Allow", "from", "all"))).toBe("Require all granted");
    expect(requireTranslation(line("Deny", "from", "192.168.1.1"))).toBe("Require not ip 192.168.1.1");
    expect(requireTranslation(line("Allow", "from", "env=let_me_in"))).toBe("Require env let_me_in");
    expect(requireTranslation(line("Allow", "from", "10.1", "127.0.0.0/255.0.0.0", "::1/128", "cafe.de"))).toBe("Require ip 10.1 127.0.0.0/255.0.0.0 ::1/128\nRequire host cafe.de");
    expect(requireTranslation(line("Satisfy", "Any"))).toContain("RequireAny");
    expect(requireTranslation(line("Order", "deny,allow"))).toBeNull();
  });

  it("recognises Invalid command 'Order'", () => {
    const claim = M2.recognise!(configTestEvidence(["AH00526: Syntax error on line 5 of /usr/local/apache2/conf/httpd.conf:", "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration"]));
    expect(claim?.summary).toContain("'Order'");
    expect(M2.recognise!(configTestEvidence(["AH00526: Syntax error on line 5 of /x:", "Invalid command 'Orders', perhaps misspelled"]))).toBeNull();
  });
});
