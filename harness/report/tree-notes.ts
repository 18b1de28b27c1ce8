// The terminal's word on configuration trees, under the table: per tree scenario and side, how many lines the
// harness changed and how many stubs it made, and where the detail is. An operator must never be surprised by
// what the harness did to their config.
import type { Report } from "./report-model.ts";
import { plural } from "./units.ts";

export function renderTreeNotes(report: Report): string {
  const lines: string[] = [];
  for (const scenario of report.scenarios) {
    const parts = (["baseline", "candidate"] as const).flatMap((side) => {
      const tree = scenario.servers[side]?.tree;
      if (!tree) return [];
      const problems = tree.problems.filter((p) => p.severity !== "warning").length;
      return [`${side} ${plural(tree.adaptations.length, "line")} changed, ${plural(tree.stubs.length, "stub")}${problems ? `, ${plural(problems, "problem")}` : ""}`];
    });
    if (parts.length > 0) lines.push(`  ${scenario.id}: ${parts.join("; ")}`);
  }
  if (lines.length === 0) return "";
  return ["Configuration trees (what the harness changed and made up is listed, with reasons, in the JSON, HTML and Markdown reports):", ...lines].join("\n");
}
