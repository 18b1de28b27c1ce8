// The cell matrix of a probe run in the HTML report: a proof a reader can look at. Above it, the count per class
// and how many cells are proven; in it, one row per vhost × section × path and one column per client × credential
// state, each cell coloured by its class. A counterexample is a <details> that opens, over the matrix, to both
// sides' answers and the lines that decide it, so a large matrix keeps its shape. No script: the page stays one
// self-contained file.
//
// Stable hooks: section[data-probe-matrix] (the scenario id); [data-probe-summary] with [data-class-count] per
// class and [data-proven]; per row th[data-vhost][data-region][data-path] (no data-path: the cells no probe
// reached), per column th[data-column] (its label); on each cell [data-cell] (its id),
// [data-cell-class], [data-method], [data-security] on the security classes; inside an opened counterexample
// [data-side] per side and [data-deciding] (the finding's rule) per cause.
import { escapeHtml } from "./escape-html.ts";
import { place, severityLabel, isSecurity } from "./finding-text.ts";
import { truncate } from "./format-value.ts";
import { askerText, CELL_CLASS_ORDER, isCounterexample, isSecurityClass, outcomePair } from "./probe-classes.ts";
import { probeMatrix, type ProbeColumn, type ProbeRow } from "./probe-matrix.ts";
import type { ReportFinding, ReportProbeCell, ReportRequest, ReportScenario } from "./report-model.ts";

const h = escapeHtml;

/** Marks the security classes; a letter in a red disc, which every font has (an emoji may show as a box). */
const SECURITY_MARK = '<span class="sec" title="security: 2.4 grants or shows more than 2.2">!</span>';

/** Past these a matrix no longer fits a screen: it scrolls inside its own box, its headings kept in view. Smaller
 * ones stay in the page, where an opened counterexample can lie over what follows instead of being cut off. */
const WIDE = 10;
const TALL = 30;
const BODY_LINES = 6;
const BODY_CHARS = 600;

/** Inline CSS for the matrix, added to the report's own. Colours: equal green, vacuous hatched grey, unprobed
 * dashed white, accepted light blue, widened and source exposed red (the security ones outlined), narrowed
 * orange, changed yellow. */
export const PROBE_MATRIX_STYLE = `
section.probe-matrix { margin: .6rem 0 1rem; }
.probe-summary { display: flex; flex-wrap: wrap; gap: .4rem .8rem; align-items: center; margin: .3rem 0 .5rem; }
.probe-summary .pc { display: inline-block; min-width: 1.4rem; text-align: center; }
.probe-scroll { border: 1px solid var(--line); width: max-content; max-width: 100%; }
.probe-scroll.scrolls { overflow: auto; max-height: 80vh; }
table.probe-matrix { width: auto; border-collapse: separate; border-spacing: 0; }
table.probe-matrix th { background: #f3f3f6; font-size: .75rem; font-weight: 500; white-space: nowrap; position: sticky; }
table.probe-matrix thead th { top: 0; z-index: 2; }
table.probe-matrix tbody th { left: 0; z-index: 1; text-align: left; }
table.probe-matrix thead th.corner { left: 0; z-index: 3; }
table.probe-matrix td { padding: 2px; border-bottom: 1px solid #ececf0; position: relative; min-width: 4.5rem; }
table.probe-matrix .region { color: var(--muted); }
.pc { display: block; padding: .1rem .3rem; margin: 1px 0; border: 1px solid transparent; border-radius: 3px; font-size: .75rem;
  white-space: nowrap; font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.pc .m { color: var(--muted); margin-right: .25rem; }
.pc.c-equal { background: #c8e6c9; border-color: #81c784; color: #1b5e20; }
.pc.c-vacuous { background: repeating-linear-gradient(45deg, #e6e6e6 0 4px, #f7f7f7 4px 8px); border-color: #c8c8c8; color: #5f6368; }
.pc.c-unprobed { background: #fff; border: 1px dashed #9e9e9e; color: #757575; }
.pc.c-accepted { background: #e3f2fd; border-color: #90caf9; color: #0d47a1; }
.pc.c-widened, .pc.c-source-exposed { background: #ffcdd2; border: 2px solid #c62828; color: #7f0000; font-weight: 700; }
.pc.c-narrowed { background: #ffe0b2; border-color: #ef6c00; color: #7a3a00; }
.pc.c-changed { background: #fff59d; border-color: #f9a825; color: #5d4300; }
details.pc > summary { cursor: pointer; list-style: none; }
details.pc > summary::-webkit-details-marker { display: none; }
details.pc[open] { outline: 2px solid #1f1f24; }
.sec { display: inline-block; margin-left: .25rem; width: 1.1em; height: 1.1em; line-height: 1.1em; border-radius: 50%;
  background: #c62828; color: #fff; text-align: center; font-weight: 700; font-size: .7rem; font-family: system-ui, sans-serif; }
.pc-open { position: absolute; z-index: 10; left: 0; top: 100%; width: 44rem; max-width: 90vw; white-space: normal; font-weight: 400;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 13px; color: #1f1f24; background: #fff;
  border: 1px solid #9e9e9e; border-radius: 6px; box-shadow: 0 4px 16px rgba(0,0,0,.25); padding: .5rem .7rem; }
.pc-open .sides { grid-template-columns: 1fr 1fr; }
.pc-open ul { margin: .2rem 0; padding-left: 1.2rem; }
`;

