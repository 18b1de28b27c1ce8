import { describe, expect, it } from "vitest";
import { E1 } from "../../../harness/rules/e1-default-type.ts";
import { evidence, findingsOf, linesOf, records, serverEvidence } from "./rule-harness.ts";

describe("E1 DefaultType", () => {
  it("finds a DefaultType with a type as behaviour and DefaultType none as deprecated, at their lines", () => {
    expect(linesOf(E1, "ServerName x\nDefaultType text/plain\n<Directory /srv>\n    DefaultType none\n</Directory>\n")).toEqual([
      { line: 2, severity: "behaviour" },
      { line: 4, severity: "deprecated" },
    ]);
    expect(findingsOf(E1, "DefaultType text/plain\n")[0]!.fix).toContain("AddType text/plain");
  });

  it("finds nothing in a tree without DefaultType, or with it only in a 2.2 branch", () => {
    expect(linesOf(E1, "ServerName x\n")).toEqual([]);
    expect(linesOf(E1, "LoadModule version_module modules/mod_version.so\n<IfVersion < 2.3>\n    DefaultType text/plain\n</IfVersion>\n")).toEqual([]);
  });

  it("claims AH00117 with the line and file it names", () => {
    const log = records("2.4", "[Sat Nov 21 22:41:24.568687 2026] [core:warn] [pid 1:tid 1] AH00117: Ignoring deprecated use of DefaultType in line 24 of /usr/local/apache2/conf/httpd.conf.");
    expect(E1.recognise!({ ...serverEvidence("startupLog", log), candidate: "AH00117" })).toMatchObject({ lines: [{ file: "/usr/local/apache2/conf/httpd.conf", line: 24 }], severity: "deprecated" });
    expect(E1.recognise!(serverEvidence("startupLog", records("2.4", "AH00548: NameVirtualHost has no effect and will be removed in the next release /x.conf:3")))).toBeNull();
  });

  it("claims a Content-Type 2.2 sent and 2.4 does not, with or without a DefaultType line (2.2's default is text/plain), unless every DefaultType is none", () => {
    const missing = { field: "header:content-type", baseline: "text/plain", candidate: null };
    expect(E1.recognise!(evidence(missing))?.summary).toContain("text/plain");
    expect(E1.recognise!(evidence({ ...missing, findings: findingsOf(E1, "DefaultType text/plain\n") }))).not.toBeNull();
    expect(E1.recognise!(evidence({ ...missing, findings: findingsOf(E1, "DefaultType none\n") }))).toBeNull();
    // A tree lint found other things in, and no DefaultType: 2.2's built-in text/plain.
    expect(E1.recognise!(evidence({ ...missing, findings: findingsOf(E1, "DefaultType none\n").map((f) => ({ ...f, rule: "M2" })) }))).not.toBeNull();
    expect(E1.recognise!(evidence({ ...missing, candidate: "text/html" }))).toBeNull();
    expect(E1.recognise!(evidence({ ...missing, status: { baseline: 200, candidate: 404 } }))).toBeNull();
  });

  it("does not claim a start-up or start difference that is not its warning, though 2.4's log holds AH00117", () => {
    // https-origin-proxy: 2.4 refused SSLMutex; the startupLog difference was 2.2's own certificate warning.
    const log = records("2.4", "[Sat Nov 21 22:41:24.568687 2026] [core:warn] [pid 1:tid 1] AH00117: Ignoring deprecated use of DefaultType in line 24 of /usr/local/apache2/conf/httpd.conf.");
    const certificate = { ...serverEvidence("startupLog", log), baseline: "warn RSA server certificate CommonName (CN) `server' does NOT match server name!?", candidate: null };
    expect(E1.recognise!(certificate)).toBeNull();
    expect(E1.recognise!({ ...serverEvidence("started", log), baseline: "true", candidate: "false" })).toBeNull();
  });
});
