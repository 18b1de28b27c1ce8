import { describe, expect, it } from "vitest";
import { S6 } from "../../../harness/rules/s6-ssi-if-expr.ts";
import { S18 } from "../../../harness/rules/s18-ssi-error-documents.ts";
import { evidence, linesOf, records } from "./rule-harness.ts";

const include = "LoadModule include_module modules/mod_include.so\nLoadModule mime_module modules/mod_mime.so\n";
const ssi = `${include}AddType text/html .shtml\nAddOutputFilter INCLUDES .shtml\nErrorDocument 404 /errors/notfound.shtml\nErrorDocument 500 /errors/500.html\nErrorDocument 403 "Go away"\n`;

describe("S6 #if expr and S18 error documents", () => {
  it("S6 finds the lines that send pages through mod_include", () => {
    expect(linesOf(S6, ssi)).toEqual([{ line: 4, severity: "behaviour" }]);
    expect(linesOf(S6, `${include}AddHandler server-parsed .shtml\nXBitHack on\n`)).toEqual([
      { line: 3, severity: "behaviour" },
      { line: 4, severity: "behaviour" },
    ]);
  });

  it("find nothing where no directory may parse pages: <Directory /> without Includes, no Options or AllowOverride that enables them", () => {
    const locked = `${ssi}<Directory />\n    Options FollowSymLinks\n    AllowOverride None\n</Directory>\n<Directory /srv/www>\n    Options Indexes FollowSymLinks\n</Directory>\n`;
    expect([linesOf(S6, locked), linesOf(S18, locked)]).toEqual([[], []]);
    expect(linesOf(S6, `${locked}<Directory /srv/www/ssi>\n    Options +Includes\n</Directory>\n`)).toEqual([{ line: 4, severity: "behaviour" }]);
    expect(linesOf(S6, `${locked}<Directory /srv/www/app>\n    AllowOverride All\n</Directory>\n`)).toEqual([{ line: 4, severity: "behaviour" }]);
    expect(linesOf(S6, locked.replace("    AllowOverride None\n", ""))).toEqual([{ line: 4, severity: "behaviour" }]);
  });

  it("finds nothing where no version loads mod_include", () => {
    expect(linesOf(S6, ssi.replace("LoadModule include_module modules/mod_include.so\n", ""))).toEqual([]);
  });

  it("S18 finds an ErrorDocument served through mod_include, not a plain page or a message", () => {
    expect(linesOf(S18, ssi)).toEqual([{ line: 5, severity: "behaviour" }]);
    expect(linesOf(S18, `${include}ErrorDocument 404 /errors/notfound.shtml\n`)).toEqual([]);
  });

  it("find nothing where SSILegacyExprParser is on", () => {
    const legacy = `${ssi}<Directory /srv>\n    SSILegacyExprParser on\n</Directory>\n`;
    expect([linesOf(S6, legacy), linesOf(S18, legacy)]).toEqual([[], []]);
  });

  const ah01337 = records("2.4", "[Sat Nov 21 22:50:01.000000 2026] [include:error] [pid 9:tid 9] [client 127.0.0.1:4000] AH01337: Could not parse expr \"$QUERY_STRING = /foo/\" in /usr/local/apache2/htdocs/new/t.shtml: Parse error near '$'");
  const body = { field: "body", baseline: "<p>regex-match</p>\n", candidate: "<p>[an error occurred while processing this directive]</p>\n", log: { baseline: [], candidate: ah01337 } };

  it("S6 claims the SSI error of a page, S18 that of an error document of the same status", () => {
    expect([S6.recognise!(evidence(body)) !== null, S18.recognise!(evidence(body))]).toEqual([true, null]);
    const notFound = evidence({ ...body, status: { baseline: 404, candidate: 404 } });
    expect([S6.recognise!(notFound), S18.recognise!(notFound) !== null]).toEqual([null, true]);
  });

  it("claim nothing without the parser's failure", () => {
    expect(S6.recognise!(evidence({ ...body, candidate: "<p>no-match</p>\n", log: { baseline: [], candidate: [] } }))).toBeNull();
  });
});