/** The first lines of a body, as much as a glance needs. */
function bodyStart(body: string): string {
  const lines = body.replace(/\n$/, "").split(/\r\n|\r|\n/);
  return truncate(lines.slice(0, BODY_LINES).join("\n"), BODY_CHARS) + (lines.length > BODY_LINES ? "\n…" : "");
}

/** One side of a counterexample: the outcome and answer the judge read, its evidence, and from the request the
 * status and the start of the body. */
function renderSide(side: "baseline" | "candidate", cell: ReportProbeCell, request: ReportRequest | undefined): string {
  const witness = cell[side];
  const sent = request?.[side] ?? null;
  const parts = [`<div class="side-label">${side}</div>`];
  if (witness === null) parts.push(`<p class="absent">no witness</p>`);
  else {
    parts.push(`<p><b>${h(witness.outcome.replace("-", " "))}</b> <code>${h(witness.answer)}</code> <span class="muted">credentials ${h(witness.credentials)}, object ${h(witness.object)}, marker ${h(witness.marker)}</span></p>`);
    if (witness.evidence.length > 0) parts.push(`<ul>${witness.evidence.map((line) => `<li>${h(line)}</li>`).join("")}</ul>`);
  }
  if (sent !== null) {
    const status = sent.outcome === "response" ? `status ${sent.status ?? "?"}` : sent.outcome === "transport-error" ? `no response: ${sent.transportError ?? "?"}` : sent.outcome;
    parts.push(`<p class="mono">${h(status)}</p>`);
    if (sent.body !== null && sent.body !== "") parts.push(`<pre>${h(bodyStart(sent.body))}</pre>`);
  }
  return `<div class="side" data-side="${side}">${parts.join("")}</div>`;
}

/** The causes that name the cell's request, with their config lines and evidence; the region always. */
function renderDeciding(cell: ReportProbeCell, findings: readonly ReportFinding[]): string {
  const named = cell.request === null ? [] : findings.filter((finding) => finding.differences.some((d) => d.request === cell.request));
  const items = named.map((finding) => {
    const lines = finding.config.map((line) => `<li><code>${h(place(line))}</code>${line.directive ? ` <code>${h(line.directive)}</code>` : ""}</li>`).join("");
    const evidence = finding.evidence.map((line) => `<li class="muted">${h(line)}</li>`).join("");
    return (
      `<li data-deciding="${h(finding.rule)}"><span class="sev s-${h(finding.severity)}${isSecurity(finding) ? " security" : ""}">${h(severityLabel(finding))}</span> ` +
      `<b class="mono">${h(finding.rule)}</b> ${h(finding.title)}${lines || evidence ? `<ul>${lines}${evidence}</ul>` : ""}</li>`
    );
  });
  return (
    `<h4>Deciding lines</h4><p>in <code>${h(cell.vhost)}</code> <code>${h(cell.region)}</code></p>` +
    (items.length > 0 ? `<ul>${items.join("")}</ul>` : `<p class="absent">no finding names this request</p>`)
  );
}

