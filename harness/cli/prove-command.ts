// `prove ORIGINAL [PORT]`: ORIGINAL on the baseline (2.2), PORT (default: migrate's output) on the candidate
// (2.4), the probes generated from both, and the verdict: equivalent over N of M cells, or counterexamples.
// --format json gives the Proof (schema/prove.schema.json); --report writes the run reports as `run` does;
// --probes-out writes the probe set as a scenario file. Exit 0 equivalent, 1 counterexamples, 2 bad input,
// 3 environment.
import { writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { DEFAULT_BASELINE_IMAGE, DEFAULT_CANDIDATE_IMAGE } from "../engine/default-images.ts";
import { HarnessError } from "../errors.ts";
import { judgeRun } from "../judge/judge-run.ts";
import { migrateTree } from "../migrate/migrate-tree.ts";
import { probeScenarioFile } from "../plan/probes/probe-scenario-file.ts";
import { buildReport } from "../report/build-report.ts";
import { proofCells } from "../report/proof-cells.ts";
import { renderProofText } from "../report/proof-text.ts";
import { RULES } from "../rules/all-rules.ts";
import { EXIT } from "./exit-status.ts";
import { ignoreFileFor } from "./ignore-option.ts";
import { parseOptions } from "./parse-options.ts";
import { proofProbes } from "../judge/prove/proof-probes.ts";
import { interruptible } from "./interrupts.ts";
import { proveTrees } from "./prove-trees.ts";
import { parseReportTarget, type ReportTarget, writeReports } from "./report-targets.ts";
import { toolVersion } from "./tool-version.ts";
import { readTree } from "../conf/read-tree.ts";
import { parseLayout } from "./tree-inputs.ts";

export async function runProveCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    layout: { type: "string" },
    define: { type: "string", short: "D", multiple: true, default: [] },
    baseline: { type: "string" },
    candidate: { type: "string" },
    format: { type: "string", default: "text" },
    report: { type: "string", multiple: true, default: [] },
    ignore: { type: "string" },
    "probes-out": { type: "string" },
    "dry-run": { type: "boolean", default: false },
    "no-power": { type: "boolean", default: false },
  });
  if (positionals.length < 1 || positionals.length > 2) throw new HarnessError("HARNESS_USAGE", "prove takes ORIGINAL and, optionally, PORT (default: what migrate makes of ORIGINAL).");
  if (values.format !== "text" && values.format !== "json") throw new HarnessError("HARNESS_USAGE", `--format ${JSON.stringify(values.format)}: use text or json (the run reports: --report FORMAT:PATH).`);
  const targets: ReportTarget[] = (values.report as string[]).map(parseReportTarget);
  const defines = values.define as string[];
  const layout = parseLayout(values.layout);
  const [originalPath, portArg] = positionals as [string, string | undefined];
  const original = await readTree(originalPath, layout, defines);
  const port = portArg === undefined ? migrateTree(original, { defines, annotate: false, rollback: new Set() }).migrated : await readTree(portArg, layout, defines);
  const portPath = portArg ?? `${originalPath} (migrated)`;
  const ignore = await ignoreFileFor(values.ignore);

  if (values["probes-out"] !== undefined) {
    const file = resolve(values["probes-out"]);
    const { set } = proofProbes(original, port, defines);
    const rel = (p: string) => relative(dirname(file), resolve(p)) || ".";
    writeFileSync(file, probeScenarioFile(set, {
      id: "prove-probes",
      title: `probes of ${originalPath}${portArg ? ` and ${portArg}` : ""}`,
      tree: rel(originalPath),
      candidate: portArg === undefined ? null : rel(portArg),
      layout,
      defines,
    }));
    process.stderr.write(`wrote ${set.probes.length} probes (${set.cells.length} cells) to ${values["probes-out"]}${portArg === undefined ? " (the candidate runs the original there: give PORT to name a port)" : ""}\n`);
    if (values["dry-run"] === true) return EXIT.ok;
  }

  const baselineImage = values.baseline ?? (process.env.HTTPD_BASELINE_IMAGE || DEFAULT_BASELINE_IMAGE);
  const candidateImage = values.candidate ?? (process.env.HTTPD_CANDIDATE_IMAGE || DEFAULT_CANDIDATE_IMAGE);
  return interruptible(async (signal) => {
    const power = values["no-power"] !== true;
    const { proof, result } = await proveTrees({ original, originalPath, port, portPath, defines, baselineImage, candidateImage, ignore, signal, power });
    if (values.format === "json") process.stdout.write(`${JSON.stringify(proof, null, 2)}\n`);
    else process.stdout.write(`${renderProofText(proof, { baseline: `2.2 (${originalPath})`, candidate: `2.4 (${portPath})` })}\n`);
    if (targets.length > 0) {
      const built = buildReport(judgeRun(result, { rules: RULES, lint: new Map(), ignore }), toolVersion());
      // The proof's own cells (its classes, the unprobed ones, what power left unproven) are the matrix drawn.
      const report = { ...built, scenarios: built.scenarios.map((scenario, index) => (index === 0 ? { ...scenario, probes: proofCells(proof) } : scenario)) };
      writeReports(report, targets);
      for (const target of targets) process.stderr.write(`wrote ${target.format} report: ${target.path}\n`);
    }
    return proof.verdict === "equivalent" ? EXIT.ok : EXIT.regressions;
  });
}
