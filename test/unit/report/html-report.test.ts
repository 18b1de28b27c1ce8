import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../../harness/report/escape-html.ts";
import { renderHtmlReport } from "../../../harness/report/html-report.ts";
import type { Report, ReportScenario } from "../../../harness/report/report-model.ts";
import { sampleReport, sampleReportWithSecurity } from "../../fixtures/reports/sample-report.ts";
import { probeReport } from "./probe-report.ts";

/** Values of one attribute over all elements that carry it, in document order. */
function attributeValues(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, "g"))].map((m) => m[1] ?? "");
}

/** The markup of the element (a <details>) that carries data-scenario-id="id". */
function scenarioMarkup(html: string, id: string): string {
  const start = html.indexOf(`data-scenario-id="${id}"`);
  const end = html.indexOf("</details>\n", start);
  return html.slice(start, end);
}

describe("escapeHtml", () => {
  it("escapes markup and quote characters and neutralises control characters", () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe(
      "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;",
    );
    expect(escapeHtml("a\u0000b\u001bc\td\ne")).toBe("a\uFFFDb\uFFFDc\td\ne");
  });
});

describe("renderHtmlReport", () => {
  const html = renderHtmlReport(sampleReport);

  it("is one self-contained document: no scripts, no external resources", () => {
    expect(html.startsWith("<!doctype html>\n")).toBe(true);
    // Only fragment links; text may mention URLs (a ProxyPass line), markup never loads one.
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|\ssrc=|\shref="(?!#)|url\(|@import/i);
  });

  it("escapes server text: the <script> in an error-log message stays text", () => {
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("File does not exist: /usr/local/apache2/htdocs/&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("escapes text that comes from scenario files, including in attributes", () => {
    const q6 = sampleReport.scenarios.find((s) => s.id === "q6-satisfy-any-ip-or-user") as ReportScenario;
    const hostile: Report = {
      ...sampleReport,
      scenarios: [{ ...q6, id: `q6"><img onerror=x>`, title: "<b>bold</b>" }],
    };
    const out = renderHtmlReport(hostile);
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<b>bold</b>");
    expect(attributeValues(out, "data-scenario-id")).toEqual(["q6&quot;&gt;&lt;img onerror=x&gt;"]);
  });

  it("has one element per scenario carrying its id and verdict", () => {
    expect(attributeValues(html, "data-scenario-id")).toEqual(sampleReport.scenarios.map((s) => s.id));
    expect(attributeValues(html, "data-verdict")).toEqual(sampleReport.scenarios.map((s) => s.verdict));
  });

  it("shows both images and versions in the header", () => {
    const header = html.slice(html.indexOf('<header class="run">'), html.indexOf("</header>"));
    expect(header).toContain('data-side="baseline"><span class="label">baseline</span><code>httpd:2.2.34</code><span class="version">2.2.34</span>');
    expect(header).toContain("<code>httpd-upgrade-harness/httpd-2.4:2.4.62</code><span class=\"version\">2.4.62</span>");
  });

  it("puts baseline and candidate of each request side by side, in that order", () => {
    const requests = [...html.matchAll(/<section class="request"[\s\S]*?<\/section>/g)].map((m) => m[0]);
    expect(requests).toHaveLength(sampleReport.scenarios.reduce((n, s) => n + s.requests.length, 0));
    for (const request of requests) {
      expect(attributeValues(request, "data-side")).toEqual(["baseline", "candidate"]);
    }
  });

  it("highlights differing values with their class and lists differences with class and seed", () => {
    const d5 = scenarioMarkup(html, "d5-proxy-expired-cert");
    expect(d5).toContain('<div data-field="status" data-class="expected-change" class="status changed"');
    const rows = [...d5.matchAll(/<tr class="difference" data-field="([^"]+)" data-class="([^"]+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((m) => [m[1], m[2]])).toEqual([
      ["status", "expected-change"],
      ["errorLog", "expected-change"],
      ["body", "expected-change"],
    ]);
    expect(rows[0]?.[3]).toContain('<span class="badge v-expected-change">expected-change</span></td><td>D5, T2</td>');
  });

  it("shows error-log lines with code, level and module, and the 2.2 line's mapped event", () => {
    const a6 = scenarioMarkup(html, "a6-server-status-denied");
    expect(a6).toContain('<span class="level">[access_compat:error]</span> <span class="code">AH01797</span>');
    expect(a6).toContain('<span class="level">[error]</span> <span class="event" title="the event this 2.2 line maps to">(AH01797)</span>');
  });

  it("adds a highlighted row for a header missing on one side", () => {
    const q6 = scenarioMarkup(html, "q6-satisfy-any-ip-or-user");
    expect(q6).toContain('<tr data-field="header:www-authenticate" data-class="regression" class="changed"');
    expect(q6).toMatch(/header:www-authenticate[^>]*><th class="mono">www-authenticate<\/th><td class="absent">absent<\/td>/);
  });

  it("shows both config tests, with the failed one highlighted", () => {
    const x3 = scenarioMarkup(html, "x3-order-without-access-compat");
    expect(x3).toContain("Invalid command &#39;Order&#39;, perhaps misspelled");
    expect(x3).toContain('<div data-field="configTest" data-class="expected-change" class="config-test changed"');
    expect(x3).toContain("config test <b>failed</b>");
  });

  it("states guide vs reality, per scenario and for the run", () => {
    expect(scenarioMarkup(html, "d5-proxy-expired-cert")).toContain('data-guide-holds="false"');
    expect(scenarioMarkup(html, "d5-proxy-expired-cert")).toContain(
      "2.4.62: request via proxy: status: expected status 502, got status 500 (scenarios/catalogue/proxy/expired-backend-cert.scenario.yaml:31:20)",
    );
    expect(html).toContain(
      '<li data-guide-wrong="d5-proxy-expired-cert"><a href="#scenario-d5-proxy-expired-cert"><code>d5-proxy-expired-cert</code></a> (D5, T2): guide says 502; 2.4 answers 500</li>',
    );
  });

  it("says why the baseline side of a candidate-only scenario is empty", () => {
    const e2 = scenarioMarkup(html, "e2-namevirtualhost");
    expect(e2).toContain("skipped: baseline image httpd:2.2.34 missing");
    expect(e2).toContain('<span class="mono" data-summary-side="baseline">baseline missing</span>');
  });

  it("lists a side's unmet expectations in the report's words", () => {
    const q6 = scenarioMarkup(html, "q6-satisfy-any-ip-or-user");
    expect(q6).toContain(
      '<div class="side changed" data-class="regression" data-side="candidate"><div class="side-label">candidate expectations</div><ul class="facts"><li>request allowed ip, no credentials: status: expected status 200, got status 401 (scenarios/catalogue/authz/satisfy-any.scenario.yaml:24:20)</li></ul></div>',
    );
  });

  it("opens regressions and errors, and keeps the rest collapsed", () => {
    const open = [...html.matchAll(/<details class="scenario"[^>]*data-scenario-id="([^"]+)"[^>]* open>/g)].map((m) => m[1]);
    expect(open).toEqual(["q6-satisfy-any-ip-or-user", "d4-proxy-wrong-name-cert"]);
  });
});

describe("renderHtmlReport, findings", () => {
  const html = renderHtmlReport(sampleReportWithSecurity());
  const findings = html.slice(html.indexOf('<section class="findings">'), html.indexOf("</section>", html.indexOf('<section class="findings">')));

  it("leads with the findings, right after the run header and before the summary and the scenarios", () => {
    const order = ['<header class="run">', '<section class="findings">', '<section class="summary">', "data-scenario-id="].map((marker) => html.indexOf(marker));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("lists them worst first, a security change flagged on its row and its label", () => {
    expect([attributeValues(findings, "data-finding"), attributeValues(findings, "data-severity"), attributeValues(findings, "data-security"), attributeValues(findings, "data-gating")]).toEqual([
      // Blocking first (news before what the x3 scenario predicts), then the security change, then the rest.
      ["R9", "X3", "A7", "unexplained", "D5"],
      ["blocking", "blocking", "behaviour", "unexplained", "behaviour"],
      ["false", "false", "true", "false", "false"],
      ["true", "false", "true", "true", "false"],
    ]);
    expect(findings).toContain('<span class="sev s-behaviour security">security (behaviour)</span>');
  });

  it("names config lines as file:line with the directive, escaped", () => {
    expect(findings).toContain("<code>sites-enabled/&lt;admin&gt;.conf:12</code> <code class=\"muted\">Satisfy any</code>");
    expect(findings).not.toContain("<admin>");
    expect(findings).toContain('data-ignored="1"');
  });
});

describe("renderHtmlReport, a scenario's own findings", () => {
  it("lists them in the scenario's body, before its expectations", () => {
    const html = renderHtmlReport(sampleReportWithSecurity());
    const x3 = scenarioMarkup(html, "x3-order-without-access-compat");
    expect(attributeValues(x3, "data-scenario-finding")).toEqual(["R9", "X3"]);
    expect(x3.indexOf("<h3>Findings</h3>")).toBeLessThan(x3.indexOf("<h3>Expectations</h3>"));
    expect(x3).toContain("<code>conf/httpd.conf:36</code> · 3 differences on 1 request");
    expect(attributeValues(scenarioMarkup(html, "a6-server-status-denied"), "data-scenario-finding")).toEqual(["A7"]);
  });
});

describe("renderHtmlReport, a run over several engines", () => {
  it("names each scenario's engine in its details, and what each engine ran in the summary", () => {
    const engines = [
      { name: "unix:///var/run/docker.sock", concurrency: 2, scenarios: 5, lost: null },
      { name: "tcp://198.19.7.2:2375", concurrency: 2, scenarios: 1, lost: "stopped answering <during> q6" },
    ];
    const html = renderHtmlReport({ ...sampleReport, engines, scenarios: sampleReport.scenarios.map((s, i) => ({ ...s, engine: engines[i === 0 ? 1 : 0]!.name })) });
    expect(html.match(/on <code data-engine>[^<]*<\/code>/g)).toEqual([
      "on <code data-engine>tcp://198.19.7.2:2375</code>",
      ...Array.from({ length: 5 }, () => "on <code data-engine>unix:///var/run/docker.sock</code>"),
    ]);
    expect(html).toContain("<li>engines: <code>unix:///var/run/docker.sock</code> 5 scenarios (2 at once); <code>tcp://198.19.7.2:2375</code> 1 scenario (2 at once), <b>lost</b>: stopped answering &lt;during&gt; q6</li>");
    expect(renderHtmlReport(sampleReport)).not.toContain("data-engine");
  });
});

describe("renderHtmlReport, a probe run", () => {
  const report = probeReport();
  const html = renderHtmlReport(report);

  it("draws the cell matrix in the probe run's scenario, after its findings and before its expectations, and nowhere else", () => {
    expect(attributeValues(html, "data-probe-matrix")).toEqual(["p1-probe-config"]);
    const p1 = scenarioMarkup(html, "p1-probe-config");
    expect(p1.indexOf("<h3>Findings</h3>")).toBeLessThan(p1.indexOf("data-probe-matrix"));
    expect(p1.indexOf("data-probe-matrix")).toBeLessThan(p1.indexOf("<h3>Expectations</h3>"));
  });

  it("links each matrix from the summary, with its classes", () => {
    const summary = html.slice(html.indexOf('<section class="summary">'), html.indexOf("</section>", html.indexOf('<section class="summary">')));
    expect(summary).toContain(
      '<li data-probe-link="p1-probe-config">cell matrix of <a href="#cells-p1-probe-config"><code>p1-probe-config</code></a>: 11 cells: 2 equal, 2 widened (security), 1 source-exposed (security), 1 narrowed, 1 changed, 1 vacuous, 2 unprobed, 1 accepted, 2 proven</li>',
    );
    expect(html).toContain('<section class="probe-matrix" id="cells-p1-probe-config"');
    expect(renderHtmlReport(sampleReport)).not.toContain("data-probe-link");
  });

  it("tells the probe run's sides by count and class in its row, not a status per probe", () => {
    const p1 = scenarioMarkup(html, "p1-probe-config");
    expect(p1).toContain('<span class="mono" data-summary-side="baseline">9 requests</span>');
    expect(p1).toContain('<span class="mono" data-summary-side="candidate">11 cells: 2 equal, 2 widened (security),');
  });

  it("stays one self-contained document, the hostile region as text", () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|\ssrc=|\shref="(?!#)|url\(|@import/i);
    expect(html).toContain("&lt;Directory &quot;/srv/&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;");
  });
});
