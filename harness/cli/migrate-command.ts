// `migrate PATH`: the 2.2 tree rewritten for 2.4 (migrate/migrate-tree.ts), as a new tree (--out DIR), a unified
// diff (--patch FILE, or stdout), and a summary of every change with its rule and state (text, JSON or SARIF).
// With --prove the port is proven on real servers (cli/prove-trees.ts); an access hunk a counterexample points at
// is rolled back to 2.2's lines with mod_access_compat and marked needs action, and the proof runs again, until
// it holds or nothing is left to roll back. Exit 0 when nothing needs action, 1 when something does (or the
// proof still fails), 2 bad input, 3 environment.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { DEFAULT_BASELINE_IMAGE, DEFAULT_CANDIDATE_IMAGE } from "../engine/default-images.ts";
import { HarnessError } from "../errors.ts";
import { proofVerdictLine } from "../judge/prove/judge-proof.ts";
import type { Proof } from "../judge/prove/proof.ts";
import { migrateTree } from "../migrate/migrate-tree.ts";
import type { Migration } from "../migrate/migration.ts";
import { hunksToRollBack, isAccessChange } from "../migrate/rollback-choice.ts";
import { migrationCounts, migrationDocument, migrationSarif, renderMigrationText } from "../report/migration-report.ts";
import { EXIT } from "./exit-status.ts";
import { ignoreFileFor } from "./ignore-option.ts";
import { treeLabel } from "./lint-command.ts";
import { parseOptions } from "./parse-options.ts";
import { toolVersion } from "./tool-version.ts";
import { treeDiff } from "./tree-diff.ts";
import { readTree } from "../conf/read-tree.ts";
import { parseLayout } from "./layout-option.ts";
import { writeTree } from "./write-tree.ts";

const FORMATS = ["text", "json", "sarif"] as const;
const MAX_ROUNDS = 6;

export async function runMigrateCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    out: { type: "string" },
    patch: { type: "string" },
    layout: { type: "string" },
    define: { type: "string", short: "D", multiple: true, default: [] },
    annotate: { type: "boolean", default: false },
    format: { type: "string", default: "text" },
    prove: { type: "boolean", default: false },
    baseline: { type: "string" },
    candidate: { type: "string" },
    ignore: { type: "string" },
  });
  const format = values.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new HarnessError("HARNESS_USAGE", `--format ${JSON.stringify(values.format)}: use text, json or sarif.`);
  if (positionals.length !== 1) throw new HarnessError("HARNESS_USAGE", "migrate takes one PATH: the 2.2 configuration tree (a directory or one file).");
  if (values.out !== undefined && values.patch !== undefined) throw new HarnessError("HARNESS_USAGE", "give --out DIR or --patch FILE, not both.");
  const path = positionals[0]!;
  const defines = values.define as string[];
  const tree = await readTree(path, parseLayout(values.layout), defines);
  const label = treeLabel(path, process.cwd());
  const options = { defines, annotate: values.annotate === true };

  let migration: Migration = migrateTree(tree, { ...options, rollback: new Set() });
  let proof: Proof | null = null;
  if (values.prove === true) {
    const rollback = new Set<string>();
    const ignore = await ignoreFileFor(values.ignore);
    const baselineImage = values.baseline ?? (process.env.HTTPD_BASELINE_IMAGE || DEFAULT_BASELINE_IMAGE);
    const candidateImage = values.candidate ?? (process.env.HTTPD_CANDIDATE_IMAGE || DEFAULT_CANDIDATE_IMAGE);
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      // Imported with --prove only: a migration alone never loads the engine's packages.
      const { proveTrees } = await import("./prove-trees.ts");
      const result = await proveTrees({ original: tree, originalPath: path, port: migration.migrated, portPath: `${path} (migrated)`, defines, baselineImage, candidateImage, ignore });
      proof = result.proof;
      process.stderr.write(`prove, round ${round}: ${proofVerdictLine(proof)}\n`);
      if (proof.verdict === "equivalent") break;
      const back = hunksToRollBack(migration.changes, proof, rollback);
      if (back.length === 0) break;
      for (const id of back) rollback.add(id);
      process.stderr.write(`rolled back ${back.join(", ")}: kept as 2.2 wrote them, with mod_access_compat\n`);
      migration = migrateTree(tree, { ...options, rollback });
    }
    const holds = proof?.verdict === "equivalent";
    migration = {
      ...migration,
      changes: migration.changes.map((c) => {
        if (!isAccessChange(c) || c.status !== "fixed") return c;
        return holds ? { ...c, proven: true } : { ...c, proven: null, status: "needs inspection", why: `${c.why} (not proven: the proof still has counterexamples elsewhere)` };
      }),
    };
  }

  const diff = treeDiff(tree.source, migration.migrated.source);
  if (values.out !== undefined) writeTree(migration.migrated.source, values.out);
  if (values.patch !== undefined) writeText(values.patch, diff);
  const version = toolVersion();
  const summary = format === "json"
    ? `${JSON.stringify(migrationDocument(migration, label, version), null, 2)}\n`
    : format === "sarif"
      ? `${JSON.stringify(migrationSarif(migration, version, (file) => `${label.replace(/\/$/, "")}/${file}`), null, 2)}\n`
      : `${renderMigrationText(migration, label)}${proof ? `\n\nproof: ${proofVerdictLine(proof)}` : ""}\n`;
  if (values.out === undefined && values.patch === undefined) {
    // The diff is the output; a text summary goes beside it on stderr, a document stays on stdout after it only
    // when asked for.
    process.stdout.write(diff);
    if (format === "text") process.stderr.write(summary);
    else process.stdout.write(summary);
  } else {
    process.stdout.write(summary);
    if (values.out !== undefined) process.stderr.write(`wrote the migrated tree: ${values.out}\n`);
    if (values.patch !== undefined) process.stderr.write(`wrote the patch: ${values.patch}\n`);
  }
  const counts = migrationCounts(migration);
  return counts["needs action"] > 0 || (proof !== null && proof.verdict !== "equivalent") ? EXIT.regressions : EXIT.ok;
}

/** Written beside the target and renamed, so a failed write never leaves half a patch. */
function writeText(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new HarnessError("HARNESS_REPORT_WRITE", `could not write ${path}: ${(error as Error).message}`, { cause: error });
  }
}
