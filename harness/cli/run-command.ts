import { HarnessError } from "../errors.ts";
import { judgeRun } from "../judge/judge-run.ts";
import { runHarness } from "../observe/run-harness.ts";
import { buildReport } from "../report/build-report.ts";
import { renderTerminalTable } from "../report/terminal-table.ts";
import { renderTreeNotes } from "../report/tree-notes.ts";
import { RULES } from "../rules/all-rules.ts";
import type { TriageInputs } from "../judge/triage.ts";
import { enginesOption } from "./engines-option.ts";
import { EXIT, runExitStatus } from "./exit-status.ts";
import { ignoreFileFor } from "./ignore-option.ts";
import { labelSides, runImages } from "./matrix-option.ts";
import { interruptible } from "./interrupts.ts";
import { printProgress, timingOptions } from "./run-progress.ts";
import { parseOptions } from "./parse-options.ts";
import { runInputs, treeLint } from "./tree-inputs.ts";
import { runTargetModules } from "./target-modules-option.ts";
import { withTreeProbes } from "./tree-probes.ts";
import { printPlan } from "./plan-command.ts";
import { parseReportTarget, type ReportTarget, writeReports } from "./report-targets.ts";
import { toolVersion } from "./tool-version.ts";
import { repoPath } from "../repo-paths.ts";

const DEMO_REPORT_DIR = repoPath("reports/demo/");

export async function runRunCommand(args: string[], mode: { demo: boolean }): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    baseline: { type: "string" },
    candidate: { type: "string", multiple: true },
    matrix: { type: "string" },
    report: { type: "string", multiple: true, default: [] },
    "allow-missing-baseline": { type: "boolean", default: false },
    concurrency: { type: "string" },
    "no-noise": { type: "boolean", default: false },
    "dry-run": { type: "boolean", default: false },
    "scenario-time-limit": { type: "string" },
    "time-limit": { type: "string" },
    versions: { type: "string" },
    side: { type: "string" },
    format: { type: "string" },
    color: { type: "boolean", default: process.stdout.isTTY === true },
    config: { type: "string", multiple: true, default: [] },
    "candidate-config": { type: "string", multiple: true, default: [] },
    layout: { type: "string" },
    define: { type: "string", short: "D", multiple: true, default: [] },
    ignore: { type: "string" },
    requests: { type: "string", default: "probes" },
    // Before probes were the default: kept so that command lines that asked for them still run.
    probes: { type: "boolean", default: false },
    engines: { type: "string" },
    "target-modules": { type: "string" },
  });
  // Unset: sized from the engine's CPUs and memory (engine/engine-capacity.ts).
  const concurrency = values.concurrency === undefined ? null : Number(values.concurrency);
  if (concurrency !== null && (!Number.isInteger(concurrency) || concurrency < 1)) {
    throw new HarnessError("HARNESS_USAGE", `--concurrency ${JSON.stringify(values.concurrency)} is not a positive whole number.`);
  }
  // Parsed before anything runs: a bad list is a usage error, exit 2.
  const engines = enginesOption(values.engines);
  const targets: ReportTarget[] = (values.report as string[]).map(parseReportTarget);
  if (mode.demo && targets.length === 0) {
    for (const [format, file] of [["json", "report.json"], ["html", "report.html"], ["markdown", "report.md"], ["junit", "junit.xml"]] as const) {
      targets.push({ format, path: `${DEMO_REPORT_DIR}${file}` });
    }
  }
  // The images are checked before anything else reads a file: a broken matrix file costs nothing.
  const images = await runImages(values);
  if (values["dry-run"] === true) return printPlan(positionals, { ...values, baseline: images.baseline.image, candidate: images.candidates[0]!.image });
  // Bad scenario files and config trees stop the run here, before any container exists.
  // Each --config tree gets prove's probes and their world unless --requests smoke asks for GET / per vhost.
  const requests = values.requests;
  if (requests !== "probes" && requests !== "smoke") throw new HarnessError("HARNESS_USAGE", `--requests ${JSON.stringify(requests)}: use probes (the default) or smoke.`);
  // `--target-modules`: lint's option; around a fragment the candidate also loads what it names.
  const target = await runTargetModules(values["target-modules"]);
  const { scenarios, trees } = await runInputs(positionals, values, requests === "probes" || values.probes === true ? withTreeProbes : undefined, target?.candidate);
  // What triage reads besides the observations: lint's findings on the trees run, and the fleet's ignore file.
  const triage: TriageInputs = { rules: RULES, lint: treeLint(scenarios, trees, target?.lint ?? null), ignore: await ignoreFileFor(values.ignore) };
  if (triage.ignore) process.stderr.write(`ignore file: ${triage.ignore.path} (${triage.ignore.entries.length} ${triage.ignore.entries.length === 1 ? "entry" : "entries"})\n`);

  const baselineImage = images.baseline.image;
  const [first, ...more] = images.candidates;
  return interruptible(async (signal) => {
    const result = await runHarness({
      scenarios,
      trees,
      baselineImage,
      candidateImage: first!.image,
      moreCandidateImages: more.map((candidate) => candidate.image),
      allowMissingBaseline: mode.demo || values["allow-missing-baseline"] === true,
      concurrency,
      ...(engines ? { engines } : {}),
      ...timingOptions(values),
      signal,
      onProgress: printProgress(triage),
    });
    const report = buildReport(judgeRun({ ...result, sides: labelSides(result.sides, images) }, triage), toolVersion());
    if (report.baseline.missing) {
      process.stdout.write(
        `\nThe baseline image ${baselineImage} is not on this engine and could not be pulled, so only the candidate ` +
          `(${report.candidate.image}, httpd ${report.candidate.version}) ran: every scenario below is marked "baseline missing" and ` +
          `was checked against what it states for httpd ${report.candidate.version?.slice(0, 3)} alone. To compare against a real ` +
          `2.2, load or build an httpd 2.2 image and set HTTPD_BASELINE_IMAGE (or --baseline) to it.\n\n`,
      );
    }
    process.stdout.write(`${renderTerminalTable(report, { color: values.color === true })}\n`);
    const treeNotes = renderTreeNotes(report);
    if (treeNotes) process.stdout.write(`\n${treeNotes}\n`);
    writeReports(report, targets);
    for (const target of targets) process.stderr.write(`wrote ${target.format} report: ${target.path}\n`);
    if (mode.demo) return EXIT.ok;
    return runExitStatus(report);
  });
}
