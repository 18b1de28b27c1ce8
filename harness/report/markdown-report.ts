// The Markdown report, for a pull-request comment (GitHub-flavoured: tables, <details>).
import type { Verdict } from "../judge/difference.ts";
import { columnHeading, describeMatrixEntry, describeSide, matrixColumns, matrixEntryOf } from "./describe-side.ts";
import { baselineMissingNotice } from "./baseline-missing.ts";
import { escapeHtml } from "./escape-html.ts";
import { formatValue, truncate } from "./format-value.ts";
import type { Report, ReportScenario } from "./report-model.ts";
import { scenarioDifferences } from "./scenario-differences.ts";
import { shownVerdicts } from "../judge/verdicts.ts";
import { plural, seconds } from "./units.ts";
import { confirmationText, findingsWorstFirst, isSecurity, place, severityLabel } from "./finding-text.ts";
import type { ReportFinding, ReportProbeCell } from "./report-model.ts";
import { counterexamples, isSecurityClass, probeClassesText } from "./probe-classes.ts";

/** Keeps one difference value from blowing up a comment (GitHub caps comments at 65,536 characters). */
const CELL_LIMIT = 300;

/**
 * Text for one table cell: `|` escaped, newlines as <br>, and what Markdown or HTML would interpret (`<`, `&`,
 * `*`, `_`, backticks, brackets) neutralised, so a server's text shows as written.
 */
export function markdownCell(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_[\]~]/g, (c) => `\\${c}`)
    .replace(/\|/g, "\\|")
    .replace(/\r\n|\r|\n/g, "<br>");
}

