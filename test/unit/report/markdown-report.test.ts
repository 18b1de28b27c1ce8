import { describe, expect, it } from "vitest";
import { markdownCell, renderMarkdownReport } from "../../../harness/report/markdown-report.ts";
import type { Report, ReportScenario } from "../../../harness/report/report-model.ts";
import { sampleReport, sampleReportWithSecurity } from "../../fixtures/reports/sample-report.ts";
import { probeReport } from "./probe-report.ts";

/** The rows of the first table after `header`, split into cells on unescaped pipes. */
function tableAfter(markdown: string, header: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(header);
  if (start < 0) throw new Error(`no table with header ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.slice(2, -2).split(/(?<!\\) \| /));
  }
  return rows;
}

describe("renderMarkdownReport", () => {
  const markdown = renderMarkdownReport(sampleReport);

  it("starts with a headline, then the findings, then the counts by verdict", () => {
    expect(markdown.split("\n").slice(0, 15)).toEqual([
      "## ❌ httpd upgrade check: 1 finding to fix, 1 regression, 1 error",
      "",
      "`httpd:2.2.34` (2.2.34) → `httpd-upgrade-harness/httpd-2.4:2.4.62` (2.4.62) · 6 scenarios in 41.8 s",
      "",
      "### Findings",
      "",
      "| severity | cause | config | requests | evidence | scenario |",
      "|---|---|---|---|---|---|",
      "| **unexplained** ✗ | `unexplained` differences no rule explains |  | 1: GET /private/ | status 200 → 401 on GET /private/ | `q6-satisfy-any-ip-or-user` |",
      "",
      "2 findings predicted (by the scenarios or known differences): `X3`, `D5`. Ignored by the ignore file: 1 (`E2` 1).",
      "",
      "1 **regression** · 1 **error** · 2 expected-change · 0 noise · 2 same",
      "",
      "The guide holds in 3 scenarios; expectations met: baseline 5, candidate 4; failed: baseline 0, candidate 2.",
    ]);
  });

  it("leads with the findings worst first: blocking, then security flagged, with file:line and the directive", () => {
    const rows = tableAfter(renderMarkdownReport(sampleReportWithSecurity()), "| severity | cause | config | requests | evidence | scenario |");
    expect(rows.map((row) => [row[0], row[2], row[5]])).toEqual([
      ["⛔ **blocking** ✗", "`conf/httpd.conf:50` LockFile logs/accept.lock", "`x3-order-without-access-compat`"],
      ["🔓 **SECURITY (BEHAVIOUR)** ✗", "`sites-enabled/<admin>.conf:12` Satisfy any", "`a6-server-status-denied`"],
      ["**unexplained** ✗", "", "`q6-satisfy-any-ip-or-user`"],
    ]);
    expect(rows[0]![4]).toBe("conf/httpd.conf:50: LockFile is gone in 2.4<br>*found by lint; 2.4 stops at its first error*");
  });

  it("says so when there is nothing to worry about", () => {
    const calm: Report = {
      ...sampleReport,
      scenarios: sampleReport.scenarios.filter((s) => s.verdict === "same"),
      summary: { ...sampleReport.summary, byVerdict: { same: 2, "expected-change": 0, regression: 0, noise: 0, error: 0, unverified: 0, "broken-on-both": 0 } },
    };
    expect(renderMarkdownReport(calm).split("\n")[0]).toBe("## ✅ httpd upgrade check: no regressions");
  });

  it("has one table row per scenario with seed, both sides and the verdict", () => {
    expect(tableAfter(markdown, "| scenario | seed | baseline | candidate | verdict |")).toEqual([
      ["`a6-server-status-denied` server-status denied by an inherited Order/Deny despite Require ip", "A6, T1", "403", "403", "same"],
      ["`d5-proxy-expired-cert` reverse proxy to an HTTPS backend with an expired certificate", "D5, T2", "200", "500", "expected-change"],
      ["`x3-order-without-access-compat` Order/Allow without mod\\_access\\_compat on 2.4", "X3, M2", "200", "config test failed", "expected-change"],
      ["`q6-satisfy-any-ip-or-user` Satisfy any + Allow from ip + valid-user: either criterion suffices", "Q6", "200, 404", "401, 404", "**regression**"],
      ["`d4-proxy-wrong-name-cert` reverse proxy to an HTTPS backend whose certificate names another host", "D4, T2", "200", "no response", "**error**"],
      ["`e2-namevirtualhost` NameVirtualHost has no effect on 2.4, only a warning", "E2", "baseline missing", "200", "same"],
    ]);
  });

  it("lists where the upgrade guide is wrong", () => {
    const start = markdown.indexOf("### Where the upgrade guide is wrong");
    expect(markdown.slice(start).split("\n").slice(0, 4)).toEqual([
      "### Where the upgrade guide is wrong",
      "",
      "- `d5-proxy-expired-cert` (D5, T2): guide says 502; 2.4 answers 500",
      "",
    ]);
  });

  it("gives each scenario with differences a collapsible table, open for regressions", () => {
    const summaries = markdown.split("\n").filter((line) => line.startsWith("<details"));
    expect(summaries).toEqual([
      "<details><summary><code>a6-server-status-denied</code> server-status denied by an inherited Order/Deny despite Require ip: <b>same</b>, 3 differences</summary>",
      "<details><summary><code>d5-proxy-expired-cert</code> reverse proxy to an HTTPS backend with an expired certificate: <b>expected-change</b>, 3 differences</summary>",
      "<details><summary><code>x3-order-without-access-compat</code> Order/Allow without mod_access_compat on 2.4: <b>expected-change</b>, 3 differences</summary>",
      "<details open><summary><code>q6-satisfy-any-ip-or-user</code> Satisfy any + Allow from ip + valid-user: either criterion suffices: <b>regression</b>, 2 differences</summary>",
      "<details open><summary><code>d4-proxy-wrong-name-cert</code> reverse proxy to an HTTPS backend whose certificate names another host: <b>error</b>, 1 difference</summary>",
    ]);
    const q6 = markdown.slice(markdown.indexOf("<details open><summary><code>q6"));
    expect(tableAfter(q6, "| request | field | baseline | candidate | class | seed | reason |")).toEqual([
      [
        "allowed ip, no credentials", "`status`", "`200`", "`401`", "**regression**", "",
        "no seed row predicts status for this request (rule tried: /40\\[13\\]\\|AH0(1797\\|1630)/)",
      ],
      [
        "allowed ip, no credentials", "`header:www-authenticate`", "*absent*", '`Basic realm="private"`', "**regression**", "",
        "no seed row predicts header:www-authenticate",
      ],
    ]);
  });

  it("lists server-level differences first, with multi-line values on <br>", () => {
    const x3 = markdown.slice(markdown.indexOf("<details><summary><code>x3"));
    const rows = tableAfter(x3, "| request | field | baseline | candidate | class | seed | reason |");
    expect(rows.map((row) => [row[0], row[1]])).toEqual([
      ["(server)", "`configTest`"],
      ["(server)", "`started`"],
      ["index", "`status`"],
    ]);
    expect(rows[0]?.[3]).toBe(
      "AH00526: Syntax error on line 36 of /usr/local/apache2/conf/httpd.conf:<br>" +
        "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration",
    );
  });

  it("keeps one line per row whatever the cell text holds", () => {
    const q6 = sampleReport.scenarios.find((s) => s.id === "q6-satisfy-any-ip-or-user") as ReportScenario;
    const tricky: ReportScenario = { ...q6, title: "a | b\nc <script>alert(1)</script>" };
    const text = renderMarkdownReport({ ...sampleReport, scenarios: [tricky] });
    const [row] = tableAfter(text, "| scenario | seed | baseline | candidate | verdict |");
    expect(row).toHaveLength(5);
    expect(row?.[0]).toBe("`q6-satisfy-any-ip-or-user` a \\| b<br>c &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(text).not.toContain("<script>");
  });
});

describe("markdownCell", () => {
  it("escapes pipes, newlines, HTML and emphasis", () => {
    expect(markdownCell("a|b\r\nc\nd")).toBe("a\\|b<br>c<br>d");
    expect(markdownCell("<b>&amp;</b>")).toBe("&lt;b&gt;&amp;amp;&lt;/b&gt;");
    expect(markdownCell("*x* _y_ `z` [l](u) ~s~ \\")).toBe("\\*x\\* \\_y\\_ \\`z\\` \\[l\\](u) \\~s\\~ \\\\");
  });
});

describe("renderMarkdownReport, a run over several engines", () => {
  const engines: NonNullable<Report["engines"]> = [
    { name: "unix:///var/run/docker.sock", concurrency: 2, scenarios: 4, lost: null },
    { name: "tcp://198.19.7.2:2375", concurrency: 3, scenarios: 2, lost: "stopped answering during q6" },
  ];
  const report: Report = {
    ...sampleReport,
    engines,
    scenarios: sampleReport.scenarios.map((scenario, index) => ({ ...scenario, engine: engines[index % 2 === 0 ? 0 : 1]!.name })),
  };
  const markdown = renderMarkdownReport(report);

  it("says what each engine ran, and which was lost, under the images", () => {
    expect(markdown.split("\n").slice(2, 6)).toEqual([
      "`httpd:2.2.34` (2.2.34) → `httpd-upgrade-harness/httpd-2.4:2.4.62` (2.4.62) · 6 scenarios in 41.8 s",
      "",
      "Engines: `unix:///var/run/docker.sock` 4 scenarios (2 at once) · `tcp://198.19.7.2:2375` 2 scenarios (3 at once), lost: stopped answering during q6",
      "",
    ]);
  });

  it("names each scenario's engine in its details", () => {
    const summaries = markdown.split("\n").filter((line) => line.startsWith("<details"));
    expect(summaries.length).toBeGreaterThan(0);
    for (const line of summaries) expect(line).toMatch(/, on <code>(unix:\/\/\/var\/run\/docker\.sock|tcp:\/\/198\.19\.7\.2:2375)<\/code><\/summary>$/);
  });

  it("names no engine for a run on one", () => {
    expect(renderMarkdownReport(sampleReport)).not.toMatch(/Engines:|, on <code>/);
  });
});

