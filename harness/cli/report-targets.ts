import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { HarnessError } from "../errors.ts";
import { htmlReportChunks, renderHtmlReport } from "../report/html-report.ts";
import { jsonReportChunks, renderJsonReport } from "../report/json-report.ts";
import { junitReportChunks, renderJunitReport } from "../report/junit-report.ts";
import { markdownReportChunks, renderMarkdownReport } from "../report/markdown-report.ts";
import type { Report, ReportScenario } from "../report/report-model.ts";

const RENDERERS = {
  json: renderJsonReport,
  junit: renderJunitReport,
  markdown: renderMarkdownReport,
  html: renderHtmlReport,
} as const;

export type ReportFormat = keyof typeof RENDERERS;

/** Each format in pieces (the same bytes as its renderer): the head from a frame whose scenarios may be outlines,
 * the scenarios' details from `scenarios`, read as they are written (a fleet's, from its journal). */
const CHUNKS: Record<ReportFormat, (frame: Report, scenarios: () => Iterable<ReportScenario>) => Iterable<string>> = {
  json: (frame, scenarios) => jsonReportChunks(frame, scenarios()),
  junit: (frame, scenarios) => junitReportChunks(frame, scenarios()),
  markdown: markdownReportChunks,
  html: (frame, scenarios) => htmlReportChunks(frame, scenarios()),
};

export function reportChunks(frame: Report, format: ReportFormat, scenarios: () => Iterable<ReportScenario>): Iterable<string> {
  return CHUNKS[format](frame, scenarios);
}

/** What `fleet` and `merge-reports` write besides the run's reports: lint's findings as SARIF, and the blob. */
export const FLEET_FORMATS = ["sarif", "blob"] as const;
export type FleetFormat = ReportFormat | (typeof FLEET_FORMATS)[number];

export interface ReportTarget<F extends string = ReportFormat> {
  format: F;
  path: string;
}

/** Parses `--report FORMAT:PATH` before anything runs, so a typo costs no container. */
export function parseReportTarget(value: string): ReportTarget {
  return parseTargetOf(value, Object.keys(RENDERERS) as ReportFormat[]);
}

/** The same, for a command whose reports come in other formats too (fleet: sarif, blob). */
export function parseTargetOf<F extends string>(value: string, formats: readonly F[]): ReportTarget<F> {
  const match = /^([a-z]+):(.+)$/.exec(value);
  const format = match?.[1];
  if (!match || !format || !(formats as readonly string[]).includes(format)) {
    throw new HarnessError("HARNESS_USAGE", `--report ${JSON.stringify(value)} is not FORMAT:PATH.`, {
      hint: `FORMAT is one of ${formats.join(", ")}; for example --report json:reports/run.json`,
    });
  }
  return { format: format as F, path: resolve(match[2]!) };
}

/** The formats of `--report` for a run (json, junit, markdown, html). */
export const REPORT_FORMATS = Object.keys(RENDERERS) as ReportFormat[];

/** One report rendered from a Report. */
export function renderReport(report: Report, format: ReportFormat): string {
  return RENDERERS[format](report);
}

/** Renders every report first, then writes each to a temporary file renamed into place: a report is either
 * whole or not there. */
export function writeReports(report: Report, targets: ReportTarget[]): void {
  writeRendered(targets.map((target) => ({ target, text: RENDERERS[target.format](report) })));
}

export { stageReport, type StagedReport } from "./staged-report.ts";

/** Writes texts already rendered, each whole or not at all. */
export function writeRendered(rendered: ReadonlyArray<{ target: ReportTarget<string>; text: string }>): void {
  for (const { target, text } of rendered) {
    const temporary = `${target.path}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(target.path), { recursive: true });
      writeFileSync(temporary, text);
      renameSync(temporary, target.path);
    } catch (cause) {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // the directory itself could not be made: there is no temporary file
      }
      throw new HarnessError("HARNESS_REPORT_WRITE", `Could not write the ${target.format} report to ${target.path}.`, {
        cause,
        hint: "Check that the directory is writable.",
      });
    }
  }
}