/** A single-line value as a code span (so paths and codes read as such), anything else as escaped text. */
function valueCell(value: unknown): string {
  if (value === null || value === undefined) return "*absent*";
  if (Array.isArray(value) && value.length === 0) return "*none*";
  const text = truncate(formatValue(value), CELL_LIMIT);
  if (/[\r\n`]/.test(text) || text === "") return markdownCell(text);
  return `\`${text.replace(/\|/g, "\\|")}\``;
}

function verdictLabel(verdict: Verdict): string {
  return verdict === "regression" || verdict === "error" || verdict === "broken-on-both" ? `**${verdict}**` : verdict;
}

function headline(report: Report): string {
  const { byVerdict } = report.summary;
  const regressions = byVerdict.regression;
  const errors = byVerdict.error;
  const gating = report.scenarios.reduce((sum, s) => sum + s.findings.filter((f) => f.gating).length, 0);
  const icon = regressions > 0 || gating > 0 ? "❌" : errors > 0 ? "⚠️" : "✅";
  const verdictText =
    regressions > 0 || errors > 0 || gating > 0
      ? [gating > 0 ? `${plural(gating, "finding")} to fix` : null,
         regressions > 0 ? plural(regressions, "regression") : null,
         errors > 0 ? plural(errors, "error") : null].filter((part) => part !== null).join(", ")
      : "no regressions";
  return `## ${icon} httpd upgrade check: ${verdictText}`;
}

function image(image: string, version: string | null, missing: boolean): string {
  if (missing) return `\`${image}\` (missing)`;
  return version === null ? `\`${image}\`` : `\`${image}\` (${markdownCell(version)})`;
}

function scenarioLabel(scenario: ReportScenario, anchored: boolean): string {
  // A fleet's config links land here.
  const anchor = anchored ? `<a id="config-${scenario.id}"></a>` : "";
  return `${anchor}\`${scenario.id}\` ${markdownCell(scenario.title)}`;
}

/** A run over several engines: what each ran (each scenario's details name its engine). */
function enginesLine(report: Report): string[] {
  if (report.engines === null) return [];
  const engines = report.engines.map(
    (engine) => `\`${engine.name}\` ${plural(engine.scenarios, "scenario")} (${engine.concurrency} at once)${engine.lost === null ? "" : `, lost: ${markdownCell(engine.lost)}`}`,
  );
  return [`Engines: ${engines.join(" · ")}`, ""];
}

function overviewTable(report: Report): string[] {
  // A version matrix: one column per candidate, each with what it answered and its own verdict.
  const columns = matrixColumns(report);
  const rows = report.scenarios.map((scenario) =>
    [
      scenarioLabel(scenario, Boolean(report.fleet)),
      markdownCell(scenario.seed.join(", ")),
      markdownCell(describeSide(scenario, "baseline")),
      ...(columns.length > 0
        ? columns.map((column) => {
            const entry = matrixEntryOf(scenario, column);
            return `${markdownCell(describeMatrixEntry(scenario, entry))}${entry ? ` · ${verdictLabel(entry.verdict)}` : ""}`;
          })
        : [markdownCell(describeSide(scenario, "candidate"))]),
      verdictLabel(scenario.verdict),
    ].join(" | "),
  );
  const candidates = columns.length > 0 ? columns.map((column) => markdownCell(columnHeading(column))) : ["candidate"];
  return [
    `| scenario | seed | baseline | ${candidates.join(" | ")} | verdict |`,
    `|---|---|---|${candidates.map(() => "---|").join("")}---|`,
    ...rows.map((row) => `| ${row} |`),
  ];
}

/** The candidates of a version matrix, one line each: label, axis, image and version, and their own verdicts. */
function candidatesLines(report: Report): string[] {
  const columns = matrixColumns(report);
  if (columns.length === 0) return [];
  return [
    ...columns.map((column) => {
      const counts = shownVerdicts(column.byVerdict).filter((v) => column.byVerdict[v] > 0).map((v) => `${column.byVerdict[v]} ${verdictLabel(v)}`).join(", ");
      return `- **${markdownCell(column.label)}**${column.axis ? ` (${column.axis})` : ""}: ${image(column.image, column.version, false)}: ${counts || "no scenarios"}`;
    }),
    "",
  ];
}

function severityCell(finding: ReportFinding): string {
  const label = markdownCell(severityLabel(finding));
  if (isSecurity(finding)) return `🔓 **${label.toUpperCase()}**`;
  if (finding.severity === "blocking") return `⛔ **${label}**`;
  return finding.gating ? `**${label}**` : label;
}

const CONFIG_LINES = 5;

/** The findings, worst first: what to fix, where (file:line), on which requests, and what showed it. Findings a
 * catalogue scenario predicts (it shows its own row) are named on one line after the table. */
function findingsSection(report: Report): string[] {
  const all = findingsWorstFirst(report);
  const ignored = Object.entries(report.summary.ignored.byRule);
  if (all.length === 0 && ignored.length === 0) return [];
  const news = all.filter(({ finding }) => !finding.predicted);
  const predicted = all.filter(({ finding }) => finding.predicted);
  const lines = ["### Findings", ""];
  if (news.length > 0) {
    lines.push("| severity | cause | config | requests | evidence | scenario |", "|---|---|---|---|---|---|");
    for (const { scenario, finding } of news) {
      const config = finding.config.slice(0, CONFIG_LINES).map((line) => `\`${place(line).replace(/[`|]/g, "")}\`${line.directive ? ` ${markdownCell(line.directive)}` : ""}`);
      if (finding.config.length > CONFIG_LINES) config.push(`and ${finding.config.length - CONFIG_LINES} more`);
      const confirmation = confirmationText(finding);
      const requests = finding.requests.count === 0 ? "" : `${finding.requests.count}: ${finding.requests.examples.map(markdownCell).join(", ")}`;
      lines.push(
        `| ${[
          severityCell(finding) + (finding.gating ? " ✗" : ""),
          `\`${finding.rule.replace(/[`|]/g, "")}\` ${markdownCell(finding.title)}`,
          config.join("<br>"),
          requests,
          [...finding.evidence.slice(0, 3).map(markdownCell), ...(confirmation ? [`*${confirmation}*`] : [])].join("<br>"),
          `\`${scenario.replace(/[`|]/g, "")}\``,
        ].join(" | ")} |`,
      );
    }
    lines.push("");
  }
  const notes: string[] = [];
  if (predicted.length > 0) {
    notes.push(`${plural(predicted.length, "finding")} predicted (by the scenarios or known differences): ${[...new Set(predicted.map(({ finding }) => `\`${finding.rule}\``))].join(", ")}.`);
  }
  if (ignored.length > 0) {
    const total = ignored.reduce((sum, [, count]) => sum + count, 0);
    notes.push(`Ignored by the ignore file: ${total} (${ignored.map(([rule, count]) => `\`${rule}\` ${count}`).join(", ")}).`);
  }
  if (notes.length > 0) lines.push(notes.join(" "), "");
  return lines;
}

/** A fleet's causes across its configs, worst first ("R9 in 143 configs"), then each config's verdict and worst
 * cause, linked to its row of the overview table. */
function fleetSection(report: Report): string[] {
  const fleet = report.fleet;
  if (!fleet) return [];
  const pathOf = new Map(fleet.configs.map((c) => [c.id, c.path]));
  const link = (id: string): string => `[\`${(pathOf.get(id) ?? id).replace(/[`|\]]/g, "")}\`](#config-${id})`;
  const lines = ["### Fleet", "", `${plural(fleet.configs.length, "config")}${fleet.duplicates > 0 ? ` (${fleet.duplicates} the same tree as another, run once)` : ""}.`, ""];
  if (report.summary.findings.length > 0) {
    lines.push("| severity | cause | configs |", "|---|---|---|");
    for (const cause of report.summary.findings) {
      const shown = cause.scenarios.slice(0, 10).map(link).join(", ") + (cause.scenarios.length > 10 ? `, and ${cause.scenarios.length - 10} more` : "");
      lines.push(`| ${markdownCell(severityLabel(cause))} | \`${cause.rule.replace(/[`|]/g, "")}\` ${markdownCell(cause.title)} | **${plural(cause.scenarios.length, "config")}**: ${shown} |`);
    }
    lines.push("");
  }
  lines.push("| config | verdict | worst cause | same tree as |", "|---|---|---|---|");
  for (const config of fleet.configs) {
    const worst = config.findings[0];
    const cause = config.error ?? (worst ? `${worst.rule} ${severityLabel(worst)}${config.findings.length > 1 ? ` and ${config.findings.length - 1} more` : ""}` : "");
    lines.push(`| ${link(config.id)} | ${verdictLabel(config.verdict)} | ${markdownCell(cause)} | ${config.sameAs ? link(config.sameAs) : ""} |`);
  }
  lines.push("");
  return lines;
}

