// What `fleet` and `merge-reports` print: the fleet's causes across its configs, worst first ("R9 blocking in 3
// configs"), then one line per config with its verdict and worst cause; and the progress line while it runs
// (done/total, rate, time left). Format only: the causes and verdicts come from the report.
import picocolors from "picocolors";
import type { Report, ReportFleetConfig } from "./report-model.ts";
import { isSecurity, severityLabel } from "./finding-text.ts";
import { plural, seconds } from "./units.ts";

export interface FleetTextOptions {
  color: boolean;
}

export function renderFleetText(report: Report, options: FleetTextOptions): string {
  const fleet = report.fleet;
  if (!fleet) return "";
  const colors = picocolors.createColors(options.color);
  const lines: string[] = [];
  const copies = fleet.duplicates > 0 ? ` (${fleet.duplicates} the same tree as another, run once)` : "";
  lines.push(colors.bold(`fleet: ${plural(fleet.configs.length, "config")}${copies}, ${seconds(report.summary.durationMs)}`));
  const causes = report.summary.findings;
  if (causes.length > 0) {
    lines.push("", colors.bold("causes across the fleet, worst first:"));
    const width = Math.max(...causes.map((c) => severityLabel(c).length));
    const pathOf = new Map(fleet.configs.map((c) => [c.id, c.path]));
    const ruleWidth = Math.min(16, Math.max(...causes.map((c) => c.rule.length)));
    for (const cause of causes) {
      const label = severityLabel(cause).padEnd(width, " ");
      const paths = cause.scenarios.map((id) => pathOf.get(id) ?? id);
      const shown = paths.slice(0, 4).join(", ") + (paths.length > 4 ? `, … ${paths.length - 4} more` : "");
      const text = `  ${label}  ${cause.rule.padEnd(ruleWidth, " ")} in ${plural(cause.scenarios.length, "config")} (${shown})  ${cause.title}`;
      lines.push(isSecurity(cause) || cause.severity === "blocking" ? colors.red(text) : text);
    }
  }
  lines.push("", colors.bold("configs:"));
  const width = Math.max(8, ...fleet.configs.map((c) => c.verdict.length));
  const pathWidth = Math.min(48, Math.max(...fleet.configs.map((c) => c.path.length)));
  for (const config of fleet.configs) {
    const worst = config.findings[0];
    const cause = config.error ?? (worst ? `${causeLabel(worst)}${config.findings.length > 1 ? ` and ${config.findings.length - 1} more` : ""}` : "no cause");
    const same = config.sameAs ? colors.dim(` (same tree as ${config.sameAs})`) : "";
    const engine = config.engine ? colors.dim(` [${config.engine}]`) : "";
    lines.push(`  ${config.verdict.padEnd(width, " ")}  ${config.path.padEnd(pathWidth, " ")}  ${cause}${same}${engine}`);
  }
  return lines.join("\n");
}

/** "R9 blocking"; a difference no rule explains is just "unexplained". */
function causeLabel(finding: ReportFleetConfig["findings"][number]): string {
  const severity = severityLabel(finding);
  return finding.rule === severity ? severity : `${finding.rule} ${severity}`;
}

/** "[ 3/9]  33% configs/app-htaccess  regression  0.21 configs/s, about 29 s left": the rate counts the configs
 * this run finished, not those a resumed run took from its journal. */
export function renderFleetProgress(
  progress: { done: number; total: number; fromJournal: number; label: string; verdict: string; sinceStartMs: number },
  options: FleetTextOptions,
): string {
  const colors = picocolors.createColors(options.color);
  const { done, total } = progress;
  const width = String(total).length;
  const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
  const rate = progress.sinceStartMs > 0 ? (done - progress.fromJournal) / (progress.sinceStartMs / 1000) : 0;
  const left = rate > 0 && done < total ? `, about ${seconds(((total - done) / rate) * 1000)} left` : "";
  return `${colors.dim(`[${String(done).padStart(width, " ")}/${total}]`)} ${String(percent).padStart(3, " ")}% ${progress.label}  ${progress.verdict}  ${rate.toFixed(2)} configs/s${left}`;
}

/** What discovery found under a fleet's directories and did not take, by reason, with the first few of each. */
export function renderPassedOver(passed: ReadonlyArray<{ label: string; reason: string }>, shown = 5): string {
  const byReason = new Map<string, string[]>();
  for (const entry of passed) byReason.set(entry.reason, [...(byReason.get(entry.reason) ?? []), entry.label]);
  const lines = [`passed over ${passed.length} ${passed.length === 1 ? "entry" : "entries"} (not configs):`];
  for (const [reason, labels] of byReason) lines.push(`  ${labels.length} × ${reason}: ${labels.slice(0, shown).join(", ")}${labels.length > shown ? `, … and ${labels.length - shown} more` : ""}`);
  return lines.join("\n");
}
