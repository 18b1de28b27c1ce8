import { describe, expect, it } from "vitest";
import { B1 } from "../../../harness/rules/b1-config-nice.ts";
import { S10 } from "../../../harness/rules/s10-proxy-scgi-pathinfo.ts";
import { S11 } from "../../../harness/rules/s11-dav-lock-db.ts";
import { S12 } from "../../../harness/rules/s12-autoindex-xhtml-titles.ts";
import { S13 } from "../../../harness/rules/s13-deflate-tiny-bodies.ts";
import { S16 } from "../../../harness/rules/s16-reqtimeout-defaults.ts";
import { S17 } from "../../../harness/rules/s17-substitute-line-length.ts";
import { evidence, findingsOf, linesOf, records } from "./rule-harness.ts";

const load = (...ids: string[]) => ids.map((id) => `LoadModule ${id}_module modules/mod_${id}.so\n`).join("");

describe("S10 proxy-scgi-pathinfo", () => {
  const scgi = `${load("proxy", "proxy_scgi", "setenvif", "env")}ProxyPass /scgi/ scgi://127.0.0.1:4000/\nProxyPass /web/ http://127.0.0.1:8080/\n`;

  it("finds ProxyPass to scgi:// unless SetEnvIf sets proxy-scgi-pathinfo in server context", () => {
    expect(linesOf(S10, scgi)).toEqual([{ line: 5, severity: "behaviour" }]);
    expect(linesOf(S10, `${scgi}SetEnvIf Request_URI . proxy-scgi-pathinfo\n`)).toEqual([]);
  });

  it("says SetEnv is too late on 2.4", () => {
    expect(findingsOf(S10, `${scgi}SetEnv proxy-scgi-pathinfo 1\n`)[0]!.message).toContain("too late");
  });

  it("claims an SCGI environment dump that lost PATH_INFO, not one that changed otherwise", () => {
    const dump = { field: "body", baseline: "PATH_INFO=/app\nQUERY_STRING=\nSCRIPT_NAME=/scgi\n", candidate: "QUERY_STRING=\nSCRIPT_NAME=/scgi/app\n" };
    expect(S10.recognise!(evidence(dump))).not.toBeNull();
    expect(S10.recognise!(evidence({ ...dump, candidate: "QUERY_STRING=x\nSCRIPT_NAME=/scgi/app\n" }))).toBeNull();
  });
});

describe("S11 DavLockDB", () => {
  it("finds each DavLockDB and says to delete its files, with no recognise face", () => {
    expect(findingsOf(S11, `${load("dav", "dav_fs")}DavLockDB /var/lock/DavLock\n`).map((f) => [f.line, f.fix])).toEqual([[3, "rm -f /var/lock/DavLock*  (with the server stopped, before starting 2.4)"]]);
    expect(S11.recognise).toBeUndefined();
  });
});

describe("S12 .xhtml titles", () => {
  it("finds IndexOptions with ScanHTMLTitles only", () => {
    expect(linesOf(S12, `${load("autoindex")}IndexOptions FancyIndexing\nIndexOptions +ScanHTMLTitles\n`)).toEqual([{ line: 3, severity: "expected" }]);
  });

  it("claims two listings with an .xhtml entry", () => {
    const listing = (title: string) => `<title>Index of /list</title><a href="page.xhtml">page.xhtml</a> ${title}`;
    expect(S12.recognise!(evidence({ field: "body", baseline: listing(""), candidate: listing("Xhtml Page Title") }))).not.toBeNull();
    expect(S12.recognise!(evidence({ field: "body", baseline: "<h1>a</h1>", candidate: listing("Xhtml Page Title") }))).toBeNull();
  });
});

