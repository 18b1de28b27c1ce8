// `lint` for people: per tree, each finding (a cause) once, as `  SEVERITY  RULE  message`, then its first places
// (`file:line:column`, the directive as written, the include chain that reached the file, and under it what the
// access model predicts there when the rule makes such a claim), "and N more" past PLACES_SHOWN, and the fix; then what was ignored (by rule), what the baseline knew, the counts by severity and
// what --fail-on decided.
import pc from "picocolors";
import type { LintCause, LintOutcome } from "../rules/lint-outcome.ts";
import { SEVERITIES, type Severity } from "../rules/severity.ts";

export interface LintTextOptions {
  /** Colour (a terminal without NO_COLOR). */
  color: boolean;
}

type Colors = ReturnType<typeof pc.createColors>;

function paintSeverity(colors: Colors, severity: Severity, text: string): string {
  switch (severity) {
    case "blocking":
      return colors.bold(colors.red(text));
    case "security":
      return colors.bold(colors.magenta(text));
    case "behaviour":
      return colors.yellow(text);
    case "deprecated":
      return colors.cyan(text);
    case "expected":
      return colors.dim(text);
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** How many places a finding lists before "and N more" (--format json lists every one). */
export const PLACES_SHOWN = 5;

function treeFindings(colors: Colors, findings: readonly LintCause[]): string[] {
  if (findings.length === 0) return [];
  const severityWidth = Math.max(...findings.map((finding) => finding.severity.length));
  const ruleWidth = Math.max(...findings.map((finding) => finding.rule.length));
  const pad = "      ";
  const lines: string[] = [];
  for (const finding of findings) {
    lines.push(`  ${paintSeverity(colors, finding.severity, finding.severity.padEnd(severityWidth))}  ${colors.bold(finding.rule.padEnd(ruleWidth))}  ${finding.message}`);
    for (const place of finding.places.slice(0, PLACES_SHOWN)) {
      const chain = place.includeChain.length > 0 ? `  ${colors.dim(`(included from ${[...place.includeChain].reverse().map((p) => `${p.file}:${p.line}`).join(" ← ")})`)}` : "";
      lines.push(`${pad}${place.file}:${place.line}:${place.column}  ${colors.dim(place.directive)}${chain}`);
      if (place.predicted !== undefined) lines.push(`${pad}  ${place.predicted}`);
    }
    const more = finding.places.length - PLACES_SHOWN;
    if (more > 0) lines.push(`${pad}${colors.dim(`and ${plural(more, "more place")} (--format json lists every one)`)}`);
    if (finding.fix !== null) lines.push(`${pad}${colors.green("fix:")} ${finding.fix.split("\n").join(`\n${pad}     `)}`);
  }
  return lines;
}

function counted(findings: number, places: number): string {
  return `${plural(findings, "finding")}${places > findings ? ` at ${plural(places, "place")}` : ""}`;
}

export function renderLintText(outcome: LintOutcome, options: LintTextOptions): string {
  const colors = pc.createColors(options.color);
  const out: string[] = [];
  for (const tree of outcome.trees) {
    const findings = outcome.findings.filter((finding) => finding.tree === tree.path);
    const places = findings.reduce((sum, finding) => sum + finding.places.length, 0);
    out.push(colors.bold(`${tree.path}`) + colors.dim(`  (layout ${tree.layout}, 2.4 target ${tree.targetModules}, ${plural(tree.files.length, "file")}, ${counted(findings.length, places)})`));
    // Findings come in the order of their first places: files in reading order, then line.
    out.push(...treeFindings(colors, findings));
    out.push("");
  }

  const counts = SEVERITIES.filter((severity) => outcome.bySeverity[severity] > 0).map((severity) => paintSeverity(colors, severity, `${outcome.bySeverity[severity]} ${severity}`));
  const parts = [outcome.findings.length === 0 ? "no findings" : `${counted(outcome.findings.length, outcome.places)}: ${counts.join(", ")}`];  if (outcome.baseline !== null) parts.push(`${outcome.baseline.known} known in the baseline ${outcome.baseline.file}, not shown`);
  if (outcome.ignored.file !== null) {
    const byRule = Object.entries(outcome.ignored.byRule).map(([rule, count]) => `${rule} ${count}`);
    parts.push(`${outcome.ignored.total} ignored by ${outcome.ignored.file}${byRule.length > 0 ? ` (${byRule.join(", ")})` : ""}`);
  }
  out.push(parts.join("; "));
  out.push(
    outcome.failing > 0
      ? colors.red(`FAIL: ${plural(outcome.failing, "finding")} at ${outcome.failOn} or above (--fail-on ${outcome.failOn})`)
      : colors.green(`PASS: nothing at ${outcome.failOn} or above (--fail-on ${outcome.failOn})`),
  );
  return `${out.join("\n")}\n`;
}