function cellTitle(cell: ReportProbeCell): string {
  const what = `${cell.method} ${cell.path ?? "(no probe)"} from ${askerText(cell)}`;
  return `${cell.class}: ${cell.reason ?? outcomePair(cell)} (${what})`;
}

function renderCell(cell: ReportProbeCell, scenario: ReportScenario, requests: ReadonlyMap<string, ReportRequest>): string {
  const security = isSecurityClass(cell.class);
  const attributes =
    ` class="pc c-${h(cell.class)}" data-cell="${h(cell.cell)}" data-cell-class="${h(cell.class)}" data-method="${h(cell.method)}"` +
    `${security ? ' data-security="true"' : ""} title="${h(cellTitle(cell))}"`;
  const label = `<span class="m">${h(cell.method)}</span>${h(outcomePair(cell))}${security ? SECURITY_MARK : ""}`;
  if (!isCounterexample(cell)) return `<span${attributes}>${label}</span>`;
  const request = cell.request === null ? undefined : requests.get(cell.request);
  const open =
    `<div class="pc-open"><p><b>${h(cell.class)}</b>: <code>${h(`${cell.method} ${cell.path ?? ""}`)}</code> from ${h(askerText(cell))}` +
    `${cell.request === null ? "" : ` · request <code>${h(cell.request)}</code>`}</p>` +
    (cell.reason === null ? "" : `<p>${h(cell.reason)}</p>`) +
    `<div class="sides">${renderSide("baseline", cell, request)}${renderSide("candidate", cell, request)}</div>` +
    renderDeciding(cell, scenario.findings) +
    `</div>`;
  return `<details${attributes}><summary>${label}</summary>${open}</details>`;
}

function rowHeading(row: ProbeRow): string {
  return (
    `<th data-vhost="${h(row.vhost)}" data-region="${h(row.region)}"${row.path === null ? "" : ` data-path="${h(row.path)}"`}><span class="mono">${h(row.vhost)}</span> <span class="mono region">${h(row.region)}</span>` +
    `<div class="mono">${row.path === null ? '<span class="absent">no probe</span>' : h(row.path)}</div></th>`
  );
}

function columnHeading(column: ProbeColumn): string {
  return `<th data-column="${h(column.label)}">${h(column.label)}</th>`;
}

/** The matrix of a scenario whose probes are known; "" for one without. */
export function renderProbeMatrix(scenario: ReportScenario): string {
  const probes = scenario.probes;
  if (probes === null) return "";
  const matrix = probeMatrix(probes.cells);
  const requests = new Map(scenario.requests.map((request) => [request.name, request]));
  const counts = CELL_CLASS_ORDER.filter((cls) => probes.classes[cls] > 0).map(
    (cls) => `<span data-class-count="${cls}"><span class="pc c-${cls}">${probes.classes[cls]}</span> ${h(cls)}${isSecurityClass(cls) ? SECURITY_MARK : ""}</span>`,
  );
  const summary =
    `<p class="probe-summary" data-probe-summary>${counts.join("")}<span data-proven="${probes.proven}"><b>${probes.proven} proven</b> of ${probes.cells.length} cells</span></p>`;
  const scrolls = matrix.columns.length > WIDE || matrix.rows.length > TALL;
  const head = `<tr><th class="corner">vhost · section · path</th>${matrix.columns.map(columnHeading).join("")}</tr>`;
  const rows = matrix.rows.map(
    (row) => `<tr>${rowHeading(row)}${matrix.columns.map((column) => `<td>${matrix.at(row, column).map((cell) => renderCell(cell, scenario, requests)).join("")}</td>`).join("")}</tr>`,
  );
  return (
    `<section class="probe-matrix" id="cells-${h(scenario.id)}" data-probe-matrix="${h(scenario.id)}"><h3>Cell matrix</h3>${summary}` +
    `<p class="muted">${matrix.rows.length} rows × ${matrix.columns.length} columns; a counterexample opens to both answers and the lines that decide it.` +
    `${scrolls ? " It scrolls in its box; its headings stay in view." : ""}</p>` +
    `<div class="probe-scroll${scrolls ? " scrolls" : ""}"><table class="probe-matrix"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></div></section>`
  );
}