describe("S13 mod_deflate on tiny bodies", () => {
  it("finds the lines that put DEFLATE in the chain", () => {
    expect(linesOf(S13, `${load("filter", "deflate")}AddOutputFilterByType DEFLATE text/plain\nSetOutputFilter INCLUDES\nAddOutputFilter INCLUDES;DEFLATE .shtml\n`)).toEqual([
      { line: 3, severity: "expected" },
      { line: 5, severity: "expected" },
    ]);
  });

  it("claims gzip gone, Vary gone and a length of 68 bytes or less on 2.4 (fixtures case g2)", () => {
    expect(S13.recognise!(evidence({ field: "header:content-encoding", baseline: "gzip", candidate: null }))).not.toBeNull();
    expect(S13.recognise!(evidence({ field: "header:vary", baseline: "Accept-Encoding", candidate: null }))).not.toBeNull();
    expect(S13.recognise!(evidence({ field: "header:content-length", baseline: "40", candidate: "20" }))).not.toBeNull();
    expect(S13.recognise!(evidence({ field: "header:content-length", baseline: "40", candidate: "2161" }))).toBeNull();
    expect(S13.recognise!(evidence({ field: "header:content-encoding", baseline: "gzip", candidate: null, status: { baseline: 200, candidate: 404 } }))).toBeNull();
  });
});

describe("S16 mod_reqtimeout defaults", () => {
  it("finds the LoadModule of mod_reqtimeout when no RequestReadTimeout is set", () => {
    expect(linesOf(S16, `${load("mime", "reqtimeout")}`)).toEqual([{ line: 2, severity: "behaviour" }]);
    expect(linesOf(S16, `${load("reqtimeout")}RequestReadTimeout header=5 body=5\n`)).toEqual([]);
    expect(linesOf(S16, `${load("mime")}`)).toEqual([]);
  });

  it("claims a 408 on 2.4 only", () => {
    const timedOut = records("2.4", "[Sat Nov 21 22:50:01.000000 2026] [reqtimeout:info] [pid 9:tid 9] [client 127.0.0.1:4000] AH01382: Request header read timeout");
    const slow = { field: "status", baseline: "200", candidate: "408", status: { baseline: 200, candidate: 408 }, log: { baseline: [], candidate: timedOut } };
    expect(S16.recognise!(evidence(slow))).not.toBeNull();
    expect(S16.recognise!(evidence({ ...slow, status: { baseline: 408, candidate: 408 } }))).toBeNull();
  });
});

describe("S17 mod_substitute line length", () => {
  it("finds the first Substitute of each section without SubstituteMaxLineLength", () => {
    const text = `${load("substitute")}<Location /a/>\n    Substitute s/a/b/\n    Substitute s/c/d/\n</Location>\n<Location /b/>\n    Substitute s/a/b/\n    SubstituteMaxLineLength 2m\n</Location>\n`;
    expect(linesOf(S17, text)).toEqual([{ line: 3, severity: "behaviour" }]);
    expect(linesOf(S17, `${text}SubstituteMaxLineLength 5m\n`)).toEqual([]);
  });

  it("claims AH01328 on the request", () => {
    const log = records("2.4", "[Sat Nov 21 22:50:01.000000 2026] [substitute:error] [pid 9:tid 9] [client 127.0.0.1:4000] AH01328: Line too long, URI /sub/longline.txt");
    expect(S17.recognise!(evidence({ field: "status", status: { baseline: 200, candidate: 500 }, log: { baseline: [], candidate: log } }))).not.toBeNull();
    expect(S17.recognise!(evidence({ field: "status", status: { baseline: 200, candidate: 500 } }))).toBeNull();
  });
});

describe("B1 config.nice", () => {
  it("claims only the exec output of the configure lines", () => {
    expect(B1.recognise!(evidence({ field: "exec", baseline: 'exit 0\n"./configure" \\\n"--enable-mods-shared=all"', candidate: 'exit 0\n"./configure" \\\n"--enable-mods-shared=reallyall"' }))).not.toBeNull();
    expect(B1.recognise!(evidence({ field: "exec", baseline: "exit 0\n1", candidate: "exit 1\n" }))).toBeNull();
    expect(B1.detect).toBeUndefined();
  });
});
