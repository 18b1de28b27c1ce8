import { describe, expect, it } from "vitest";
import { N2 } from "../../../harness/rules/n2-max-clients.ts";
import { evidence, findingsOf, records, serverEvidence } from "./rule-harness.ts";

describe("N2 MaxClients", () => {
  it("finds the old name as deprecated with the new name and the same value as the fix", () => {
    expect(findingsOf(N2, "ServerName x\n<IfModule prefork.c>\n    MaxClients 150\n</IfModule>\n").map((f) => [f.line, f.severity, f.fix])).toEqual([[3, "deprecated", "MaxRequestWorkers 150"]]);
    expect(findingsOf(N2, "MaxRequestWorkers 150\n")).toEqual([]);
  });

  it("claims AH00521 in an exec's stdout, not another note", () => {
    const exec = (candidate: string) => evidence({ field: "exec", baseline: "exit 0\nSyntax OK\n", candidate });
    expect(N2.recognise!(exec("exit 0\n[mpm_event:info] [pid 9:tid 9] AH00521: MaxClients is deprecated, use MaxRequestWorkers instead.\nSyntax OK\n"))).not.toBeNull();
    expect(N2.recognise!(exec("exit 0\n[core:info] [pid 9:tid 9] AH00545: MaxRequestsPerChild is deprecated, use MaxConnectionsPerChild instead.\nSyntax OK\n"))).toBeNull();
  });

  it("claims AH10159 (a process count read as threads) as behaviour", () => {
    const log = records("2.4", "[Sat Nov 21 22:41:24.568687 2026] [mpm_event:error] [pid 1:tid 1] AH10159: server is within MinSpareThreads of MaxRequestWorkers, consider raising the MaxRequestWorkers setting");
    expect(N2.recognise!(serverEvidence("trailingLog", log))?.severity).toBe("behaviour");
    expect(N2.recognise!(serverEvidence("trailingLog", []))).toBeNull();
  });
});
