// What the CLI prints at the end of a run: one row per scenario, then a summary readable in ten seconds.
// Colour is a parameter (the caller decides from the TTY / NO_COLOR), so the output is a pure function of its input.
import Table from "cli-table3";
import picocolors from "picocolors";
import { truncate } from "./format-value.ts";
import type { Verdict } from "../judge/difference.ts";
import { baselineMissingNotice } from "./baseline-missing.ts";
import { columnHeading, describeMatrixEntry, describeSide, matrixColumns, matrixEntryOf } from "./describe-side.ts";
import type { Report, ReportCellClass } from "./report-model.ts";
import { type ClassPainter, isSecurityClass } from "./probe-classes.ts";
import { shownVerdicts } from "../judge/verdicts.ts";
import { plural, seconds } from "./units.ts";
import { confirmationText, findingsWorstFirst, isSecurity, placesText, requestsText, severityLabel } from "./finding-text.ts";
import type { ReportFinding } from "./report-model.ts";

export interface TerminalOptions {
  color: boolean;
}

type Colors = ReturnType<typeof picocolors.createColors>;
type Formatter = (text: string) => string;

function verdictColor(colors: Colors, verdict: Verdict): Formatter {
  switch (verdict) {
    case "regression":
      return (text) => colors.bold(colors.red(text));
    case "error":
      return (text) => colors.bold(colors.magenta(text));
    case "broken-on-both":
      return (text) => colors.bold(colors.yellow(text));
    case "unverified":
      return colors.yellow;
    case "expected-change":
      return colors.cyan;
    case "noise":
      return colors.dim;
    case "same":
      return colors.green;
  }
}

/** A probe run's security classes stand out in its summary, as security findings do. */
function classPainter(colors: Colors): ClassPainter {
  return (cls: ReportCellClass, text: string) => (isSecurityClass(cls) ? colors.bold(colors.magenta(text)) : text);
}

const WRAP = 48;

/** A list joined by ", " broken into lines of about `width` visible characters, so a probe run's classes do not
 * stretch the table past the terminal. Colour escapes do not count. */
