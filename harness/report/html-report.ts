// The HTML report: one self-contained file (inline CSS, no scripts, no external resources) an operator opens in
// a browser. One collapsible row per scenario; inside, every request with baseline and candidate side by side and
// the differences highlighted with their class.
//
// Stable hooks for tests and tools: [data-scenario-id] (one element per scenario) with [data-verdict];
// [data-side="baseline|candidate"] on each side's panel; [data-field] and [data-class] on values that differ and
// on difference-table rows; [data-request] on each request; [data-finding] (the rule id) with [data-severity],
// [data-security] and [data-gating] on each finding's row, which lead the report. A version matrix (several
// candidates) adds section.matrix, one row per scenario ([data-matrix-scenario]) with one cell per candidate
// ([data-candidate] = the side id, [data-verdict] = its own verdict), and per scenario table.scenario-matrix, one
// row per request and one cell per candidate ([data-candidate], [data-status], [data-class] when it differs).
// A probe run adds its cell matrix to its scenario (probe-matrix-html.ts: section[data-probe-matrix]), linked
// from the summary ([data-probe-link]).
import type { Difference, DifferenceClass, Verdict } from "../judge/difference.ts";
import { columnHeading, describeMatrixEntry, describeSide, matrixColumns, matrixEntryOf, REPORT_SIDES, type ReportSideName } from "./describe-side.ts";
import { escapeHtml } from "./escape-html.ts";
import { formatValue, truncate } from "./format-value.ts";
import type {
  Report,
  ReportConfigTest,
  ReportErrorLogLine,
  ReportExpectationResult,
  ReportRequest,
  ReportScenario,
  ReportSideRequest,
  ReportSideServer,
} from "./report-model.ts";
import { baselineMissingNotice } from "./baseline-missing.ts";
import { scenarioDifferences, type LocatedDifference } from "./scenario-differences.ts";
import { VERDICTS } from "../judge/verdicts.ts";
import { plural, seconds } from "./units.ts";
import { confirmationText, findingsWorstFirst, isSecurity, place, severityLabel } from "./finding-text.ts";
import { PROBE_MATRIX_STYLE, renderProbeMatrix } from "./probe-matrix-html.ts";
import { probeClassesText } from "./probe-classes.ts";

const BODY_LIMIT = 4000;
const VALUE_LIMIT = 2000;

const h = escapeHtml;


