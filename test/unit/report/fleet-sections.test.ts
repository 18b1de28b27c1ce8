// The fleet sections of the HTML and Markdown reports (html-report.ts renderFleet, markdown-report.ts
// fleetSection): each config and each cause's configs link to the config's details, whose anchor exists.
import { describe, expect, it } from "vitest";
import { fleetReport } from "../../../harness/fleet/fleet-report.ts";
import { renderHtmlReport } from "../../../harness/report/html-report.ts";
import { renderMarkdownReport } from "../../../harness/report/markdown-report.ts";
import type { Report } from "../../../harness/report/report-model.ts";
import { sampleReport, sampleReportWithSecurity } from "../../fixtures/reports/sample-report.ts";
import { fleetFixture, manifestOf, SIDES } from "../fleet/fleet-blobs.ts";

const fixture = fleetFixture(sampleReportWithSecurity().scenarios, 1, { copy: true });
const report: Report = fleetReport({ manifest: manifestOf(fixture, 1), sides: SIDES, entries: fixture.entries, durationMs: 42_000, engines: null, toolVersion: "0.1.0" });
const IDS = ["site-1", "site-2", "site-3", "site-4", "site-5", "site-6", "site-copy"];

function section(text: string, from: string, to: string): string {
  const start = text.indexOf(from);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = text.indexOf(to, start);
  return text.slice(start, end < 0 ? undefined : end);
}

describe("the HTML report of a fleet", () => {
  const html = renderHtmlReport(report);
  const fleet = section(html, '<section class="fleet">', "</section>");

  it("has a row per config, in the fleet's order, linking its path to the config's details", () => {
    const rows = [...fleet.matchAll(/<tr data-config="([^"]+)" data-verdict="([^"]+)"><td><a href="#scenario-([^"]+)"><code>([^<]+)<\/code><\/a><\/td>/g)].map((m) => [m[1], m[2], m[3], m[4]]);
    expect(rows).toEqual(report.fleet!.configs.map((c) => [c.id, c.verdict, c.id, c.path]));
    expect(rows.map((r) => r[0])).toEqual(IDS);
  });

  it("links every config it names to a details element that exists", () => {
    const targets = [...fleet.matchAll(/href="#scenario-([^"]+)"/g)].map((m) => m[1]!);
    expect(new Set(targets)).toEqual(new Set(IDS));
    for (const id of targets) expect(html).toContain(`<details class="scenario" id="scenario-${id}"`);
  });

  it("lists each cause with its count of configs, linked, and marks the copy as the same tree as its original", () => {
    expect(fleet).toContain('<tr data-cause="A7" data-configs="2">');
    expect(fleet).toMatch(/<b>2 configs<\/b>: <a href="#scenario-site-1"><code>fleet\/site-1<\/code><\/a>, <a href="#scenario-site-copy"><code>fleet\/site-copy<\/code><\/a>/);
    expect(fleet).toMatch(/<tr data-config="site-copy"[^]*?<td>same tree as <a href="#scenario-site-1"><code>fleet\/site-1<\/code><\/a><\/td>/);
    expect(fleet).toContain("7 configs (1 the same tree as another, run once); inputs <code>");
  });

  it("has no fleet section for a run that is not a fleet's", () => {
    expect(renderHtmlReport(sampleReport)).not.toContain('<section class="fleet">');
  });
});

describe("the Markdown report of a fleet", () => {
  const markdown = renderMarkdownReport(report);
  const fleet = section(markdown, "### Fleet", "\n### ");

  it("links each config to its row of the overview table, whose anchor exists there", () => {
    const configRows = fleet.split("\n").filter((line) => line.startsWith("| [`fleet/"));
    expect(configRows.map((line) => /^\| \[`([^`]+)`\]\(#config-([^)]+)\)/.exec(line)!.slice(1))).toEqual(report.fleet!.configs.map((c) => [c.path, c.id]));
    const targets = new Set([...fleet.matchAll(/\(#config-([^)]+)\)/g)].map((m) => m[1]!));
    expect(targets).toEqual(new Set(IDS));
    const anchored = markdown.split("\n").filter((line) => line.includes('<a id="config-'));
    for (const id of targets) expect(anchored.filter((line) => line.startsWith(`| <a id="config-${id}"></a>\`${id}\` `))).toHaveLength(1);
  });

  it("lists each cause with its configs, and the copy's original in its own column", () => {
    expect(fleet).toContain("| security (behaviour) | `A7` Satisfy Any with Require: 2.4 grants what 2.2 asked a password for | **2 configs**: [`fleet/site-1`](#config-site-1), [`fleet/site-copy`](#config-site-copy) |");
    expect(fleet).toContain("| [`fleet/site-copy`](#config-site-copy) | same | A7 security (behaviour) | [`fleet/site-1`](#config-site-1) |");
  });

  it("anchors no overview row of a run that is not a fleet's", () => {
    expect(renderMarkdownReport(sampleReport)).not.toContain('<a id="config-');
  });
});
