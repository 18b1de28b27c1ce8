import { describe, expect, it } from "vitest";
import { N1 } from "../../../harness/rules/n1-max-requests-per-child.ts";
import { evidence, findingsOf, records, serverEvidence } from "./rule-harness.ts";

describe("N1 MaxRequestsPerChild", () => {
  it("finds the old name as deprecated with the new name and the same value as the fix", () => {
    expect(findingsOf(N1, "ServerName x\nMaxRequestsPerChild 1000\n").map((f) => [f.line, f.severity, f.fix])).toEqual([[2, "deprecated", "MaxConnectionsPerChild 1000"]]);
    expect(findingsOf(N1, "MaxConnectionsPerChild 1000\n")).toEqual([]);
  });

  it("finds the old name in a section only 2.2's MPM opens (read as the tree runs today)", () => {
    expect(findingsOf(N1, "<IfModule prefork.c>\n    MaxRequestsPerChild 1000\n</IfModule>\n").map((f) => f.line)).toEqual([2]);
  });

  it("claims AH00545 in an exec's stdout (httpd -t -e info) or in the log, not AH00521", () => {
    const exec = (candidate: string) => evidence({ field: "exec", baseline: "exit 0\nSyntax OK\n", candidate });
    expect(N1.recognise!(exec("exit 0\n[core:info] [pid 9:tid 9] AH00545: MaxRequestsPerChild is deprecated, use MaxConnectionsPerChild instead.\nSyntax OK\n"))).not.toBeNull();
    expect(N1.recognise!(exec("exit 0\n[mpm_event:info] [pid 9:tid 9] AH00521: MaxClients is deprecated, use MaxRequestWorkers instead.\nSyntax OK\n"))).toBeNull();
    expect(N1.recognise!(serverEvidence("startupLog", records("2.4", "[Sat Nov 21 22:41:24.568687 2026] [core:info] [pid 1:tid 1] AH00545: MaxRequestsPerChild is deprecated, use MaxConnectionsPerChild instead.")))).not.toBeNull();
  });
});
