import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { HarnessError } from "../errors.ts";
import { renderHtmlReport } from "../report/html-report.ts";
import { renderJsonReport } from "../report/json-report.ts";
import { renderJunitReport } from "../report/junit-report.ts";
import { renderMarkdownReport } from "../report/markdown-report.ts";
import type { Report } from "../report/report-model.ts";

const RENDERERS = {
  json: renderJsonReport,
  junit: renderJunitReport,
  markdown: renderMarkdownReport,
  html: renderHtmlReport,
} as const;

export type ReportFormat = keyof typeof RENDERERS;

export interface ReportTarget {
  format: ReportFormat;
  path: string;
}

/** Parses `--report FORMAT:PATH` before anything runs, so a typo costs no container. */
export function parseReportTarget(value: string): ReportTarget {
  const match = /^([a-z]+):(.+)$/.exec(value);
  const format = match?.[1];
  if (!match || !format || !Object.hasOwn(RENDERERS, format)) {
    throw new HarnessError("HARNESS_USAGE", `--report ${JSON.stringify(value)} is not FORMAT:PATH.`, {
      hint: `FORMAT is one of ${Object.keys(RENDERERS).join(", ")}; for example --report json:reports/run.json`,
    });
  }
  return { format: format as ReportFormat, path: resolve(match[2]!) };
}

/** Renders every report first, then writes each to a temporary file renamed into place: a report is either
 * whole or not there. */
export function writeReports(report: Report, targets: ReportTarget[]): void {
  const rendered = targets.map((target) => ({ target, text: RENDERERS[target.format](report) }));
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