const STYLE = `
:root {
  --same: #2e7d32; --same-bg: #e8f5e9;
  --expected-change: #1565c0; --expected-change-bg: #e3f2fd;
  --regression: #c62828; --regression-bg: #ffebee;
  --noise: #6b6b6b; --noise-bg: #f2f2f2;
  --error: #b45309; --error-bg: #fff3e0;
  --unverified: #6d28d9; --unverified-bg: #f5f3ff;
  --broken-on-both: #9a3412; --broken-on-both-bg: #fff7ed;
  --line: #d9d9de; --muted: #5f6368; --panel: #fafafc;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 14px; color: #1f1f24;
}
body { margin: 0; padding: 0 1.5rem 3rem; background: #fff; }
main, header.run, section.findings, section.summary, section.guide-wrong, nav.filter { max-width: 1500px; margin: 0 auto; }
table.findings th { background: #f3f3f6; font-size: .8rem; }
table.findings tr[data-gating="true"] { background: var(--regression-bg); }
.sev { display: inline-block; padding: .1rem .5rem; border-radius: 4px; font-size: .78rem; font-weight: 700; white-space: nowrap;
  color: #fff; background: var(--noise); text-transform: uppercase; }
.sev.s-blocking { background: var(--regression); } .sev.s-unexplained { background: var(--error); }
.sev.s-behaviour { background: var(--expected-change); } .sev.security { background: #7b1fa2; outline: 2px solid #4a148c; }
h1 { font-size: 1.5rem; margin: 1.2rem 0 .4rem; }
h2 { font-size: 1.15rem; margin: 1.4rem 0 .5rem; }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
h4 { font-size: .9rem; margin: .8rem 0 .3rem; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
pre { white-space: pre-wrap; word-break: break-word; margin: .2rem 0; }
.muted { color: var(--muted); }
.images { display: flex; gap: 1rem; align-items: stretch; flex-wrap: wrap; }
.image { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .8rem; background: var(--panel); }
.image .label { display: block; font-size: .75rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.image .version { font-weight: 600; margin-left: .4rem; }
.arrow { align-self: center; font-size: 1.4rem; color: var(--muted); }
.badge { display: inline-block; padding: .1rem .5rem; border-radius: 999px; color: #fff; font-size: .78rem;
  font-weight: 600; white-space: nowrap; }
.badge.v-same { background: var(--same); } .badge.v-expected-change { background: var(--expected-change); }
.badge.v-regression { background: var(--regression); } .badge.v-noise { background: var(--noise); }
.badge.v-error { background: var(--error); }
.badge.v-unverified { background: var(--unverified); } .badge.v-broken-on-both { background: var(--broken-on-both); }
.counts { display: flex; gap: .6rem; flex-wrap: wrap; margin: .5rem 0; }
.counts .count { border: 1px solid var(--line); border-radius: 6px; padding: .3rem .6rem; }
.counts .count b { font-size: 1.1rem; margin-right: .3rem; }
ul.facts { margin: .3rem 0; padding-left: 1.2rem; }
nav.filter { margin: 1rem auto .5rem; display: flex; gap: .8rem; flex-wrap: wrap; align-items: center; }
nav.filter label { cursor: pointer; }
${VERDICTS.map((v) => `body:has(#show-${v}:checked) .scenario:not([data-verdict="${v}"]) { display: none; }`).join("\n")}
.scenarios-head, details.scenario > summary { display: grid; align-items: center; gap: .6rem;
  grid-template-columns: 1rem minmax(12rem, 2fr) minmax(10rem, 3fr) 6rem minmax(7rem, 1fr) minmax(7rem, 1fr) 8.5rem;
  padding: .45rem .6rem; }
.scenarios-head { font-weight: 600; color: var(--muted); border-bottom: 2px solid var(--line); font-size: .8rem; }
details.scenario { border-bottom: 1px solid var(--line); }
details.scenario > summary { cursor: pointer; list-style: none; }
details.scenario > summary::-webkit-details-marker { display: none; }
details.scenario > summary:hover { background: #f6f7fb; }
details.scenario[data-verdict="regression"] > summary { background: var(--regression-bg); }
details.scenario[data-verdict="error"] > summary { background: var(--error-bg); }
details.scenario[data-verdict="unverified"] > summary { background: var(--unverified-bg); }
details.scenario[data-verdict="broken-on-both"] > summary { background: var(--broken-on-both-bg); }
.twisty { color: var(--muted); transition: transform .1s; display: inline-block; }
details[open] > summary .twisty { transform: rotate(90deg); }
.scenario-body { padding: .4rem 1rem 1.2rem 2.2rem; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; align-items: start; }
.side { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .7rem; background: var(--panel); min-width: 0; }
.side-label { font-size: .75rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin-bottom: .3rem; }
.side-label .image-name { text-transform: none; letter-spacing: 0; margin-left: .4rem; font-size: .75rem; }
.status { font-size: 1.05rem; font-weight: 700; display: inline-block; padding: 0 .3rem; border-radius: 4px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .2rem .4rem; border-bottom: 1px solid #ececf0; }
table.headers th { width: 30%; font-weight: 500; white-space: nowrap; }
table.headers td { word-break: break-all; }
table.differences { margin-top: .5rem; }
table.differences th { background: #f3f3f6; font-size: .8rem; }
table.differences td.value { max-width: 28rem; }
[data-class="regression"].changed { background: var(--regression-bg); outline: 2px solid var(--regression); }
[data-class="expected-change"].changed { background: var(--expected-change-bg); outline: 1px solid var(--expected-change); }
[data-class="error"].changed { background: var(--error-bg); outline: 2px solid var(--error); }
[data-class="noise"].changed { background: var(--noise-bg); }
tr.changed { outline-offset: -2px; }
ol.log { margin: .2rem 0; padding-left: 1.4rem; }
ol.log li { margin: .15rem 0; }
.log .code { font-weight: 600; }
.log .level, .log .module { color: var(--muted); }
.log .event { color: var(--muted); font-style: italic; }
.box { border-left: 4px solid var(--line); padding: .3rem .7rem; margin: .5rem 0; background: var(--panel); }
.box.error { border-color: var(--error); background: var(--error-bg); }
.box.guide-wrong { border-color: #a16207; background: #fefce8; }
.box.guide-holds { border-color: var(--same); }
.config-test { padding: 0 .3rem; border-radius: 4px; }
.request { border-top: 1px dashed var(--line); margin-top: .9rem; padding-top: .3rem; }
.absent { color: var(--muted); font-style: italic; }
section.matrix { max-width: 1500px; margin: 0 auto; }
table.matrix th, table.scenario-matrix th { background: #f3f3f6; font-size: .8rem; }
table.matrix td .muted, table.scenario-matrix td .muted { font-size: .8rem; }
${PROBE_MATRIX_STYLE}`;

function badge(cls: DifferenceClass | Verdict): string {
  return `<span class="badge v-${cls}">${h(cls)}</span>`;
}

/** The worst difference per field (lower-cased), for highlighting values in the side panels. */
function byField(differences: Difference[]): Map<string, Difference> {
  const map = new Map<string, Difference>();
  for (const difference of differences) {
    const field = difference.field.toLowerCase();
    const known = map.get(field);
    // The most urgent class decides the highlight.
    if (known === undefined || VERDICTS.indexOf(difference.class) < VERDICTS.indexOf(known.class)) map.set(field, difference);
  }
  return map;
}

/** Attributes for a value that may differ: data-field always, data-class and the highlight when it does. */
function fieldAttributes(field: string, differences: Map<string, Difference>, extraClass = ""): string {
  const difference = differences.get(field.toLowerCase());
  const classes = [extraClass, difference === undefined ? "" : "changed"].filter((c) => c !== "").join(" ");
  const classAttr = classes === "" ? "" : ` class="${classes}"`;
  const title = difference === undefined ? "" : ` title="${h(`${difference.class}: ${difference.reason}`)}"`;
  return ` data-field="${h(field)}"${difference === undefined ? "" : ` data-class="${difference.class}"`}${classAttr}${title}`;
}

function renderLogLines(lines: ReportErrorLogLine[]): string {
  if (lines.length === 0) return `<p class="absent">no error-log lines</p>`;
  const items = lines.map((line) => {
    const code =
      line.code !== null
        ? `<span class="code">${h(line.code)}</span>`
        : line.event !== null
          ? `<span class="event" title="the event this 2.2 line maps to">(${h(line.event)})</span>`
          : "";
    const level = line.level !== null ? `<span class="level">[${h(line.module === null ? line.level : `${line.module}:${line.level}`)}]</span>` : "";
    return `<li class="mono" title="${h(line.raw)}">${level} ${code} <span class="message">${h(line.message)}</span></li>`;
  });
  return `<ol class="log">${items.join("")}</ol>`;
}

function renderHeaders(request: ReportSideRequest, differences: Map<string, Difference>): string {
  const rows = request.headers.map(
    ([name, value]) => `<tr${fieldAttributes(`header:${name.toLowerCase()}`, differences)}><th class="mono">${h(name)}</th><td class="mono">${h(value)}</td></tr>`,
  );
  // A header that differs because it is missing on this side still gets a (highlighted) row.
  const present = new Set(request.headers.map(([name]) => `header:${name.toLowerCase()}`));
  for (const field of differences.keys()) {
    if (!field.startsWith("header:") || present.has(field)) continue;
    rows.push(`<tr${fieldAttributes(field, differences)}><th class="mono">${h(field.slice("header:".length))}</th><td class="absent">absent</td></tr>`);
  }
  if (rows.length === 0) return "";
  return `<table class="headers">${rows.join("")}</table>`;
}

function renderSideRequest(
  side: ReportSideName,
  labelHtml: string,
  request: ReportSideRequest | null,
  differences: Map<string, Difference>,
): string {
  const parts = [labelHtml];
  if (request === null) {
    parts.push(`<p class="absent">not observed</p>`);
  } else {
    switch (request.outcome) {
      case "response":
        parts.push(`<div${fieldAttributes("status", differences, "status")}>${h(String(request.status ?? "?"))}</div>`);
        parts.push(renderHeaders(request, differences));
        break;
      case "transport-error":
        parts.push(`<div${fieldAttributes("transport", differences, "status")}>no response</div>`);
        parts.push(`<pre>${h(request.transportError ?? "transport error")}</pre>`);
        break;
      case "exec":
        if (request.exec !== null) {
          parts.push(`<div${fieldAttributes("exitCode", differences, "status")}>exit ${request.exec.exitCode}</div>`);
          parts.push(`<h4>stdout</h4><pre${fieldAttributes("stdout", differences)}>${h(truncate(request.exec.stdout, BODY_LIMIT))}</pre>`);
          if (request.exec.stderr !== "") parts.push(`<h4>stderr</h4><pre>${h(truncate(request.exec.stderr, BODY_LIMIT))}</pre>`);
        }
        break;
      case "not-run":
        parts.push(`<div${fieldAttributes("status", differences, "status absent")}>not run</div>`);
        break;
    }
    parts.push(`<h4>error log</h4><div${fieldAttributes("errorLog", differences)}>${renderLogLines(request.errorLog)}</div>`);
    if (request.body !== null) {
      parts.push(
        `<details${fieldAttributes("body", differences)}><summary>body, ${plural(request.body.length, "character")}</summary>` +
          `<pre>${h(truncate(request.body, BODY_LIMIT))}</pre></details>`,
      );
    }
  }
  return `<div class="side" data-side="${side}">${parts.join("")}</div>`;
}

function renderDifferenceTable(located: LocatedDifference[], withRequest: boolean): string {
  if (located.length === 0) return "";
  const head = `<tr>${withRequest ? "<th>request</th>" : ""}<th>field</th><th>baseline</th><th>candidate</th><th>class</th><th>seed</th><th>reason</th></tr>`;
  const rows = located.map(({ request, difference }) => {
    const cells = [
      withRequest ? `<td>${h(request ?? "(server)")}</td>` : "",
      `<td class="mono">${h(difference.field)}</td>`,
      `<td class="value"><pre>${h(truncate(formatValue(difference.baseline), VALUE_LIMIT))}</pre></td>`,
      `<td class="value"><pre>${h(truncate(formatValue(difference.candidate), VALUE_LIMIT))}</pre></td>`,
      `<td>${badge(difference.class)}</td>`,
      `<td>${h(difference.seed.join(", "))}</td>`,
      `<td>${h(difference.reason)}</td>`,
    ];
    return `<tr class="difference" data-field="${h(difference.field)}" data-class="${difference.class}">${cells.join("")}</tr>`;
  });
  return `<table class="differences"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}

function sideLabel(report: Report, scenario: ReportScenario, side: ReportSideName): string {
  const server = scenario.servers[side];
  const image = server !== null ? `${server.image} (${server.version})` : `${report[side].image}${report[side].version === null ? "" : ` (${report[side].version})`}`;
  return `<div class="side-label">${side} <code class="image-name">${h(image)}</code></div>`;
}

function renderRequest(report: Report, scenario: ReportScenario, request: ReportRequest): string {
  const differences = byField(request.differences);
  const sides = REPORT_SIDES.map((side) =>
    renderSideRequest(side, sideLabel(report, scenario, side), request[side], differences),
  ).join("");
  const located = request.differences.map((difference) => ({ request: request.name, difference }));
  return (
    `<section class="request" data-request="${h(request.name)}">` +
    `<h3>${h(request.name)} <span class="muted"><code>${h(request.sent)}</code> from ${h(request.client)}</span></h3>` +
    `<div class="sides">${sides}</div>` +
    renderDifferenceTable(located, false) +
    `</section>`
  );
}

function renderExpectations(side: ReportSideName, result: ReportExpectationResult): string {
  let body: string;
  if (result.skipped !== null) body = `<p class="absent">skipped: ${h(result.skipped)}</p>`;
  else if (!result.stated) body = `<p class="absent">none stated for this version</p>`;
  else if (result.ok) body = `<p>all met</p>`;
  else body = `<ul class="facts">${result.failures.map((failure) => `<li>${h(failure.message)}</li>`).join("")}</ul>`;
  const cls = result.skipped === null && result.stated && !result.ok ? ` class="side changed" data-class="regression"` : ` class="side"`;
  return `<div${cls} data-side="${side}"><div class="side-label">${side} expectations</div>${body}</div>`;
}

function renderConfigTest(configTest: ReportConfigTest | null, differences: Map<string, Difference>): string {
  if (configTest === null) return `<div data-field="configTest"><p class="absent">config test not run</p></div>`;
  const messages = configTest.messages.length === 0 ? `<p class="absent">no output</p>` : `<pre>${h(configTest.messages.join("\n"))}</pre>`;
  return (
    `<div${fieldAttributes("configTest", differences, "config-test")}>` +
    `<p>config test <b>${configTest.ok ? "passed" : "failed"}</b> <span class="muted">(exit ${configTest.exitCode})</span></p>${messages}</div>`
  );
}

function renderServer(
  side: ReportSideName,
  server: ReportSideServer | null,
  configTest: ReportConfigTest | null,
  differences: Map<string, Difference>,
): string {
  const label = `<div class="side-label">${side} server</div>`;
  if (server === null && configTest === null) {
    return `<div class="side" data-side="${side}">${label}<p class="absent">no server</p></div>`;
  }
  const parts = [label, renderConfigTest(configTest, differences)];
  if (server !== null) {
    const facts = [`<li${fieldAttributes("started", differences)}>${server.started ? "started" : "did not start"}</li>`];
    if (server.missingModules.length > 0) facts.push(`<li>missing modules: ${h(server.missingModules.join(", "))}</li>`);
    parts.push(
      `<ul class="facts">${facts.join("")}</ul>`,
      `<details${fieldAttributes("startupLog", differences)}><summary>startup log, ${plural(server.startupLog.length, "line")}</summary>${renderLogLines(server.startupLog)}</details>`,
      `<details><summary>rendered httpd.conf</summary><pre>${h(server.renderedConfig)}</pre></details>`,
    );
    if (server.tree !== null) parts.push(renderTree(server.tree));
  }
  return `<div class="side" data-side="${side}">${parts.join("")}</div>`;
}

/** What the harness did with an operator's tree on this side: every change with its reason, every stub. */
function renderTree(tree: NonNullable<ReportSideServer["tree"]>): string {
  const where = (file: string | null, line: number | null): string => (file === null ? "command line (-C)" : `${file}:${line}`);
  const changes = tree.adaptations.map((a) => `<li><code>${h(where(a.file, a.line))}</code> ${a.was === null ? "" : `<s>${h(a.was)}</s> → `}<code>${h(a.now)}</code>: ${h(a.reason)}</li>`);
  const stubs = tree.stubs.map((s) => `<li>${h(s.kind)} <code>${h(s.target)}</code> (${h(`${s.file}:${s.line}`)}: ${h(s.note)})</li>`);
  const problems = tree.problems.map((p) => `<li>${h(p.severity)} <code>${h(`${p.file}:${p.line}:${p.column}`)}</code> ${h(p.message)}</li>`);
  return [
    `<p class="tree">${h(tree.layout)} tree <code>${h(tree.origin)}</code> staged at <code>${h(tree.mount)}</code>, main file <code>${h(tree.mainFile)}</code>${tree.defines.length ? `, -D ${h(tree.defines.join(" -D "))}` : ""}</p>`,
    `<details><summary>${plural(tree.files.length, "file")} read</summary><pre>${h(tree.files.join("\n"))}</pre></details>`,
    `<details${changes.length ? " open" : ""}><summary>${plural(changes.length, "line")} changed by the harness</summary><ul>${changes.join("")}</ul></details>`,
    `<details><summary>${plural(stubs.length, "stub")} made by the harness</summary><ul>${stubs.join("")}</ul></details>`,
    problems.length ? `<details open><summary>${plural(problems.length, "problem")} in the tree</summary><ul>${problems.join("")}</ul></details>` : "",
  ].join("");
}

function renderGuide(scenario: ReportScenario): string {
  const { guide } = scenario;
  if (guide.claim === null && guide.holds === null && guide.notes.length === 0) return "";
  const cls = guide.holds === false ? "guide-wrong" : guide.holds === true ? "guide-holds" : "";
  const status = guide.holds === false ? "The guide is wrong here." : guide.holds === true ? "The guide holds." : "Not checked against the servers.";
  const notes = [...guide.notes, ...guide.failures.map((failure) => `${failure.version}: ${failure.message}`)];
  return (
    `<div class="box ${cls}" data-guide-holds="${guide.holds === null ? "unknown" : String(guide.holds)}">` +
    `<b>Guide vs reality.</b> ${guide.claim === null ? "" : `The guide: <q>${h(guide.claim)}</q>. `}${status}` +
    (notes.length > 0 ? `<ul class="facts">${notes.map((note) => `<li>${h(note)}</li>`).join("")}</ul>` : "") +
    `</div>`
  );
}

/** The scenario's own causes, worst first, each with its config lines and what it folds. */
function renderScenarioFindings(scenario: ReportScenario): string {
  if (scenario.findings.length === 0) return "";
  const items = scenario.findings.map((finding) => {
    const security = isSecurity(finding);
    const lines = finding.config.map((line) => `<code>${h(place(line))}</code>`).join(", ");
    return (
      `<li data-scenario-finding="${h(finding.rule)}"><span class="sev s-${h(finding.severity)}${security ? " security" : ""}">${h(severityLabel(finding))}</span> ` +
      `<b class="mono">${h(finding.rule)}</b> ${h(finding.title)}${lines ? ` · ${lines}` : ""} · ${plural(finding.differences.length, "difference")}` +
      `${finding.requests.count > 0 ? ` on ${plural(finding.requests.count, "request")}` : ""}</li>`
    );
  });
  return `<h3>Findings</h3><ul class="facts">${items.join("")}</ul>`;
}

/** A version matrix's candidates side by side: one row per scenario, one column per candidate, each cell with
 * what the candidate answered and its own verdict against the baseline. */
function renderMatrix(report: Report): string {
  const columns = matrixColumns(report);
  if (columns.length === 0) return "";
  const head = `<tr><th>scenario</th><th>baseline</th>${columns.map((c) => `<th data-candidate="${h(c.side)}">${h(columnHeading(c))}${c.axis ? ` <span class="muted">${h(c.axis)}</span>` : ""}</th>`).join("")}<th>worst</th></tr>`;
  const rows = report.scenarios.map((scenario) => {
    const cells = columns.map((column) => {
      const entry = matrixEntryOf(scenario, column);
      return `<td data-candidate="${h(column.side)}"${entry ? ` data-verdict="${entry.verdict}"` : ""}>${entry ? `${badge(entry.verdict)} ` : ""}<span class="mono">${h(describeMatrixEntry(scenario, entry))}</span></td>`;
    });
    return (
      `<tr data-matrix-scenario="${h(scenario.id)}"><td><a href="#scenario-${h(scenario.id)}"><code>${h(scenario.id)}</code></a></td>` +
      `<td class="mono">${h(describeSide(scenario, "baseline"))}</td>${cells.join("")}<td>${badge(scenario.verdict)}</td></tr>`
    );
  });
  const counts = columns.map((c) => `<li data-candidate="${h(c.side)}"><b>${h(c.label)}</b>${c.axis ? ` (${h(c.axis)})` : ""}: <code>${h(c.image)}</code> ${h(c.version ?? "")} · ${VERDICTS.filter((v) => c.byVerdict[v] > 0).map((v) => `${c.byVerdict[v]} ${badge(v)}`).join(" ")}</li>`);
  return (
    `<section class="matrix" data-matrix><h2>Version matrix</h2><p>Each candidate against the baseline on its own; the last column is the worst of them.</p>` +
    `<ul class="facts">${counts.join("")}</ul><table class="matrix"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></section>`
  );
}

/** One scenario's requests on every candidate of a matrix: status (or outcome) per candidate, the cell marked with
 * the worst class of that candidate's differences from the baseline. */
function renderScenarioMatrix(report: Report, scenario: ReportScenario): string {
  const columns = matrixColumns(report);
  if (columns.length === 0 || scenario.matrix === null) return "";
  const head = `<tr><th>request</th><th>baseline</th>${columns.map((c) => {
    const entry = matrixEntryOf(scenario, c);
    return `<th data-candidate="${h(c.side)}">${h(columnHeading(c))} ${entry ? badge(entry.verdict) : ""}</th>`;
  }).join("")}</tr>`;
  const rows = scenario.requests.map((request) => {
    const cells = columns.map((column) => {
      const observed = matrixEntryOf(scenario, column)?.requests.find((r) => r.name === request.name);
      if (!observed) return `<td data-candidate="${h(column.side)}" class="absent">not observed</td>`;
      const worst = VERDICTS.find((v) => observed.differences.some((d) => d.class === v && d.class !== "noise"));
      const shown = observed.outcome === "response" ? String(observed.status ?? "?") : (observed.outcome ?? "not observed");
      const title = observed.differences.filter((d) => d.class !== "noise").map((d) => `${d.field}: ${d.class}`).join("; ");
      return `<td data-candidate="${h(column.side)}" data-status="${h(shown)}"${worst ? ` data-class="${worst}" class="changed mono" title="${h(title)}"` : ` class="mono"`}>${h(shown)}</td>`;
    });
    return `<tr data-request="${h(request.name)}"><td>${h(request.name)}</td><td class="mono">${h(request.baseline === null ? "not observed" : request.baseline.outcome === "response" ? String(request.baseline.status) : request.baseline.outcome)}</td>${cells.join("")}</tr>`;
  });
  return `<h3>Every candidate</h3><table class="scenario-matrix"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}

function renderScenario(report: Report, scenario: ReportScenario): string {
  const serverDifferences = scenarioDifferences(scenario).filter(({ request }) => request === null);
  const serverFields = byField(serverDifferences.map(({ difference }) => difference));
  const open = scenario.verdict === "regression" || scenario.verdict === "error" ? " open" : "";
  const row =
    `<summary><span class="twisty">▸</span><span class="mono">${h(scenario.id)}</span><span>${h(scenario.title)}</span>` +
    `<span>${h(scenario.seed.join(", "))}</span>` +
    REPORT_SIDES.map((side) => `<span class="mono" data-summary-side="${side}">${h(describeSide(scenario, side))}</span>`).join("") +
    `<span>${badge(scenario.verdict)}</span></summary>`;
  const body = [
    `<p class="muted"><code>${h(scenario.file)}</code> · ${scenario.coverage === "both" ? "both versions" : "candidate only"} · ${seconds(scenario.durationMs)}` +
      `${scenario.engine === null ? "" : ` · on <code data-engine>${h(scenario.engine)}</code>`}</p>`,
    scenario.error === null ? "" : `<div class="box error"><b>${h(scenario.error.code)}</b>: ${h(scenario.error.message)}</div>`,
    renderGuide(scenario),
    renderScenarioFindings(scenario),
    renderScenarioMatrix(report, scenario),
    renderProbeMatrix(scenario),
    `<h3>Expectations</h3><div class="sides">${REPORT_SIDES.map((side) => renderExpectations(side, scenario.expectations[side])).join("")}</div>`,
    `<h3>Servers and config test</h3><div class="sides">${REPORT_SIDES.map((side) => renderServer(side, scenario.servers[side], scenario.configTest[side], serverFields)).join("")}</div>`,
    serverDifferences.length === 0 ? "" : `<h3>Server differences</h3>${renderDifferenceTable(serverDifferences, false)}`,
    ...scenario.requests.map((request) => renderRequest(report, scenario, request)),
  ];
  return (
    `<details class="scenario" id="scenario-${h(scenario.id)}" data-scenario-id="${h(scenario.id)}" data-verdict="${scenario.verdict}"${open}>` +
    `${row}<div class="scenario-body">${body.join("")}</div></details>`
  );
}

function renderRunHeader(report: Report): string {
  const baselineVersion = report.baseline.missing ? "missing" : (report.baseline.version ?? "unknown version");
  const candidateVersion = report.candidate.version ?? "unknown version";
  return (
    `<header class="run"><h1>httpd upgrade report</h1><div class="images">` +
    `<div class="image" data-side="baseline"><span class="label">baseline</span><code>${h(report.baseline.image)}</code><span class="version">${h(baselineVersion)}</span></div>` +
    `<span class="arrow">→</span>` +
    (matrixColumns(report).length > 0
      ? matrixColumns(report)
          .map((c) => `<div class="image" data-side="${h(c.side)}"><span class="label">${h(c.label)}${c.axis ? ` · ${h(c.axis)}` : ""}</span><code>${h(c.image)}</code><span class="version">${h(c.version ?? "unknown version")}</span></div>`)
          .join("")
      : `<div class="image" data-side="candidate"><span class="label">candidate</span><code>${h(report.candidate.image)}</code><span class="version">${h(candidateVersion)}</span></div>`) +
    `</div><p class="muted">started ${h(report.startedAt)} · ${h(report.tool.name)} ${h(report.tool.version)} · report schema ${h(report.schemaVersion)}</p>` +
    (baselineMissingNotice(report) ? `<div class="box error" data-baseline-missing>${h(baselineMissingNotice(report)!)}</div>` : "") +
    `</header>`
  );
}

/** The findings, worst first, before everything else: severity (a security change flagged), cause, config lines
 * (file:line and the directive), requests, evidence, and the scenario they were seen in. */
function renderFindings(report: Report): string {
  const all = findingsWorstFirst(report);
  const ignored = Object.entries(report.summary.ignored.byRule);
  if (all.length === 0 && ignored.length === 0) return "";
  const rows = all.map(({ scenario, finding }) => {
    const security = isSecurity(finding);
    const config = finding.config
      .map((line) => `<div><code>${h(place(line))}</code>${line.directive ? ` <code class="muted">${h(line.directive)}</code>` : ""}</div>`)
      .join("");
    const confirmation = confirmationText(finding);
    const evidence = [...finding.evidence.map((line) => `<div>${h(line)}</div>`), ...(confirmation ? [`<div class="muted"><i>${h(confirmation)}</i></div>`] : [])].join("");
    const requests = finding.requests.count === 0 ? "" : `${finding.requests.count}: ${h(finding.requests.examples.join(", "))}`;
    return (
      `<tr data-finding="${h(finding.rule)}" data-severity="${h(finding.severity)}" data-security="${security}" data-gating="${finding.gating}">` +
      `<td><span class="sev s-${h(finding.severity)}${security ? " security" : ""}">${h(severityLabel(finding))}</span>${finding.predicted ? ' <span class="muted">predicted</span>' : ""}</td>` +
      `<td><b class="mono">${h(finding.rule)}</b> ${h(finding.title)}</td><td>${config}</td><td>${requests}</td><td>${evidence}</td>` +
      `<td><a href="#scenario-${h(scenario)}"><code>${h(scenario)}</code></a></td></tr>`
    );
  });
  const gating = all.filter(({ finding }) => finding.gating).length;
  const total = ignored.reduce((sum, [, count]) => sum + count, 0);
  return (
    `<section class="findings"><h2>Findings</h2>` +
    `<p>${plural(all.length, "finding")}, worst first; <b>${plural(gating, "finding")}</b> fail${gating === 1 ? "s" : ""} the run.</p>` +
    (rows.length > 0
      ? `<table class="findings"><thead><tr><th>severity</th><th>cause</th><th>config</th><th>requests</th><th>evidence</th><th>scenario</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
      : "") +
    (ignored.length > 0 ? `<p class="muted" data-ignored="${total}">Ignored by the ignore file: ${total} (${h(ignored.map(([rule, count]) => `${rule} ${count}`).join(", "))})</p>` : "") +
    `</section>`
  );
}

/** A fleet's causes across its configs ("R9 blocking in 143 configs"), worst first, each linking to the configs'
 * details; then every config with its verdict, worst cause and the tree it is a copy of. */
function renderFleet(report: Report): string {
  const fleet = report.fleet;
  if (!fleet) return "";
  const pathOf = new Map(fleet.configs.map((c) => [c.id, c.path]));
  const link = (id: string): string => `<a href="#scenario-${h(id)}"><code>${h(pathOf.get(id) ?? id)}</code></a>`;
  const causes = report.summary.findings.map(
    (cause) =>
      `<tr data-cause="${h(cause.rule)}" data-configs="${cause.scenarios.length}"><td><span class="sev s-${h(cause.severity)}${isSecurity(cause) ? " security" : ""}">${h(severityLabel(cause))}</span></td>` +
      `<td><b class="mono">${h(cause.rule)}</b> ${h(cause.title)}</td><td><b>${plural(cause.scenarios.length, "config")}</b>: ${cause.scenarios.map(link).join(", ")}</td></tr>`,
  );
  const configs = fleet.configs.map((config) => {
    const worst = config.findings[0];
    const cause = config.error ?? (worst ? `${worst.rule} ${severityLabel(worst)}${config.findings.length > 1 ? ` and ${config.findings.length - 1} more` : ""}` : "");
    return (
      `<tr data-config="${h(config.id)}" data-verdict="${config.verdict}"><td>${link(config.id)}</td><td>${badge(config.verdict)}</td><td>${h(cause)}</td>` +
      `<td>${config.sameAs ? `same tree as ${link(config.sameAs)}` : ""}</td><td>${h(config.engine ?? "")}</td></tr>`
    );
  });
  return (
    `<section class="fleet"><h2>Fleet</h2><p>${plural(fleet.configs.length, "config")}${fleet.duplicates > 0 ? ` (${fleet.duplicates} the same tree as another, run once)` : ""}; inputs <code>${h(fleet.inputsHash.slice(0, 16))}</code>.</p>` +
    (causes.length > 0 ? `<h3>Causes across the fleet, worst first</h3><table class="findings"><thead><tr><th>severity</th><th>cause</th><th>configs</th></tr></thead><tbody>${causes.join("")}</tbody></table>` : "") +
    `<h3>Configs</h3><table class="findings"><thead><tr><th>config</th><th>verdict</th><th>worst cause</th><th></th><th>engine</th></tr></thead><tbody>${configs.join("")}</tbody></table></section>`
  );
}

/** Where each probe run's cell matrix is, with its classes, so a reader finds it without opening every scenario. */
function probeMatricesItems(report: Report): string {
  return report.scenarios
    .flatMap((scenario) => (scenario.probes === null ? [] : [`<li data-probe-link="${h(scenario.id)}">cell matrix of <a href="#cells-${h(scenario.id)}"><code>${h(scenario.id)}</code></a>: ${h(probeClassesText(scenario.probes))}, ${scenario.probes.proven} proven</li>`]))
    .join("");
}

function renderSummary(report: Report): string {
  const { summary } = report;
  const counts = VERDICTS.map(
    (verdict) => `<span class="count" data-count="${verdict}"><b>${summary.byVerdict[verdict]}</b>${badge(verdict)}</span>`,
  ).join("");
  return (
    `<section class="summary"><h2>Summary</h2>` +
    `<p>${plural(summary.scenarios, "scenario")} in ${seconds(summary.durationMs)}; ` +
    `<b>${plural(summary.regressions, "regression")}</b>.</p><div class="counts">${counts}</div>` +
    `<ul class="facts"><li>the guide holds in ${plural(summary.guideHolds, "scenario")}, and is wrong in ${summary.guideWrong.length}</li>` +
    `<li>expectations met: baseline ${summary.expectationsMet.baseline}, candidate ${summary.expectationsMet.candidate}; ` +
    `failed: baseline ${summary.expectationsFailed.baseline}, candidate ${summary.expectationsFailed.candidate}</li>` +
    probeMatricesItems(report) +
    (report.engines === null
      ? ""
      : `<li>engines: ${report.engines
          .map((e) => `<code>${h(e.name)}</code> ${plural(e.scenarios, "scenario")} (${e.concurrency} at once)${e.lost === null ? "" : `, <b>lost</b>: ${h(e.lost)}`}`)
          .join("; ")}</li>`) +
    `</ul></section>`
  );
}

function renderGuideWrong(report: Report): string {
  const rows = report.summary.guideWrong;
  const body =
    rows.length === 0
      ? `<p>Nowhere: the servers behaved as the guide says in every scenario that checks a claim.</p>`
      : `<ul class="facts">${rows
          .map(
            (row) =>
              `<li data-guide-wrong="${h(row.id)}"><a href="#scenario-${h(row.id)}"><code>${h(row.id)}</code></a>` +
              `${row.seed.length > 0 ? ` (${h(row.seed.join(", "))})` : ""}: ${h(row.notes.length > 0 ? row.notes.join("; ") : "the servers part from the guide")}</li>`,
          )
          .join("")}</ul>`;
  return `<section class="guide-wrong"><h2>Where the upgrade guide is wrong</h2>${body}</section>`;
}

function renderFilter(report: Report): string {
  const options = [
    `<label><input type="radio" name="verdict-filter" id="show-all" checked> all (${report.scenarios.length})</label>`,
    ...VERDICTS.map(
      (verdict) =>
        `<label><input type="radio" name="verdict-filter" id="show-${verdict}"> ${badge(verdict)} (${report.summary.byVerdict[verdict]})</label>`,
    ),
  ];
  return `<nav class="filter"><span class="muted">show:</span>${options.join("")}</nav>`;
}

export function renderHtmlReport(report: Report): string {
  return [...htmlReportChunks(report, report.scenarios)].join("");
}

/** The report in pieces, for a writer that streams it: the same bytes as renderHtmlReport. Everything before the
 * scenarios comes from `frame` (its scenarios need verdicts, findings and each side's outcomes), each scenario's
 * details from `scenarios`, whole. */
export function* htmlReportChunks(frame: Report, scenarios: Iterable<ReportScenario>): Generator<string> {
  const report = frame;
  const title = `httpd upgrade report: ${report.baseline.image} → ${report.candidate.image}`;
  const head = [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${h(title)}</title><style>${STYLE}</style></head><body>`,
    renderRunHeader(report),
    renderFleet(report),
    renderFindings(report),
    renderSummary(report),
    renderGuideWrong(report),
    renderMatrix(report),
    `<h2 style="max-width:1500px;margin:1.4rem auto .5rem">Scenarios</h2>`,
    renderFilter(report),
    `<main><div class="scenarios-head"><span></span><span>scenario</span><span>title</span><span>seed</span><span>baseline</span><span>candidate</span><span>verdict</span></div>`,
  ];
  yield `${head.join("\n")}\n`;
  for (const scenario of scenarios) yield `${renderScenario(report, scenario)}\n`;
  yield `</main></body></html>\n`;
}
