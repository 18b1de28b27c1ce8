import { describe, expect, it } from "vitest";
import { HANDLER_NOT_LOADED } from "../../../harness/rules/handler-not-loaded.ts";
import { evidence, findingsOf, finding, fragment, record } from "./access-fixture.ts";

const GRANTED = "<IfModule mod_authz_core.c>\n    Require all granted\n</IfModule>\n<IfModule !mod_authz_core.c>\n    Order allow,deny\n    Allow from all\n</IfModule>\n";

describe("handler-not-loaded: detect", () => {
  it("flags a ScriptAlias in a fragment: 2.2's stock config loads mod_cgi, 2.4's loads neither mod_cgi nor mod_cgid", async () => {
    const findings = await findingsOf(HANDLER_NOT_LOADED, fragment(`ScriptAlias /tool-cgi/ /srv/tool/cgi/\n<Directory /srv/tool/cgi>\n${GRANTED}</Directory>\n`));
    expect(findings.map((f) => [f.line, f.directive, f.severity, f.security])).toEqual([[1, "ScriptAlias /tool-cgi/ /srv/tool/cgi/", "security", true]]);
    expect(findings[0]!.fix).toMatch(/cgid_module/);
  });

  it("flags AddHandler cgi-script and an INCLUDES output filter, with their sections", async () => {
    const findings = await findingsOf(
      HANDLER_NOT_LOADED,
      fragment("<Directory /srv/app>\n    Options +ExecCGI +Includes\n    AddHandler cgi-script .cgi\n    AddType text/html .shtml\n    AddOutputFilter INCLUDES .shtml\n</Directory>\n"),
    );
    expect(findings.map((f) => [f.line, f.sections])).toEqual([
      [3, ["<Directory /srv/app>"]],
      [5, ["<Directory /srv/app>"]],
    ]);
  });

  it("rates it behaviour where 2.4 refuses the directory anyway: a fragment's pure 2.2 directory outside the stock grants", async () => {
    const findings = await findingsOf(HANDLER_NOT_LOADED, fragment("ScriptAlias /tool-cgi/ /srv/tool/cgi/\n<Directory /srv/tool/cgi>\n    Order allow,deny\n    Allow from all\n</Directory>\n"));
    expect(findings.map((f) => [f.line, f.severity, f.security])).toEqual([[1, "behaviour", false]]);
    expect(findings[0]!.predicted).toMatch(/^predicted by the access model: 2\.2 ran the script \(200\), 2\.4 denied \(403\) for an outsider without credentials \(GET \/tool-cgi\/probe\.cgi\)/);
    const underHtdocs = await findingsOf(HANDLER_NOT_LOADED, fragment("<Directory /usr/local/apache2/htdocs/app>\n    AddHandler cgi-script .cgi\n</Directory>\n"));
    expect(underHtdocs.map((f) => f.severity)).toEqual(["security"]);
  });

  it("rates it security where the directory asks for a user: 2.4 sends the source to every authenticated user (real 2.4.62)", async () => {
    const cgi = "ScriptAlias /tool-cgi/ /srv/tool/cgi/\n<Directory /srv/tool/cgi>\n    AuthType Basic\n    AuthName tool\n    AuthUserFile /srv/tool/passwd\n    Require valid-user\n    Order allow,deny\n    Allow from all\n</Directory>\n";
    const findings = await findingsOf(HANDLER_NOT_LOADED, fragment(cgi));
    expect(findings.map((f) => [f.line, f.severity])).toEqual([[1, "security"]]);
    expect(findings[0]!.predicted).toMatch(/2\.2 ran the script \(200\), 2\.4 sent the script's source \(200\) for the authenticated user probe-user \(an outsider\) \(GET \/tool-cgi\/probe\.cgi\)$/);
  });

  it("names the clients a host rule admits, from the same model", async () => {
    const findings = await findingsOf(HANDLER_NOT_LOADED, fragment("ScriptAlias /tool-cgi/ /srv/tool/cgi/\n<Directory /srv/tool/cgi>\n    Require ip 10.0.0.0/8\n</Directory>\n"));
    expect(findings.map((f) => [f.severity, /2\.2 denied \(403\), 2\.4 sent the script's source \(200\) for a client from 10\.0\.0\.0\/8 without credentials/.test(f.predicted ?? "")])).toEqual([["security", true]]);
  });

  it("says nothing when the 2.4 side loads the handler's module too", async () => {
    const findings = await findingsOf(HANDLER_NOT_LOADED, fragment("LoadModule cgid_module modules/mod_cgid.so\nScriptAlias /cgi-bin/ /srv/cgi/\n"));
    expect(findings).toEqual([]);
  });

  it("says nothing for a handler 2.2 does not load either (a PHP type with no PHP module on either side)", async () => {
    expect(await findingsOf(HANDLER_NOT_LOADED, fragment("AddType application/x-httpd-php .php\nAddHandler server-status .status\n"))).toEqual([]);
  });

  it("flags a PHP type when the tree's 2.2 branch loads mod_php and 2.4 does not", async () => {
    const findings = await findingsOf(HANDLER_NOT_LOADED, fragment("<IfModule !mod_authz_core.c>\n    LoadModule php5_module modules/libphp5.so\n</IfModule>\nAddType application/x-httpd-php .php\n"));
    expect(findings.map((f) => f.line)).toEqual([4]);
  });

  it("flags a handler an Action line defines: 2.2's stock config loads mod_actions, 2.4's does not", async () => {
    const findings = await findingsOf(HANDLER_NOT_LOADED, fragment("<IfModule mod_actions.c>\n    Action tpl-wrapper /wrap/wrapper.cgi\n</IfModule>\n<Directory /srv/app>\n    AddHandler tpl-wrapper .tpl\n</Directory>\n"));
    expect(findings.map((f) => [f.line, f.fix])).toEqual([[5, "LoadModule actions_module modules/mod_actions.so"]]);
  });
});

describe("handler-not-loaded: recognise", () => {
  it("claims a body that is the script's source where 2.2 sent its output, as security, tied to the finding's line", () => {
    const claim = HANDLER_NOT_LOADED.recognise!(
      evidence({ field: "body", baseline: "ran: ok\n", candidate: '#!/bin/sh\necho "Content-Type: text/plain"\n', status: { baseline: 200, candidate: 200 }, findings: [finding("handler-not-loaded", 1)] }),
    );
    expect(claim).toMatchObject({ severity: "security", lines: [{ file: "site.conf", line: 1 }] });
  });

  // Recorded on 2.2.34 / 2.4.68 (an icinga-shaped fragment: ScriptAlias /icinga/cgi-bin, no CGI module on 2.4):
  // GET /icinga/cgi-bin/ was 403 "attempt to invoke directory as script" on 2.2 and 404 on 2.4.
  it("claims 2.2's CGI handler refusal that 2.4, without the handler, answers otherwise: behaviour, security if it sent content", () => {
    const scriptAlias = { ...finding("handler-not-loaded", 1), directive: "ScriptAlias /icinga/cgi-bin /usr/lib/icinga/cgi" };
    const refused = (candidate: number) => evidence({ field: "status", baseline: "403", candidate: String(candidate), status: { baseline: 403, candidate }, log: { baseline: [record("AH02812", "attempt to invoke directory as script: /usr/lib/icinga/cgi/")], candidate: [] }, findings: [scriptAlias], request: { ...evidence().request!, path: "/icinga/cgi-bin/" } });
    expect(HANDLER_NOT_LOADED.recognise!(refused(404))).toMatchObject({ severity: "behaviour", lines: [{ line: 1 }] });
    expect(HANDLER_NOT_LOADED.recognise!(refused(200))?.severity).toBe("security");
    expect(HANDLER_NOT_LOADED.recognise!({ ...refused(404), findings: [] })).toBeNull();
    expect(HANDLER_NOT_LOADED.recognise!({ ...refused(404), log: { baseline: [record("AH01797", "client denied by server configuration: /x")], candidate: [] } })).toBeNull();
  });

  it("claims raw SSI text and 2.4's AH00082 line", () => {
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ field: "body", baseline: "<html>Monday</html>", candidate: '<html><!--#echo var="DATE_LOCAL" --></html>' }))).not.toBeNull();
    const log = { baseline: [], candidate: [record("AH00082", "an unknown filter was not added: includes")] };
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ field: "errorLog", log }))).not.toBeNull();
  });

  it("claims the response's type turning into the script file's own type, only with its finding on the tree", () => {
    const typed = { field: "header:content-type", baseline: "text/plain", candidate: "application/x-sh", status: { baseline: 200, candidate: 200 } };
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ ...typed, findings: [finding("handler-not-loaded", 1)] }))?.severity).toBe("security");
    expect(HANDLER_NOT_LOADED.recognise!(evidence(typed))).toBeNull();
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ ...typed, candidate: "text/html", findings: [finding("handler-not-loaded", 1)] }))).toBeNull();
  });

  it("leaves the type of a file its handler would not have run (a backup of no known type: 2.2's DefaultType) to E1", () => {
    const addHandler = { ...finding("handler-not-loaded", 3), directive: "AddHandler cgi-script .cgi .pl" };
    const untyped = (path: string) => evidence({ field: "header:content-type", baseline: "text/plain", candidate: null, status: { baseline: 200, candidate: 200 }, findings: [addHandler], request: { ...evidence().request!, path } });
    expect(HANDLER_NOT_LOADED.recognise!(untyped("/index.html~"))).toBeNull();
    expect(HANDLER_NOT_LOADED.recognise!(untyped("/tools/report.pl"))).toMatchObject({ lines: [{ line: 3 }] });
    expect(HANDLER_NOT_LOADED.recognise!(untyped("/tools/"))).not.toBeNull();
    const scriptAlias = { ...finding("handler-not-loaded", 5), directive: "ScriptAlias /cgi-bin/ /srv/cgi/" };
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ field: "header:content-type", baseline: "text/html", candidate: null, findings: [scriptAlias], status: { baseline: 200, candidate: 200 }, request: { ...evidence().request!, path: "/cgi-bin/run" } }))).not.toBeNull();
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ field: "header:content-type", baseline: "text/html", candidate: null, findings: [scriptAlias], status: { baseline: 200, candidate: 200 }, request: { ...evidence().request!, path: "/other" } }))).toBeNull();
  });

  it("claims the file's validators (ETag, Last-Modified) that only 2.4 sent, only with its finding and on the same status", () => {
    const validator = { field: "header:etag", baseline: null, candidate: '"12f-6474846204000"', status: { baseline: 200, candidate: 200 } };
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ ...validator, findings: [finding("handler-not-loaded", 1)] }))?.severity).toBe("security");
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ ...validator, field: "header:last-modified", candidate: "Thu, 01 Jan 2026 00:00:00 GMT", findings: [finding("handler-not-loaded", 1)] }))).not.toBeNull();
    expect(HANDLER_NOT_LOADED.recognise!(evidence(validator))).toBeNull();
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ ...validator, baseline: '"5-1"', findings: [finding("handler-not-loaded", 1)] }))).toBeNull();
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ ...validator, status: { baseline: 401, candidate: 200 }, findings: [finding("handler-not-loaded", 1)] }))).toBeNull();
  });

  it("does not claim a body both sides sent as text, nor a status difference", () => {
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ field: "body", baseline: "#!/bin/sh\n", candidate: "#!/bin/sh\nx" }))).toBeNull();
    expect(HANDLER_NOT_LOADED.recognise!(evidence({ field: "body", baseline: "a", candidate: "b" }))).toBeNull();
    expect(HANDLER_NOT_LOADED.recognise!(evidence())).toBeNull();
  });
});
