import { describe, expect, it } from "vitest";
import { renderProgressLine, renderTerminalTable } from "../../../harness/report/terminal-table.ts";
import { sampleReport, sampleReportWithSecurity } from "../../fixtures/reports/sample-report.ts";
import { probeReport } from "./probe-report.ts";

const ANSI = /\u001b\[[0-9;]*m/;

describe("renderTerminalTable", () => {
  it("prints the findings, one row per scenario and a short summary, without colour when asked", () => {
    const text = renderTerminalTable(sampleReport, { color: false });
    expect(text).not.toMatch(ANSI);
    expect(text).toMatchInlineSnapshot(`
      "httpd:2.2.34 (2.2.34) -> httpd-upgrade-harness/httpd-2.4:2.4.62 (2.4.62)
      Findings, worst first (1 finding fails the run):
        UNEXPLAINED  unexplained differences no rule explains (q6-satisfy-any-ip-or-user) ✗
                     1 request: GET /private/ · status 200 → 401 on GET /private/
        2 findings predicted (by the scenarios or known differences): X3, D5
        Ignored by the ignore file: 1 (E2 1)

      ┌────────────────────────────────┬────────┬──────────────────┬────────────────────┬─────────────────┐
      │ scenario                       │ seed   │ baseline         │ candidate          │ verdict         │
      ├────────────────────────────────┼────────┼──────────────────┼────────────────────┼─────────────────┤
      │ a6-server-status-denied        │ A6, T1 │ 403              │ 403                │ same            │
      ├────────────────────────────────┼────────┼──────────────────┼────────────────────┼─────────────────┤
      │ d5-proxy-expired-cert          │ D5, T2 │ 200              │ 500                │ expected-change │
      ├────────────────────────────────┼────────┼──────────────────┼────────────────────┼─────────────────┤
      │ x3-order-without-access-compat │ X3, M2 │ 200              │ config test failed │ expected-change │
      ├────────────────────────────────┼────────┼──────────────────┼────────────────────┼─────────────────┤
      │ q6-satisfy-any-ip-or-user      │ Q6     │ 200, 404         │ 401, 404           │ regression      │
      ├────────────────────────────────┼────────┼──────────────────┼────────────────────┼─────────────────┤
      │ d4-proxy-wrong-name-cert       │ D4, T2 │ 200              │ no response        │ error           │
      ├────────────────────────────────┼────────┼──────────────────┼────────────────────┼─────────────────┤
      │ e2-namevirtualhost             │ E2     │ baseline missing │ 200                │ same            │
      └────────────────────────────────┴────────┴──────────────────┴────────────────────┴─────────────────┘

      6 scenarios in 41.8 s: 1 regression, 1 error, 2 expected-change, 0 noise, 2 same
      Behave as the guide says: 3 of 6; guide is wrong in 1
      Differ between versions: 3 of 6 (2 predicted, 1 not)
      Rows of the upgrade guide exercised: 8. As the guide says: 6. Versions differ: 5. Guide wrong: 2
      Where the guide is wrong (row: what the real servers do; scenarios in the report):
        D5   guide says 502; 2.4 answers 500
        T2   guide says 502; 2.4 answers 500
      Regressions: 1 (q6-satisfy-any-ip-or-user)
      Errors: 1 (d4-proxy-wrong-name-cert)
      "
    `);
  });

  it("colours verdicts when asked, and the text stays the same without the escapes", () => {
    const coloured = renderTerminalTable(sampleReport, { color: true });
    expect(coloured).toMatch(ANSI);
    expect(coloured).toContain("\u001b[31mregression\u001b[39m");
    expect(coloured.replace(new RegExp(ANSI.source, "g"), "")).toBe(renderTerminalTable(sampleReport, { color: false }));
  });

  it("says when there are no regressions", () => {
    const calm = {
      ...sampleReport,
      scenarios: sampleReport.scenarios.filter((s) => s.verdict !== "regression"),
      summary: { ...sampleReport.summary, regressions: 0 },
    };
    expect(renderTerminalTable(calm, { color: false })).toContain("\nRegressions: none\n");
  });
});

describe("renderProgressLine", () => {
  it("shows the count, the percentage, the scenario and its verdict", () => {
    expect(renderProgressLine(3, 12, "a6-server-status-denied", "same")).toBe("[ 3/12]  25% a6-server-status-denied  same");
    expect(renderProgressLine(12, 12, "q6", "regression")).toBe("[12/12] 100% q6  regression");
    expect(renderProgressLine(0, 0, "x", "error")).toBe("[0/0] 100% x  error");
  });

  it("names the engine that ran the scenario in a run over several", () => {
    expect(renderProgressLine(3, 12, "q6", "same", undefined, "tcp://198.19.7.2:2375")).toBe("[ 3/12]  25% q6  same  on tcp://198.19.7.2:2375");
  });

  it("colours the verdict on request", () => {
    expect(renderProgressLine(1, 2, "q6", "regression", { color: true })).toMatch(ANSI);
  });
});

describe("renderTerminalTable, findings", () => {
  it("leads with the findings, worst first, a security change flagged, before the scenario table", () => {
    const text = renderTerminalTable(sampleReportWithSecurity(), { color: false });
    const head = text.slice(0, text.indexOf("┌"));
    expect(head.split("\n")).toEqual([
      "httpd:2.2.34 (2.2.34) -> httpd-upgrade-harness/httpd-2.4:2.4.62 (2.4.62)",
      "Findings, worst first (3 findings fail the run):",
      "  BLOCKING              R9 mutex and lock directives (AcceptMutex, LockFile, RewriteLock, SSLMutex) are replaced by Mutex (x3-order-without-access-compat) ✗",
      "                        conf/httpd.conf:50 LockFile logs/accept.lock · found by lint; 2.4 stops at its first error · conf/httpd.conf:50: LockFile is gone in 2.4",
      "  SECURITY (BEHAVIOUR)  A7 Satisfy Any with Require: 2.4 grants what 2.2 asked a password for (a6-server-status-denied) ✗",
      "                        sites-enabled/<admin>.conf:12 Satisfy any · 4 requests: GET /admin/, GET /admin/a, GET /admin/b, … · status 401 → 200 on GET /admin/",
      "  UNEXPLAINED           unexplained differences no rule explains (q6-satisfy-any-ip-or-user) ✗",
      "                        1 request: GET /private/ · status 200 → 401 on GET /private/",
      "  2 findings predicted (by the scenarios or known differences): X3, D5",
      "  Ignored by the ignore file: 1 (E2 1)",
      "",
      "",
    ]);
  });

  it("paints a security finding apart from the rest", () => {
    const coloured = renderTerminalTable(sampleReportWithSecurity(), { color: true });
    expect(coloured).toContain("\u001b[1m\u001b[35mSECURITY (BEHAVIOUR)\u001b[39m\u001b[22m");
    expect(coloured.replace(new RegExp(ANSI.source, "g"), "")).toBe(renderTerminalTable(sampleReportWithSecurity(), { color: false }));
  });

  it("says nothing about findings when a run has none", () => {
    const none = structuredClone(sampleReport);
    for (const s of none.scenarios) s.findings = [];
    none.summary.ignored = { byRule: {} };
    expect(renderTerminalTable(none, { color: false })).not.toContain("Findings");
  });
});

describe("renderTerminalTable, a probe run", () => {
  const strip = (text: string) => text.replace(new RegExp(ANSI.source, "g"), "");

  it("sums a probe-heavy scenario up per outcome class instead of a status per probe", () => {
    const text = renderTerminalTable(probeReport(), { color: false });
    const row = text.slice(text.indexOf("│ p1-probe-config"), text.indexOf("└"));
    expect(row.split("\n").map((line) => line.replace(/\s+/g, " ").trim())).toEqual([
      "│ p1-probe-config │ │ 9 requests │ 11 cells: 2 equal, 2 widened (security), │ regression │",
      "│ │ │ │ 1 source-exposed (security), 1 narrowed, │ │",
      "│ │ │ │ 1 changed, 1 vacuous, 2 unprobed, 1 accepted │ │",
      "",
    ]);
    // The statuses of the probes (403, 200, 401, ...) are nowhere in the row.
    expect(row).not.toMatch(/\b(403|401|500)\b/);
  });

  it("keeps the other scenarios' rows as they were", () => {
    const text = renderTerminalTable(probeReport(), { color: false });
    expect(text).toContain("│ q6-satisfy-any-ip-or-user      │ Q6     │ 200, 404         │ 401, 404");
  });

  it("paints the security classes when colour is on, and only them", () => {
    const coloured = renderTerminalTable(probeReport(), { color: true });
    expect(coloured).toContain("\u001b[1m\u001b[35m2 widened (security)\u001b[39m\u001b[22m");
    expect(coloured).toContain("\u001b[1m\u001b[35m1 source-exposed (security)\u001b[39m\u001b[22m");
    expect(coloured).toContain(" 1 narrowed,");
    expect(strip(coloured)).toBe(renderTerminalTable(probeReport(), { color: false }));
  });

  it("gives the class summary to the first candidate of a version matrix, and a count to the others", () => {
    const report = probeReport();
    const p1 = report.scenarios.at(-1)!;
    const entry = (side: string) => ({ side, label: side, image: `img-${side}`, version: "2.4.62", verdict: "regression" as const, expectations: p1.expectations.candidate, configTest: p1.configTest.candidate, differences: [], requests: p1.requests.map((r) => ({ name: r.name, outcome: "response" as const, status: 200, differences: [] })) });
    const matrix = { ...report, candidates: [report.candidates[0]!, { ...report.candidates[0]!, side: "candidate-2", label: "candidate-2" }], scenarios: [{ ...p1, matrix: [entry("candidate"), entry("candidate-2")] }] };
    const text = renderTerminalTable(matrix, { color: false });
    const row = text.slice(text.indexOf("│ p1-probe-config"), text.indexOf("└")).replace(/\s+/g, " ");
    expect(row).toContain("│ 9 requests │ 11 cells: 2 equal, 2 widened (security),");
    expect(row).toContain("│ 9 requests regression │");
    expect(row).not.toContain("200, 200");
  });
});
