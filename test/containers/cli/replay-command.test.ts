// `replay ACCESS_LOG --config PATH` on real servers: a generated access log (never a real one) of a 2.2-era news
// site whose archive page picks its print style with a 2.2 `<!--#if expr -->`, replayed with the CLI, reproduces a
// known difference in the report. CI has no httpd 2.2, so the difference it can show is between two real 2.4 patch
// levels: mod_include on 2.4.67 prints the if-branch after an expression it cannot parse, 2.4.68 does not
// (test/containers/observe/patch-levels.test.ts). With HTTPD_BASELINE_IMAGE set, the incident the harness is for
// is replayed too: a monitoring tool's status page, 200 on 2.2 and 403 on 2.4 (rule A5).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import type { Report, ReportRequest, ReportScenario } from "../../../harness/report/report-model.ts";
import { runCli } from "../../helpers/run-cli.ts";

const NEWS_TREE = fileURLToPath(new URL("../../fixtures/conf/replay/ssi-news-archive", import.meta.url));
const STATUS_TREE = fileURLToPath(new URL("../../../configs/tool-status-alias", import.meta.url));
const ERROR_TEXT = "[an error occurred while processing this directive]";

interface LogLine {
  client: string;
  request: string;
  status?: number;
  user?: string;
  agent?: string;
  host?: string;
}

function timestamp(second: number): string {
  const date = new Date(Date.UTC(2013, 2, 12, 9, 15, second));
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][date.getUTCMonth()];
  const pad = (n: number) => String(n).padStart(2, "0");
  return `[${pad(date.getUTCDate())}/${month}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000]`;
}

/** Lines in the news site's own LogFormat "news": `%h %l %u %t "%r" %>s %b "%{User-Agent}i" %{Host}i %D`. */
function newsLine(line: LogLine, second: number): string {
  return `${line.client} - ${line.user ?? "-"} ${timestamp(second)} "${line.request}" ${line.status ?? 200} 512 "${line.agent ?? "-"}" ${line.host ?? "news.example.com"} ${1000 + second}`;
}

/** Lines in the stock combined format. */
function combinedLine(line: LogLine, second: number): string {
  return `${line.client} - ${line.user ?? "-"} ${timestamp(second)} "${line.request}" ${line.status ?? 200} 512 "-" "${line.agent ?? "-"}"`;
}

function writeLog(name: string, lines: readonly string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "replay-log-")), name);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

function reportOf(path: string): Report {
  return JSON.parse(readFileSync(path, "utf8")) as Report;
}

function requestSent(scenario: ReportScenario, sent: string): ReportRequest {
  const found = scenario.requests.find((r) => r.sent === sent);
  if (!found) throw new Error(`no request sent as ${sent}: ${scenario.requests.map((r) => r.sent).join("; ")}`);
  return found;
}

