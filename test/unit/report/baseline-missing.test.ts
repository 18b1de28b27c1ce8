// When the baseline did not run, every human-facing report says so before anything else.
import { describe, expect, it } from "vitest";
import { baselineMissingNotice } from "../../../harness/report/baseline-missing.ts";
import { renderHtmlReport } from "../../../harness/report/html-report.ts";
import { renderMarkdownReport } from "../../../harness/report/markdown-report.ts";
import type { Report } from "../../../harness/report/report-model.ts";
import { renderTerminalTable } from "../../../harness/report/terminal-table.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";

const missing: Report = {
  ...sampleReport,
  baseline: { ...sampleReport.baseline, version: null, missing: true },
  sides: sampleReport.sides.map((side) => (side.role === "baseline" ? { ...side, version: null, missing: true } : side)),
};

describe("the baseline-missing notice", () => {
  it("is there only when the baseline did not run", () => {
    expect(baselineMissingNotice(sampleReport)).toBeNull();
    expect(baselineMissingNotice(missing)).toMatch(/^Baseline missing: httpd:2\.2\.34 did not run, so nothing was compared/);
  });

  it("opens the terminal table and the Markdown report, and heads the HTML page", () => {
    const notice = baselineMissingNotice(missing)!;
    expect(renderTerminalTable(missing, { color: false }).split("\n")[0]).toBe(notice);
    const markdown = renderMarkdownReport(missing).split("\n");
    expect(markdown.slice(0, 4)).toContain(`> **${notice}**`);
    const html = renderHtmlReport(missing);
    expect(html.indexOf("data-baseline-missing")).toBeGreaterThan(-1);
    expect(html.indexOf("data-baseline-missing")).toBeLessThan(html.indexOf('class="scenario'));
    expect(renderTerminalTable(sampleReport, { color: false })).not.toContain("Baseline missing");
  });
});
