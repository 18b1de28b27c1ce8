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

describe("stock-module-not-loaded: guarded lines in the per-directory files a fragment ships (.htaccess)", () => {
  // An application's .htaccess, read by 2.2 (its <Directory> allows FileInfo): a redirect, and a refusal of backups.
  const APP = {
    "site.conf": "Alias /app /usr/local/apache2/app\n<Directory /usr/local/apache2/app>\n    AllowOverride FileInfo\n</Directory>\n",
    "app/.htaccess": [
      "<IfModule mod_rewrite.c>",
      "    RewriteEngine On",
      "    RewriteRule ^old\\.html$ new.html [R=301,L]",
      "</IfModule>",
      "<IfModule mod_rewrite.c>",
      "    RewriteRule \\.bak$ - [F]",
      "</IfModule>",
      "",
    ].join("\n"),
  };

  it("flags each guard of a module 2.4's stock does not load, the one holding access lines as security (no other rule reads them there)", async () => {
    const findings = await findingsOf(STOCK_MODULE_NOT_LOADED, APP);
    expect(findings.map((f) => [f.file, f.line, f.directive, f.severity, f.sections])).toEqual([
      ["app/.htaccess", 2, "RewriteEngine On", "expected", []],
      ["app/.htaccess", 6, "RewriteRule \\.bak$ - [F]", "security", []],
    ]);
    expect(findings.map(lintFindingModules)).toEqual([["rewrite_module"], ["rewrite_module"]]);
    expect(findings[1]!.message).toContain("access lines among them");
    expect(await findingsOf(STOCK_MODULE_NOT_LOADED, APP, "successors")).toEqual([]);
  });
});

describe("stock-module-not-loaded: a difference on a probe whose region holds the module's skipped lines", () => {
  const gap = [
    { module: "rewrite_module", successors: ["rewrite_module"] },
    { module: "expires_module", successors: ["expires_module"] },
  ];
  const directory = { file: "site.conf", line: 2, endLine: 12, label: "<Directory /usr/local/apache2/app>" };
  const accessFile = { file: "app/.htaccess", line: 1, endLine: 8, label: ".htaccess", accessFile: true as const };
  const finding = (line: number, file: string, directive: string, message: string, sections: string[]) => ({
    rule: "stock-module-not-loaded", severity: "expected" as const, security: false, seed: ["B4"], file, line, column: 5, endLine: line, endColumn: 5, directive, message, fix: null, fingerprint: `f${line}`, sections, includeChain: [], related: [],
  });
  const expires = finding(4, "site.conf", "ExpiresActive On", "the 2.4 target does not load expires_module, which 2.2's stock httpd.conf loads: <IfModule mod_expires.c> (line 3) and its line are skipped on 2.4", [directory.label]);
  const rewrite = finding(8, "site.conf", "RewriteEngine On", "the 2.4 target does not load rewrite_module, which 2.2's stock httpd.conf loads: <IfModule mod_rewrite.c> (line 7) and its 2 lines are skipped on 2.4", [directory.label]);
  const inFile = finding(2, "app/.htaccess", "RewriteEngine On", "the 2.4 target does not load rewrite_module, which 2.2's stock httpd.conf loads: <IfModule mod_rewrite.c> (line 1) and its 2 lines are skipped on 2.4", []);
  const redirect = (path: string, sections: Array<typeof directory | typeof accessFile>) =>
    evidence({ field: "status", baseline: "301", candidate: "200", status: { baseline: 301, candidate: 200 }, request: { name: "p1", method: "GET", path, host: null, client: "host", user: null, sections }, findings: [expires, rewrite, inFile] });

  it("ties it to the module whose lines sit in a <Directory> the probe meets, never to one that only sets headers", () => {
    const claim = stockModuleClaim(redirect("/app/", [directory]), gap, "unexplained");
    expect(claim).toEqual({
      module: "rewrite_module",
      claim: { summary: "status differs on /app/: RewriteEngine On and the lines with it in <Directory /usr/local/apache2/app> are skipped on 2.4 (mod_rewrite is not loaded)", lines: [{ file: "site.conf", line: 8 }], severity: "behaviour" },
    });
    // mod_expires alone in the region: a status is not its doing; a header of that request is.
    const onlyExpires = { ...redirect("/app/", [directory]), findings: [expires] };
    expect(stockModuleClaim(onlyExpires, gap, "unexplained")).toBeNull();
    expect(stockModuleClaim({ ...onlyExpires, field: "header:cache-control", baseline: "max-age=0", candidate: "no-cache" }, gap, "unexplained")?.module).toBe("expires_module");
  });

  it("ties it to the .htaccess the probe's directory walk reads, and to nothing for a probe that meets neither", () => {
    expect(stockModuleClaim(redirect("/app/old.html", [directory, accessFile]), gap, "unexplained")?.claim.summary).toBe(
      "status differs on /app/old.html: RewriteEngine On and the lines with it in app/.htaccess are skipped on 2.4 (mod_rewrite is not loaded)",
    );
    expect(stockModuleClaim(redirect("/elsewhere/", []), gap, "unexplained")).toBeNull();
    // A refusal 2.4 lets through is a widening: security.
    const widened = { ...redirect("/app/x.bak", [directory]), baseline: "403", status: { baseline: 403, candidate: 200 } };
    expect(stockModuleClaim(widened, gap, "outcome")?.claim.severity).toBe("security");
  });

  it("without a probe's region, keeps to a <Location> by its path, as before", () => {
    const located = { ...rewrite, sections: ["<Location /app>"] };
    const plain = { ...redirect("/app/x", []), request: { name: "own", method: "GET", path: "/app/x", host: null, client: "host", user: null }, findings: [located] };
    expect(stockModuleClaim(plain, gap, "unexplained")?.module).toBe("rewrite_module");
    expect(stockModuleClaim({ ...plain, findings: [rewrite] }, gap, "unexplained")).toBeNull();
  });
});