describe("renderMarkdownReport, a probe run", () => {
  const markdown = renderMarkdownReport(probeReport());
  const cells = markdown.slice(markdown.indexOf("### Probe cells"));
  const HEADER = "| class | method | vhost | path | client | credentials | baseline | candidate |";

  it("says the count per class and how many are proven, and the same classes in the overview row", () => {
    expect(cells.split("\n").slice(0, 3)).toEqual([
      "### Probe cells",
      "",
      "**`p1-probe-config`** probes of conf/httpd.conf: 11 cells: 2 equal, 2 widened (security), 1 source-exposed (security), 1 narrowed, 1 changed, 1 vacuous, 2 unprobed, 1 accepted; 2 proven.",
    ]);
    expect(tableAfter(markdown, "| scenario | seed | baseline | candidate | verdict |").at(-1)).toEqual([
      "`p1-probe-config` probes of conf/httpd.conf", "", "9 requests",
      "11 cells: 2 equal, 2 widened (security), 1 source-exposed (security), 1 narrowed, 1 changed, 1 vacuous, 2 unprobed, 1 accepted", "**regression**",
    ]);
  });

  it("lists the counterexamples, worst first, with both outcomes, and no other cell", () => {
    expect(tableAfter(cells, HEADER)).toEqual([
      ["🔓 **widened**", "GET", "http://(default):80", "`/admin/probe.html`", "outsider", "none", "denied `403`", "served `200`"],
      ["🔓 **widened**", "HEAD", "http://(default):80", "`/admin/probe.html`", "outsider", "none", "denied `403`", "served `200`"],
      ["🔓 **source-exposed**", "GET", "http://(default):80", "`/cgi-bin/probe.cgi`", "outsider", "none", "executed `200`", "source served `200`"],
      ["narrowed", "GET", "http://(default):80", "`/index.html`", "outsider", "none", "served `200`", "denied `403`"],
      ["changed", "GET", "http://(default):80", "`/index.html`", "10.0.0.0/8", "valid admin", "error `500`", "error `503`"],
    ]);
    expect(cells).not.toContain("… and");
  });

  it("lists at most 20, then says how many more there are", () => {
    const report = probeReport();
    const p1 = report.scenarios.at(-1)!;
    const widened = p1.probes!.cells[0]!;
    const many = Array.from({ length: 23 }, (_, i) => ({ ...widened, cell: `c${i}`, path: `/admin/${i}` }));
    const text = renderMarkdownReport({ ...report, scenarios: [{ ...p1, probes: { ...p1.probes!, cells: [...p1.probes!.cells, ...many] } }] });
    const rows = tableAfter(text.slice(text.indexOf("### Probe cells")), HEADER);
    expect(rows).toHaveLength(20);
    expect(text).toContain("\n\n… and 8 more\n");
  });

  it("keeps markup and pipes in a cell's path and client as text", () => {
    const report = probeReport();
    const p1 = report.scenarios.at(-1)!;
    const cells = p1.probes!.cells.map((c) => (c.class === "narrowed" ? { ...c, path: "/a|b", client: "<script>x</script>" } : c));
    const text = renderMarkdownReport({ ...report, scenarios: [{ ...p1, probes: { ...p1.probes!, cells } }] });
    const row = tableAfter(text.slice(text.indexOf("### Probe cells")), HEADER).find((r) => r[0] === "narrowed");
    expect(row).toEqual(["narrowed", "GET", "http://(default):80", "`/a\\|b`", "&lt;script&gt;x&lt;/script&gt;", "none", "served `200`", "denied `403`"]);
    expect(text).not.toContain("<script>");
  });

  it("has no probe cells part for a run without probes", () => {
    expect(renderMarkdownReport(sampleReport)).not.toContain("### Probe cells");
  });
});
