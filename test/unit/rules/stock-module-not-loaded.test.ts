import { describe, expect, it } from "vitest";
import { handlerFindingModules, HANDLER_NOT_LOADED } from "../../../harness/rules/handler-not-loaded.ts";
import { PROTECTION_MODULE_NOT_LOADED, protectionFindingModules } from "../../../harness/rules/protection-module-not-loaded.ts";
import { lintFindingModules, STOCK_MODULE_NOT_LOADED, stockModuleClaim } from "../../../harness/rules/stock-module-not-loaded.ts";
import { evidence, findingsOf, fragment } from "./access-fixture.ts";

// configs/tool-status-alias's expires section, a server-info Location, and an access section (the protection
// rule's, not this one's).
const SNIPPET = [
  "<Directory /usr/share/statgraph/www>",
  "    <IfModule mod_expires.c>",
  "        ExpiresActive On",
  "        ExpiresDefault M310",
  "    </IfModule>",
  "</Directory>",
  "<Location /info>",
  "    SetHandler server-info",
  "</Location>",
  "<Location /lock>",
  "    <IfModule mod_auth_digest.c>",
  "        AuthType Digest",
  "        Require valid-user",
  "    </IfModule>",
  "</Location>",
  "<IfModule mod_status.c>",
  "    <Location /status>",
  "        SetHandler server-status",
  "    </Location>",
  "</IfModule>",
  "",
].join("\n");

describe("stock-module-not-loaded: detect (a fragment on the 2.4 target's stock config)", () => {
  it("flags a section guarded by a module only 2.2's stock loads once (expected: it is optional) and a handler no 2.4 module serves (behaviour)", async () => {
    const findings = await findingsOf(STOCK_MODULE_NOT_LOADED, fragment(SNIPPET));
    expect(findings.map((f) => [f.line, f.directive, f.severity])).toEqual([
      [3, "ExpiresActive On", "expected"],
      [8, "SetHandler server-info", "behaviour"],
    ]);
    expect(findings[0]!.related.map((r) => r.line)).toEqual([2, 4]);
    expect(findings[0]!.fix).toContain("LoadModule expires_module modules/mod_expires.so");
    expect(findings.map(lintFindingModules)).toEqual([["expires_module"], ["info_module"]]);
  });

  it("leaves the access section to protection-module-not-loaded, and mod_status (both stocks load it) alone", async () => {
    const protection = await findingsOf(PROTECTION_MODULE_NOT_LOADED, fragment(SNIPPET));
    expect(protection.map((f) => f.line)).toEqual([12]);
    expect(protection.flatMap(protectionFindingModules)).toEqual(["auth_digest_module"]);
  });

  it("finds nothing for a target that loads the successors, or for a full tree", async () => {
    expect(await findingsOf(STOCK_MODULE_NOT_LOADED, fragment(SNIPPET), "successors")).toEqual([]);
    expect(await findingsOf(HANDLER_NOT_LOADED, fragment("ScriptAlias /cgi/ /srv/cgi/\n"), "successors")).toEqual([]);
    expect(await findingsOf(STOCK_MODULE_NOT_LOADED, { "conf/httpd.conf": `ServerRoot /usr/local/apache2\n${SNIPPET}` })).toEqual([]);
  });

  it("reads back handler-not-loaded's modules from its message", async () => {
    const [cgi] = await findingsOf(HANDLER_NOT_LOADED, fragment("ScriptAlias /cgi/ /srv/cgi/\n<Directory /srv/cgi>\n    Require all granted\n</Directory>\n"));
    expect(handlerFindingModules(cgi!)).toEqual(["cgi_module", "cgid_module"]);
  });
});

describe("stock-module-not-loaded: what a missing module's evidence looks like", () => {
  const gap = [{ module: "expires_module", successors: ["expires_module"] }, { module: "info_module", successors: ["info_module"] }];

  it("claims a header 2.2 sent and 2.4 did not only for a module that sets it and is missing", () => {
    const lost = evidence({ field: "header:expires", baseline: "Mon, 07 Dec 2026 15:31:54 GMT", candidate: null, status: { baseline: 200, candidate: 200 } });
    expect(stockModuleClaim(lost, gap, "unexplained")).toMatchObject({ module: "expires_module", claim: { severity: "behaviour" } });
    expect(stockModuleClaim(lost, [gap[1]!], "unexplained")).toBeNull();
    expect(stockModuleClaim({ ...lost, field: "header:x-frame-options" }, gap, "unexplained")).toBeNull();
    expect(stockModuleClaim({ ...lost, baseline: null, candidate: "x" }, gap, "unexplained")).toBeNull();
  });
});
