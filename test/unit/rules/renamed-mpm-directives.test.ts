import { describe, expect, it } from "vitest";
import { N1 } from "../../../harness/rules/n1-max-requests-per-child.ts";
import { N2 } from "../../../harness/rules/n2-max-clients.ts";
import { evidence, findingsOf, records, serverEvidence } from "./rule-harness.ts";

describe("N1 MaxRequestsPerChild and N2 MaxClients", () => {
  it("find the old names as deprecated with the new name and the same value as the fix", () => {
    const text = "ServerName x\nMaxRequestsPerChild 1000\n<IfModule prefork.c>\n    MaxClients 150\n</IfModule>\n";
    expect(findingsOf(N1, text).map((f) => [f.line, f.severity, f.fix])).toEqual([[2, "deprecated", "MaxConnectionsPerChild 1000"]]);
    expect(findingsOf(N2, text).map((f) => [f.line, f.severity, f.fix])).toEqual([[4, "deprecated", "MaxRequestWorkers 150"]]);
    expect(findingsOf(N1, "MaxConnectionsPerChild 1000\n")).toEqual([]);
  });

  it("claim the deprecation note in an exec's stdout (httpd -t -e info) or in the log", () => {
    const exec = (candidate: string) => evidence({ field: "exec", baseline: "exit 0\nSyntax OK\n", candidate });
    expect(N2.recognise!(exec("exit 0\n[mpm_event:info] [pid 9:tid 9] AH00521: MaxClients is deprecated, use MaxRequestWorkers instead.\nSyntax OK\n"))).not.toBeNull();
    expect(N1.recognise!(exec("exit 0\n[core:info] [pid 9:tid 9] AH00545: MaxRequestsPerChild is deprecated, use MaxConnectionsPerChild instead.\nSyntax OK\n"))).not.toBeNull();
    expect(N1.recognise!(exec("exit 0\n[mpm_event:info] [pid 9:tid 9] AH00521: MaxClients is deprecated, use MaxRequestWorkers instead.\nSyntax OK\n"))).toBeNull();
    expect(N1.recognise!(serverEvidence("startupLog", records("2.4", "[Sat Nov 21 22:41:24.568687 2026] [core:info] [pid 1:tid 1] AH00545: MaxRequestsPerChild is deprecated, use MaxConnectionsPerChild instead.")))).not.toBeNull();
  });

  it("N2 claims AH10159 (a process count read as threads) as behaviour", () => {
    const log = records("2.4", "[Sat Nov 21 22:41:24.568687 2026] [mpm_event:error] [pid 1:tid 1] AH10159: server is within MinSpareThreads of MaxRequestWorkers, consider raising the MaxRequestWorkers setting");
    expect(N2.recognise!(serverEvidence("trailingLog", log))?.severity).toBe("behaviour");
    expect(N2.recognise!(serverEvidence("trailingLog", []))).toBeNull();
  });
});
