// `lint` for people: per tree, the findings grouped by file in reading order, each as
// `  LINE:COL  SEVERITY  RULE  message`, the directive as written and the fix; the include chain once per file;
// then what was ignored (by rule), what the baseline knew, the counts by severity and what --fail-on decided.
import pc from "picocolors";
import type { LintOutcome, TreeFinding } from "../rules/lint-outcome.ts";
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

function fileBlock(colors: Colors, file: string, findings: readonly TreeFinding[]): string[] {
  const chain = findings[0]!.includeChain;
  const head = chain.length > 0 ? `${colors.bold(file)}  ${colors.dim(`(included from ${[...chain].reverse().map((p) => `${p.file}:${p.line}`).join(" ← ")})`)}` : colors.bold(file);
  const places = findings.map((finding) => `${finding.line}:${finding.column}`);
  const placeWidth = Math.max(...places.map((place) => place.length));
  const severityWidth = Math.max(...findings.map((finding) => finding.severity.length));
  const ruleWidth = Math.max(...findings.map((finding) => finding.rule.length));
  const lines = [head];
  findings.forEach((finding, index) => {
    const pad = " ".repeat(2 + placeWidth + 2);
    lines.push(
      `  ${colors.dim(places[index]!.padEnd(placeWidth))}  ${paintSeverity(colors, finding.severity, finding.severity.padEnd(severityWidth))}  ${colors.bold(finding.rule.padEnd(ruleWidth))}  ${finding.message}`,
    );
    lines.push(`${pad}${colors.dim(finding.directive)}`);
    if (finding.fix !== null) lines.push(`${pad}${colors.green("fix:")} ${finding.fix.split("\n").join(`\n${pad}     `)}`);
  });
  return lines;
}

export function renderLintText(outcome: LintOutcome, options: LintTextOptions): string {
  const colors = pc.createColors(options.color);
  const out: string[] = [];
  for (const tree of outcome.trees) {
    const findings = outcome.findings.filter((finding) => finding.tree === tree.path);
    out.push(colors.bold(`${tree.path}`) + colors.dim(`  (layout ${tree.layout}, 2.4 target ${tree.targetModules}, ${plural(tree.files.length, "file")}, ${plural(findings.length, "finding")})`));
    // Findings come sorted by file in reading order; a file's findings stay together.
    const byFile = new Map<string, TreeFinding[]>();
    for (const finding of findings) byFile.set(finding.file, [...(byFile.get(finding.file) ?? []), finding]);
    for (const [file, list] of byFile) out.push(...fileBlock(colors, file, list));
    out.push("");
  }

  const counts = SEVERITIES.filter((severity) => outcome.bySeverity[severity] > 0).map((severity) => paintSeverity(colors, severity, `${outcome.bySeverity[severity]} ${severity}`));
  const parts = [outcome.findings.length === 0 ? "no findings" : `${plural(outcome.findings.length, "finding")}: ${counts.join(", ")}`];
  if (outcome.baseline !== null) parts.push(`${outcome.baseline.known} known in the baseline ${outcome.baseline.file}, not shown`);
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
