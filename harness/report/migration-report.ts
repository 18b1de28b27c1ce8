// A migration's summary, as text (grouped by state: what needs action first), the JSON contract
// (schema/migrate.schema.json) and SARIF 2.1.0 (one result per change, its state in the result's properties and
// its replacement in `fixes`). Formats only: migrate/ decided everything.
import type { Migration, MigrationChange } from "../migrate/migration.ts";
import { TOOL_NAME } from "./lint-json.ts";

const ORDER: MigrationChange["status"][] = ["needs action", "needs inspection", "fixed"];

export function migrationCounts(migration: Migration): Record<MigrationChange["status"], number> {
  const counts = { fixed: 0, "needs action": 0, "needs inspection": 0 };
  for (const change of migration.changes) counts[change.status]++;
  return counts;
}

export function renderMigrationText(migration: Migration, label: string): string {
  const counts = migrationCounts(migration);
  const out = [`${label}: ${migration.changes.length} change${migration.changes.length === 1 ? "" : "s"} (${counts.fixed} fixed, ${counts["needs action"]} need action, ${counts["needs inspection"]} need inspection)`];
  for (const status of ORDER) {
    const changes = migration.changes.filter((c) => c.status === status);
    if (changes.length === 0) continue;
    out.push("", `${status}:`);
    for (const c of changes) {
      const proven = c.proven === true ? " [proven]" : c.proven === false ? " [refuted, rolled back]" : "";
      out.push(`  ${c.span.file}:${c.span.line}  ${c.rule}${proven}  ${c.why}`);
      for (const line of c.before) out.push(`      - ${line}`);
      for (const line of c.after) out.push(`      + ${line}`);
    }
  }
  return out.join("\n");
}

export interface MigrationDocument {
  schemaVersion: "1.0";
  tool: { name: string; version: string };
  tree: string;
  layout: string;
  counts: Record<MigrationChange["status"], number>;
  changes: Array<MigrationChange & { file: string; line: number }>;
}

export function migrationDocument(migration: Migration, label: string, version: string): MigrationDocument {
  return {
    schemaVersion: "1.0",
    tool: { name: TOOL_NAME, version },
    tree: label,
    layout: migration.original.layout,
    counts: migrationCounts(migration),
    changes: migration.changes.map((c) => ({ ...c, file: c.span.file, line: c.span.line })),
  };
}

const LEVEL: Record<MigrationChange["status"], "error" | "warning" | "note"> = { "needs action": "error", "needs inspection": "warning", fixed: "note" };

/** SARIF: a change of one line is a region replacement; a change of a section replaces the file with the migrated
 * one (the section's new lines need not line up with the old ones). `uriOf` names a tree file for the log. */
export function migrationSarif(migration: Migration, version: string, uriOf: (file: string) => string): object {
  const rules = [...new Set(migration.changes.map((c) => c.rule))].sort();
  const fileText = (file: string): string | null => migration.migrated.source.files.get(migration.migrated.source.links.get(file) ?? file)?.toString("utf8") ?? null;
  const originalLines = (file: string): number => (migration.original.source.files.get(migration.original.source.links.get(file) ?? file)?.toString("utf8") ?? "").split("\n").length;
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: { driver: { name: TOOL_NAME, version, informationUri: "https://httpd.apache.org/docs/2.4/upgrading.html", rules: rules.map((id) => ({ id, shortDescription: { text: `migration rule ${id}` } })) } },
      results: migration.changes.map((c) => {
        const single = c.span.line === c.span.endLine && c.before.length <= 1 && migration.original.source.files.has(c.span.file);
        const text = fileText(c.span.file);
        const fixes = c.status === "needs action" ? [] : single
          ? [{ description: { text: `${c.status}: ${c.why}` }, artifactChanges: [{ artifactLocation: { uri: uriOf(c.span.file) }, replacements: [{ deletedRegion: c.before.length === 0 ? { startLine: c.span.line + 1, startColumn: 1, endLine: c.span.line + 1, endColumn: 1 } : { startLine: c.span.line, endLine: c.span.endLine }, insertedContent: { text: c.after.length === 0 ? "" : `${c.after.join("\n")}\n` } }] }] }]
          : text === null ? [] : [{ description: { text: `${c.status}: ${c.why} (the whole migrated file)` }, artifactChanges: [{ artifactLocation: { uri: uriOf(c.span.file) }, replacements: [{ deletedRegion: { startLine: 1, endLine: Math.max(1, originalLines(c.span.file)) }, insertedContent: { text } }] }] }];
        return {
          ruleId: c.rule,
          level: LEVEL[c.status],
          message: { text: `${c.status}: ${c.why}` },
          locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(c.span.file) }, region: { startLine: c.span.line, endLine: Math.max(c.span.line, c.span.endLine) } } }],
          ...(fixes.length > 0 ? { fixes } : {}),
          properties: { status: c.status, proven: c.proven, changeId: c.id, before: c.before, after: c.after },
        };
      }),
    }],
  };
}
