// A version matrix in the human-facing reports: one column per candidate (terminal, Markdown, HTML), one JUnit
// test case per scenario and candidate, each with the candidate's own verdict.
import { describe, expect, it } from "vitest";
import { judgeRun } from "../../../harness/judge/judge-run.ts";
import { buildReport } from "../../../harness/report/build-report.ts";
import { renderHtmlReport } from "../../../harness/report/html-report.ts";
import { renderJunitReport } from "../../../harness/report/junit-report.ts";
import { renderMarkdownReport } from "../../../harness/report/markdown-report.ts";
import { renderTerminalTable } from "../../../harness/report/terminal-table.ts";
import { matrixResult } from "../../fixtures/observations/matrix.ts";

const report = buildReport(judgeRun(matrixResult()), "0.1.0");

describe("a version matrix, side by side", () => {
  it("terminal: one column per candidate with what it answered and its own verdict, then each candidate's tally", () => {
    const text = renderTerminalTable(report, { color: false });
    expect(text).toMatch(/^httpd:2\.2\.34 \(2\.2\.34\) -> 2\.4\.62 \[upstream\] = httpd:2\.4\.62 \(2\.4\.62\), debian \[distribution\] = httpd:2\.4\.62 \(2\.4\.62\)$/m);
    expect(text).toMatch(/│ scenario\s+│ seed │ baseline │ 2\.4\.62\s+│ debian \(2\.4\.62\)\s+│ verdict\s+│/);
    expect(text).toMatch(/│ etag-500\s+│ D3\s+│ 200\s+│ 200 expected-change │ 500 regression\s+│ regression\s+│/);
    expect(text).toMatch(/│ etag-alike\s+│ D3\s+│ 200\s+│ 200 expected-change │ 200 expected-change │ expected-change │/);
    expect(text).toMatch(/^ {2}debian: 1 regression, 1 expected-change$/m);
  });

  it("Markdown: one column per candidate, the candidates listed, each further candidate's differences under its label", () => {
    const text = renderMarkdownReport(report);
    expect(text).toContain("| scenario | seed | baseline | 2.4.62 | debian (2.4.62) | verdict |\n|---|---|---|---|---|---|");
    expect(text).toMatch(/^\| `etag-500` .* \| D3 \| 200 \| 200 · expected-change \| 500 · \*\*regression\*\* \| \*\*regression\*\* \|$/m);
    expect(text).toMatch(/^- \*\*debian\*\* \(distribution\): `httpd:2\.4\.62` \(2\.4\.62\): 1 \*\*regression\*\*, 1 expected-change$/m);
    expect(text).toMatch(/<details open><summary><code>etag-500<\/code> .* on debian: <b>regression<\/b>/);
  });

  it("HTML: a matrix section with a cell per scenario and candidate, and each scenario's requests per candidate", () => {
    const html = renderHtmlReport(report);
    expect(html).toContain("<section class=\"matrix\" data-matrix>");
    const cells = [...html.matchAll(/<tr data-matrix-scenario="([^"]+)">(.*?)<\/tr>/g)].map(([, id, row]) => [id, [...row!.matchAll(/data-candidate="([^"]+)" data-verdict="([^"]+)"/g)].map((m) => `${m[1]}=${m[2]}`)]);
    expect(cells).toEqual([
      ["etag-alike", ["candidate=expected-change", "candidate-2=expected-change"]],
      ["etag-500", ["candidate=expected-change", "candidate-2=regression"]],
    ]);
    expect(html).toMatch(/<table class="scenario-matrix">.*<tr data-request="file">.*data-candidate="candidate-2" data-status="500" data-class="regression"/);
    expect(html).toMatch(/<div class="image" data-side="candidate-2"><span class="label">debian · distribution<\/span>/);
  });

  it("JUnit: one test case per scenario and candidate, judged by that candidate's own verdict", () => {
    const xml = renderJunitReport(report);
    // The findings suite (the 500 no rule explains) comes first; the scenarios' suite follows.
    const cases = [...xml.matchAll(/<testcase classname="catalogue\.[^"]*" name="([^"]+)"[^>]*>([\s\S]*?)<\/testcase>/g)].map(([, name, body]) => [name!.split(":")[0], /<failure/.test(body!) ? "failure" : "passed"]);
    expect(cases).toEqual([
      ["etag-alike [2.4.62]", "passed"],
      ["etag-alike [debian]", "passed"],
      ["etag-500 [2.4.62]", "passed"],
      ["etag-500 [debian]", "failure"],
    ]);
    expect(xml).toMatch(/<testsuite name="httpd-upgrade-harness httpd:2\.2\.34 -&gt; 2\.4\.62, debian" tests="4" failures="1"/);
    expect(xml).toContain('<property name="candidate" value="debian"/>');
  });
});
