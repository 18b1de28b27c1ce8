// The reports a fleet streams are those the whole-string renderers give: each format's head rendered from the
// scenarios' outlines and its details from the whole scenarios, byte for byte, on the sample reports (every
// verdict, findings with security flags, a version matrix, none at all).
import { describe, expect, it } from "vitest";
import { renderReport, REPORT_FORMATS, reportChunks } from "../../../harness/cli/report-targets.ts";
import { scenarioOutline } from "../../../harness/fleet/scenario-outline.ts";
import { judgeRun } from "../../../harness/judge/judge-run.ts";
import { buildReport } from "../../../harness/report/build-report.ts";
import type { Report, ReportProbeCell, ReportProbes } from "../../../harness/report/report-model.ts";
import { matrixResult } from "../../fixtures/observations/matrix.ts";
import { sampleReport, sampleReportWithSecurity } from "../../fixtures/reports/sample-report.ts";

const REPORTS: Array<[string, Report]> = [
  ["the sample report", sampleReport],
  ["the sample with security findings", sampleReportWithSecurity()],
  ["a version matrix", buildReport(judgeRun(matrixResult()), "0.1.0")],
  ["no scenarios", { ...sampleReport, scenarios: [] }],
  ["a fleet's", { ...sampleReport, fleet: { inputsHash: "0".repeat(64), duplicates: 0, passed: [{ label: "fleet/README.md", reason: "not a config file" }], configs: sampleReport.scenarios.map((s) => ({ id: s.id, path: `fleet/${s.id}`, verdict: s.verdict, findings: [], sameAs: null, engine: null, durationMs: s.durationMs, error: null })) } }],
];

describe.each(REPORTS)("%s, streamed", (_name, report) => {
  const frame: Report = { ...report, scenarios: report.scenarios.map(scenarioOutline) };

  it.each(REPORT_FORMATS)("is the %s report byte for byte", (format) => {
    const streamed = [...reportChunks(frame, format, () => report.scenarios)].join("");
    expect(streamed).toBe(renderReport(report, format));
  });
});

describe("scenarioOutline", () => {
  it("keeps the verdict, findings and outcomes and drops the bulk", () => {
    const scenario = sampleReport.scenarios.find((s) => s.requests.some((r) => r.baseline?.body))!;
    const outline = scenarioOutline(scenario);
    const causes = (findings: Report["scenarios"][number]["findings"]) => findings.map(({ differences, ...rest }) => ({ ...rest, classes: differences.map((d) => d.class) }));
    expect([outline.verdict, causes(outline.findings), outline.expectations]).toEqual([scenario.verdict, causes(scenario.findings), scenario.expectations]);
    expect(outline.requests.map((r) => [r.name, r.baseline?.status, r.candidate?.status])).toEqual(scenario.requests.map((r) => [r.name, r.baseline?.status, r.candidate?.status]));
    expect(outline.requests.every((r) => r.baseline?.body == null && r.differences.length === 0)).toBe(true);
    expect(JSON.stringify(outline).length).toBeLessThan(JSON.stringify(scenario).length / 2);
  });

  it("keeps a probe run's cells as their count and a finding's differences as their classes, and says so when a head reads more", () => {
    const scenario = sampleReport.scenarios.find((s) => s.findings.some((f) => f.differences.length > 0))!;
    const cell: ReportProbeCell = { request: "r1", cell: "c1", vhost: "v", region: "/", client: "outsider", credentials: "none", user: null, method: "GET", path: "/", class: "equal", reason: null, proven: true, baseline: null, candidate: null };
    const probes: ReportProbes = { classes: { ...scenario.probes?.classes, equal: 2 } as ReportProbes["classes"], proven: 2, cells: [cell, { ...cell, cell: "c2" }] };
    const outline = scenarioOutline({ ...scenario, probes });
    expect(outline.probes?.cells.length).toBe(2);
    expect([outline.probes?.classes, outline.probes?.proven]).toEqual([probes.classes, 2]);
    expect(() => outline.probes?.cells[0]?.class).toThrow(/outline keeps no class of a probe cell/);
    const finding = scenario.findings.find((f) => f.differences.length > 0)!;
    const outlined = outline.findings[scenario.findings.indexOf(finding)]!;
    expect(outlined.differences.map((d) => d.class)).toEqual(finding.differences.map((d) => d.class));
    expect(() => outlined.differences[0]!.field).toThrow(/outline keeps no field of a finding's difference/);
    expect({ ...outlined, differences: [] }).toEqual({ ...finding, differences: [] });
  });
});