function wrapList(text: string, width = WRAP): string {
  const lines: string[] = [];
  let line = "";
  for (const item of text.split(", ")) {
    const next = line === "" ? item : `${line}, ${item}`;
    if (line !== "" && next.replace(/\u001b\[[0-9;]*m/g, "").length > width) {
      lines.push(`${line},`);
      line = item;
    } else line = next;
  }
  return [...lines, line].join("\n");
}

function summaryBlock(report: Report, colors: Colors): string[] {
  const { summary } = report;
  const total = summary.scenarios;
  const paint = (verdict: Verdict, text: string) => verdictColor(colors, verdict)(text);
  const counts = shownVerdicts(summary.byVerdict).map((verdict) => paint(verdict, `${summary.byVerdict[verdict]} ${verdict}`)).join(", ");
  const differ = summary.byVerdict["expected-change"] + summary.byVerdict.regression;
  const lines = [
    colors.bold(`${plural(total, "scenario")} in ${seconds(summary.durationMs)}: `) + counts,
    `Behave as the guide says: ${summary.guideHolds} of ${total}` +
      (summary.guideWrong.length > 0 ? `; guide is wrong in ${summary.guideWrong.length}` : ""),
    `Differ between versions: ${differ} of ${total}` +
      ` (${summary.byVerdict["expected-change"]} predicted, ${summary.byVerdict.regression} not)`,
  ];
  const { rows } = summary;
  lines.push(
    colors.bold(`Rows of the upgrade guide exercised: ${rows.covered}. `) +
      `As the guide says: ${rows.guideHolds}. Versions differ: ${rows.differ}. ` +
      (rows.guideWrong.length > 0 ? colors.yellow(`Guide wrong: ${rows.guideWrong.length}`) : "Guide wrong: none"),
  );
  if (rows.guideWrong.length > 0) {
    lines.push(colors.yellow("Where the guide is wrong (row: what the real servers do; scenarios in the report):"));
    for (const row of rows.guideWrong) lines.push(`  ${row.row.padEnd(4)} ${truncate(row.note, 150)}`);
  }
  const regressions = report.scenarios.filter((scenario) => scenario.verdict === "regression");
  lines.push(
    regressions.length === 0
      ? colors.green("Regressions: none")
      : paint("regression", `Regressions: ${summary.regressions}`) +
          ` (${regressions.map((scenario) => scenario.id).join(", ")})`,
  );
  const errors = report.scenarios.filter((scenario) => scenario.verdict === "error");
  if (errors.length > 0) {
    lines.push(paint("error", `Errors: ${errors.length}`) + ` (${errors.map((scenario) => scenario.id).join(", ")})`);
  }
  return lines;
}

function severityColor(colors: Colors, finding: ReportFinding): Formatter {
  if (isSecurity(finding)) return (text) => colors.bold(colors.magenta(text));
  switch (finding.severity) {
    case "blocking":
      return (text) => colors.bold(colors.red(text));
    case "unexplained":
      return finding.gating ? colors.red : colors.yellow;
    case "behaviour":
      return colors.yellow;
    default:
      return colors.dim;
  }
}

/** The findings, worst first, before anything else: each cause with its config lines, requests and first
 * evidence line. Findings a catalogue scenario predicts (it shows its own row) are named on one line. */
function findingsBlock(report: Report, colors: Colors): string[] {
  const all = findingsWorstFirst(report);
  const ignored = Object.entries(report.summary.ignored.byRule);
  if (all.length === 0 && ignored.length === 0) return [];
  const news = all.filter(({ finding }) => !finding.predicted);
  const predicted = all.filter(({ finding }) => finding.predicted);
  const gating = news.filter(({ finding }) => finding.gating).length;
  const lines = [colors.bold(`Findings, worst first${gating > 0 ? ` (${plural(gating, "finding")} fail${gating === 1 ? "s" : ""} the run)` : ""}:`)];
  const width = Math.max(0, ...news.map(({ finding }) => severityLabel(finding).length));
  for (const { scenario, finding } of news) {
    const label = severityColor(colors, finding)(severityLabel(finding).toUpperCase().padEnd(width));
    const mark = finding.gating ? colors.red(" ✗") : "";
    lines.push(`  ${label}  ${colors.bold(finding.rule)} ${finding.title} (${scenario})${mark}`);
    const detail = [placesText(finding.config), requestsText(finding.requests), confirmationText(finding), finding.evidence[0] ?? ""].filter((part) => part !== "");
    if (detail.length > 0) lines.push(`  ${" ".repeat(width)}  ${truncate(detail.join(" · "), 200)}`);
  }
  if (predicted.length > 0) {
    const rules = [...new Set(predicted.map(({ finding }) => finding.rule))];
    lines.push(colors.dim(`  ${plural(predicted.length, "finding")} predicted (by the scenarios or known differences): ${rules.join(", ")}`));
  }
  if (ignored.length > 0) {
    const total = ignored.reduce((sum, [, count]) => sum + count, 0);
    lines.push(colors.dim(`  Ignored by the ignore file: ${total} (${ignored.map(([rule, count]) => `${rule} ${count}`).join(", ")})`));
  }
  return [...lines, ""];
}

export function renderTerminalTable(report: Report, options: TerminalOptions): string {
  const colors = picocolors.createColors(options.color);
  // cli-table3 would colour head and border through its own colour package; we colour (or not) ourselves.
  // A version matrix: one column per candidate, each with what it answered and its own verdict.
  const columns = matrixColumns(report);
  const table = new Table({
    head: ["scenario", "seed", "baseline", ...(columns.length > 0 ? columns.map(columnHeading) : ["candidate"]), "verdict"].map((title) => colors.bold(title)),
    style: { head: [], border: [] },
  });
  // A probe run's candidate is told by its cells' classes, not a status per probe (describe-side.ts).
  const paint = classPainter(colors);
  for (const scenario of report.scenarios) {
    const candidates = columns.length > 0
      ? columns.map((column) => {
          const entry = matrixEntryOf(scenario, column);
          const told = describeMatrixEntry(scenario, entry, paint);
          return `${scenario.probes === null ? told : wrapList(told)}${entry ? ` ${verdictColor(colors, entry.verdict)(entry.verdict)}` : ""}`;
        })
      : [scenario.probes === null ? describeSide(scenario, "candidate", paint) : wrapList(describeSide(scenario, "candidate", paint))];
    table.push([scenario.id, scenario.seed.join(", "), describeSide(scenario, "baseline"), ...candidates, verdictColor(colors, scenario.verdict)(scenario.verdict)]);
  }
  const header = `${report.baseline.image} (${report.baseline.missing ? "missing" : (report.baseline.version ?? "?")})` +
    (columns.length > 0
      ? ` -> ${columns.map((column) => `${column.label}${column.axis ? ` [${column.axis}]` : ""}${column.label === column.image ? "" : ` = ${column.image}`} (${column.version ?? "?"})`).join(", ")}`
      : ` -> ${report.candidate.image} (${report.candidate.version ?? "?"})`);
  const notice = baselineMissingNotice(report);
  const perCandidate = columns.map((column) => `  ${column.label}: ${shownVerdicts(column.byVerdict).filter((v) => column.byVerdict[v] > 0).map((v) => verdictColor(colors, v)(`${column.byVerdict[v]} ${v}`)).join(", ") || "no scenarios"}`);
  return [
    ...(notice ? [colors.bold(colors.yellow(notice))] : []),
    colors.bold(header),
    ...findingsBlock(report, colors),
    table.toString(),
    "",
    ...summaryBlock(report, colors),
    ...(perCandidate.length > 0 ? [colors.bold("Per candidate (each against the baseline alone):"), ...perCandidate] : []),
    "",
  ].join("\n");
}

/** One line per finished scenario during a long run: "[ 3/12] a6-server-status-denied  same". */
export function renderProgressLine(
  done: number,
  total: number,
  scenarioId: string,
  verdict: Verdict,
  options: TerminalOptions = { color: false },
  /** The engine that ran it, in a run over several (`--engines`). */
  engine: string | null = null,
): string {
  const colors = picocolors.createColors(options.color);
  const width = String(total).length;
  const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
  const counter = `[${String(done).padStart(width, " ")}/${total}]`;
  const where = engine === null ? "" : `  ${colors.dim(`on ${engine}`)}`;
  return `${colors.dim(counter)} ${String(percent).padStart(3, " ")}% ${scenarioId}  ${verdictColor(colors, verdict)(verdict)}${where}`;
}
