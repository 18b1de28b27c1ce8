import { describe, expect, it } from "vitest";
import { E2 } from "../../../harness/rules/e2-name-virtual-host.ts";
import { linesOf, records, serverEvidence } from "./rule-harness.ts";

const vhosts = "<VirtualHost *:80>\n    ServerName a.example\n</VirtualHost>\n<VirtualHost *:80>\n    ServerName b.example\n</VirtualHost>\n";

describe("E2 NameVirtualHost", () => {
  it("finds each NameVirtualHost line as deprecated", () => {
    expect(linesOf(E2, `ServerName x\nNameVirtualHost *:80\n${vhosts}`)).toEqual([{ line: 2, severity: "deprecated" }]);
  });

  it("finds the second vhost on an address no NameVirtualHost names as behaviour: 2.2 served the first", () => {
    expect(linesOf(E2, vhosts)).toEqual([{ line: 4, severity: "behaviour" }]);
    expect(linesOf(E2, "<VirtualHost *:80>\n</VirtualHost>\n<VirtualHost *:8080>\n</VirtualHost>\n")).toEqual([]);
  });

  it("finds no 2.2 overlap in a tree written for 2.4 (it loads 2.4's MPM): its shared *:80 vhosts are meant name-based", () => {
    expect(linesOf(E2, `LoadModule mpm_event_module modules/mod_mpm_event.so\n${vhosts}`)).toEqual([]);
  });

  it("claims AH00548 with the file and line it names", () => {
    const log = records("2.4", "AH00548: NameVirtualHost has no effect and will be removed in the next release /usr/local/apache2/conf/httpd.conf:24");
    expect(E2.recognise!(serverEvidence("configTest", log))).toMatchObject({ lines: [{ file: "/usr/local/apache2/conf/httpd.conf", line: 24 }] });
  });

  it("claims 2.2's overlap warning gone on 2.4 as behaviour, and nothing on a request", () => {
    const overlap = records("2.2", "[Sat Nov 21 22:41:17 2026] [warn] _default_ VirtualHost overlap on port 80, the first has precedence");
    expect(E2.recognise!(serverEvidence("startupLog", [], overlap))?.severity).toBe("behaviour");
    expect(E2.recognise!(serverEvidence("startupLog", [], []))).toBeNull();
    expect(E2.recognise!({ ...serverEvidence("status", records("2.4", "AH00548: NameVirtualHost has no effect and will be removed in the next release /x:1")) })).toBeNull();
  });
});