function guideSection(report: Report): string[] {
  const lines = ["### Where the upgrade guide is wrong", ""];
  if (report.summary.guideWrong.length === 0) {
    lines.push("Nowhere: the real servers behaved as the guide says in every scenario that checks a claim.");
    return lines;
  }
  for (const row of report.summary.guideWrong) {
    const seed = row.seed.length > 0 ? ` (${markdownCell(row.seed.join(", "))})` : "";
    const notes = row.notes.length > 0 ? row.notes.map(markdownCell).join("; ") : "the real servers part from the guide";
    lines.push(`- \`${row.id}\`${seed}: ${notes}`);
  }
  return lines;
}

function differencesSection(scenario: ReportScenario, candidate: { label: string; verdict: Verdict } | null = null): string[] {
  const located = scenarioDifferences(scenario);
  if (located.length === 0) return [];
  const verdict = candidate?.verdict ?? scenario.verdict;
  const open = verdict === "regression" || verdict === "error" ? " open" : "";
  const count = plural(located.length, "difference");
  return [
    // An HTML block: Markdown is not interpreted up to the blank line, so this line is plain HTML.
    `<details${open}><summary><code>${escapeHtml(scenario.id)}</code> ${escapeHtml(scenario.title)}${candidate ? ` on ${escapeHtml(candidate.label)}` : ""}: ` +
      `<b>${verdict}</b>, ${count}${scenario.engine === null ? "" : `, on <code>${escapeHtml(scenario.engine)}</code>`}</summary>`,
    "",
    "| request | field | baseline | candidate | class | seed | reason |",
    "|---|---|---|---|---|---|---|",
    ...located.map(({ request, difference }) =>
      `| ${[
        request === null ? "(server)" : markdownCell(request),
        `\`${difference.field.replace(/\|/g, "\\|")}\``,
        valueCell(difference.baseline),
        valueCell(difference.candidate),
        verdictLabel(difference.class),
        markdownCell(difference.seed.join(", ")),
        markdownCell(difference.reason),
      ].join(" | ")} |`,
    ),
    "",
    "</details>",
  ];
}

/** How many counterexample cells a comment lists per scenario; the JSON and HTML reports have them all. */
const COUNTEREXAMPLES_SHOWN = 20;

function witnessCell(witness: ReportProbeCell["baseline"]): string {
  return witness === null ? "*none*" : `${markdownCell(witness.outcome.replace("-", " "))} \`${witness.answer.replace(/[`|]/g, "")}\``;
}

/** A probe run's cells: the count per class, then the counterexamples (worst class first), at most 20; led by a
 * blank line, as each scenario's part is. */
function probeCellsSection(scenario: ReportScenario): string[] {
  const probes = scenario.probes;
  if (probes === null) return [];
  const shown = counterexamples(probes);
  const out = ["", `**\`${scenario.id}\`** ${markdownCell(scenario.title)}: ${probeClassesText(probes)}; ${probes.proven} proven.`];
  if (shown.length === 0) return out;
  out.push("", "| class | method | vhost | path | client | credentials | baseline | candidate |", "|---|---|---|---|---|---|---|---|");
  for (const cell of shown.slice(0, COUNTEREXAMPLES_SHOWN)) {
    out.push(`| ${[
      isSecurityClass(cell.class) ? `🔓 **${cell.class}**` : cell.class,
      markdownCell(cell.method),
      markdownCell(cell.vhost),
      cell.path === null ? "*none*" : valueCell(cell.path),
      markdownCell(cell.client),
      markdownCell(cell.user === null ? cell.credentials : `${cell.credentials} ${cell.user}`),
      witnessCell(cell.baseline),
      witnessCell(cell.candidate),
    ].join(" | ")} |`);
  }
  if (shown.length > COUNTEREXAMPLES_SHOWN) out.push("", `… and ${shown.length - COUNTEREXAMPLES_SHOWN} more`);
  return out;
}