describe("httpd-upgrade-harness replay", { timeout: 300_000 }, () => {
  it("replays a generated log of the news site on 2.4.67 and 2.4.68 and shows the archive page's body difference", async () => {
    const images = inject("images");
    const browser = "Mozilla/5.0 (Windows NT 6.1; rv:19.0) Gecko/20100101 Firefox/19.0";
    const visits: LogLine[] = [];
    // A morning of readers: the print view of the archive is the page the incident is about.
    for (let i = 0; i < 12; i++) visits.push({ client: `192.0.2.${10 + (i % 4)}`, request: "GET /archive/2012.shtml?print HTTP/1.1", agent: browser });
    for (let i = 0; i < 6; i++) visits.push({ client: `198.51.100.${20 + i}`, request: "GET / HTTP/1.1", agent: browser });
    for (let i = 0; i < 3; i++) visits.push({ client: "203.0.113.5", request: "GET /archive/ HTTP/1.1", agent: browser });
    visits.push({ client: "203.0.113.9", request: "HEAD /css/screen.css HTTP/1.0", agent: "check_http/v2.3" });
    const lines = visits.map(newsLine);
    // What a real log holds besides: a proxy probe, a connection that sent nothing, and a line cut short.
    lines.splice(5, 0, newsLine({ client: "203.0.113.66", request: "CONNECT mail.example.net:25 HTTP/1.0", status: 405 }, 40));
    lines.splice(9, 0, newsLine({ client: "203.0.113.67", request: "-", status: 408 }, 41));
    lines.push('192.0.2.99 - - [12/Mar/2013:09:16:00 +0000] "GET /archive/2012.sh');
    // Named as the tree's CustomLog names it, so the tree's own LogFormat is the one found.
    const log = writeLog("news_access_log", lines);
    const out = mkdtempSync(join(tmpdir(), "replay-report-"));
    const result = await runCli([
      "replay", log, "--config", NEWS_TREE, "--baseline", images.olderCandidate, "--candidate", images.candidate, "--report", `json:${out}/r.json`,
    ]);
    expect(result.stderr).not.toMatch(/error [A-Z_]+:/);
    expect(result.status).toBe(0);

    // Bad lines are counted and shown, with file:line and why; the run goes on.
    expect(result.stdout).toContain(`access log ${log}: format CustomLog logs/news_access_log news (conf/httpd.conf:56)`);
    expect(result.stdout).toContain("25 lines: 22 replayable as 4 distinct requests, 3 bad");
    expect(result.stdout).toContain("bad lines (1 format, 1 no-request, 1 proxy):");
    expect(result.stdout).toContain(`${log}:6: CONNECT (a proxy tunnel) is not replayed`);
    expect(result.stdout).toContain(`${log}:10: no request line`);
    expect(result.stdout).toContain(`${log}:25: does not fit the format`);

    const report = reportOf(`${out}/r.json`);
    expect([report.baseline.version, report.candidate.version]).toEqual(["2.4.67", "2.4.68"]);
    expect(report.scenarios).toHaveLength(1);
    const scenario = report.scenarios[0]!;
    expect(scenario.error).toBeNull();
    expect(scenario.requests.map((r) => r.name.replace(/ from \S+,.*?(\d+ lines?)$/, " $1"))).toEqual([
      "r0001 GET http://news.example.com:80/archive/2012.shtml?print 12 lines",
      "r0002 GET http://news.example.com:80/ 6 lines",
      "r0003 GET http://news.example.com:80/archive/ 3 lines",
      "r0004 HEAD http://news.example.com:80/css/screen.css 1 line",
    ]);

    // The known difference: 2.4.67 prints the if-branch (the print style) after the parse error, 2.4.68 nothing.
    const archive = requestSent(scenario, "GET /archive/2012.shtml?print (Host: news.example.com)");
    expect(archive.baseline?.body).toContain(`${ERROR_TEXT}<link rel="stylesheet" href="/css/print.css">`);
    expect(archive.candidate?.body).toContain(`${ERROR_TEXT}\n</head>`);
    expect(archive.candidate?.body).not.toContain("print.css");
    for (const side of [archive.baseline, archive.candidate]) expect(side?.errorLog.map((l) => l.code)).toContain("AH01337");
    expect(archive.differences).toContainEqual(expect.objectContaining({ field: "body", class: "expected-change", seed: ["S6"] }));
    expect(scenario.findings.map((f) => f.rule)).toContain("S6");

    // The pages without an expression answer alike.
    for (const sent of ["GET / (Host: news.example.com)", "GET /archive/ (Host: news.example.com)", "HEAD /css/screen.css (Host: news.example.com)"]) {
      const request = requestSent(scenario, sent);
      expect({ sent, status: request.candidate?.status, body: request.differences.some((d) => d.field === "body") }).toEqual({ sent, status: 200, body: false });
    }
  });

  it("with a real 2.2 baseline, replays a monitoring tool's status polls: 200 on 2.2, 403 on 2.4 (rule A5)", async (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
    const lines: string[] = [];
    // The collector polls from the machine itself; a browser outside asks for the graphs with a password.
    for (let i = 0; i < 10; i++) lines.push(combinedLine({ client: "127.0.0.1", request: "GET /statgraph-status/ HTTP/1.1", agent: "statgraph-collector/1.4" }, i));
    lines.push(combinedLine({ client: "198.51.100.30", request: "GET /statgraph/ HTTP/1.1", user: "statadmin", agent: "Mozilla/5.0" }, 20));
    const log = writeLog("access.log", lines);
    const out = mkdtempSync(join(tmpdir(), "replay-report-"));
    const result = await runCli(["replay", log, "--config", STATUS_TREE, "--baseline", images.baseline, "--candidate", images.candidate, "--report", `json:${out}/r.json`]);
    expect(result.stderr).not.toMatch(/error [A-Z_]+:/);
    const scenario = reportOf(`${out}/r.json`).scenarios[0]!;
    const status = requestSent(scenario, "GET /statgraph-status/");
    expect(status.name).toMatch(/from localhost, .*10 lines$/);
    expect([status.baseline?.status, status.candidate?.status]).toEqual([200, 403]);
    const a5 = scenario.findings.find((f) => f.rule === "A5");
    expect(a5?.differences).toContainEqual(expect.objectContaining({ field: "status", baseline: "200", candidate: "403" }));
  });
});