/** Per tree scenario and side: the lines the harness changed (with reasons) and the stubs it made, so a
 * reviewer sees every liberty taken with the operator's config. */
function treeSection(scenario: ReportScenario): string[] {
  const sides = (["baseline", "candidate"] as const).flatMap((side) => {
    const tree = scenario.servers[side]?.tree;
    return tree ? [{ side, tree }] : [];
  });
  if (sides.length === 0) return [];
  const out = ["", `<details><summary><code>${escapeHtml(scenario.id)}</code> ${escapeHtml(scenario.title)}</summary>`, ""];
  for (const { side, tree } of sides) {
    out.push(`**${side}**: ${tree.layout} tree staged at \`${tree.mount}\`; ${plural(tree.adaptations.length, "line")} changed, ${plural(tree.stubs.length, "stub")}.`, "");
    if (tree.adaptations.length > 0) {
      out.push("| where | now | why |", "|---|---|---|");
      for (const a of tree.adaptations) out.push(`| ${markdownCell(a.file === null ? "command line (-C)" : `${a.file}:${a.line}`)} | ${valueCell(a.now)} | ${markdownCell(a.reason)} |`);
      out.push("");
    }
    if (tree.stubs.length > 0) out.push(`Stubs: ${tree.stubs.map((stub) => `${stub.kind} \`${stub.target.replace(/`/g, "")}\``).join(", ")}.`, "");
  }
  out.push("</details>");
  return out;
}

export function renderMarkdownReport(report: Report): string {
  return [...markdownReportChunks(report, () => report.scenarios)].join("");
}

/** The report in pieces, for a writer that streams it: the same bytes as renderMarkdownReport. The head comes
 * from `frame` (its scenarios need what the overview and findings show: verdicts, findings, each side's
 * outcomes); the differences and the trees from `scenarios`, whole, read twice. */
export function* markdownReportChunks(frame: Report, scenarios: () => Iterable<ReportScenario>): Generator<string> {
  const report = frame;
  const { summary } = report;
  const counts = shownVerdicts(summary.byVerdict).map((verdict) => `${summary.byVerdict[verdict]} ${verdictLabel(verdict)}`).join(" · ");
  const notice = baselineMissingNotice(report);
  const lines = [
    headline(report),
    "",
    ...(notice ? [`> **${notice}**`, ""] : []),
    `${image(report.baseline.image, report.baseline.version, report.baseline.missing)} → ` +
      `${matrixColumns(report).length > 0 ? plural(report.candidates.length, "candidate") : image(report.candidate.image, report.candidate.version, false)} · ` +
      `${plural(summary.scenarios, "scenario")} in ${seconds(summary.durationMs)}`,
    "",
    ...candidatesLines(report),
    ...fleetSection(report),
    ...enginesLine(report),
    ...findingsSection(report),
    counts,
    "",
    `The guide holds in ${plural(summary.guideHolds, "scenario")}; ` +
      `expectations met: baseline ${summary.expectationsMet.baseline}, candidate ${summary.expectationsMet.candidate}; ` +
      `failed: baseline ${summary.expectationsFailed.baseline}, candidate ${summary.expectationsFailed.candidate}.`,
    "",
    ...overviewTable(report),
    "",
    ...guideSection(report),
  ];
  yield lines.join("\n");
  // Each part's heading only when it has a line.
  let heading: string | null = "\n\n### Differences";
  for (const scenario of scenarios()) {
    for (const line of detailsOf(scenario)) {
      yield `${heading ?? ""}\n${line}`;
      heading = null;
    }
  }
  heading = "\n\n### Probe cells";
  for (const scenario of scenarios()) {
    for (const line of probeCellsSection(scenario)) {
      yield `${heading ?? ""}\n${line}`;
      heading = null;
    }
  }
  heading = "\n\n### Configuration trees: what the harness changed and made";
  for (const scenario of scenarios()) {
    for (const line of treeSection(scenario)) {
      yield `${heading ?? ""}\n${line}`;
      heading = null;
    }
  }
  yield "\n";
}

/** A scenario's differences: against its candidate, then each further candidate of a matrix. */
function detailsOf(scenario: ReportScenario): string[] {
  const further = (scenario.matrix ?? []).slice(1).map((entry) =>
    differencesSection({ ...scenario, differences: entry.differences, requests: scenario.requests.map((request) => ({ ...request, differences: entry.requests.find((r) => r.name === request.name)?.differences ?? [] })) }, entry),
  );
  const first = scenario.matrix?.[0];
  return [differencesSection(scenario, first ?? null), ...further].flatMap((section) => (section.length === 0 ? [] : ["", ...section]));
}
