// `lint PATH...`: every rule's finding in one or more configuration trees at once, offline (no Docker), as text,
// the JSON contract (schema/lint.schema.json) or SARIF 2.1.0. The fleet's ignore file and an earlier lint (the
// baseline) narrow what is reported; the report is written as it is rendered (to a temporary file renamed into
// place, with --output: whole or absent); --fail-on sets what fails: exit 1 when a reported finding reaches it, 0
// otherwise, 2 on bad input (a tree that cannot be read as given, options, the ignore or baseline file).
import { defaultTargetModules } from "../rules/target-modules.ts";
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { LayoutId } from "../conf/effective-config.ts";
import { loadTree } from "../conf/load-tree.ts";
import type { ConfProblem } from "../conf/syntax-tree.ts";
import { HarnessError, isHarnessError } from "../errors.ts";
import { lintJsonChunks } from "../report/lint-json.ts";
import { lintSarifChunks } from "../report/lint-sarif.ts";
import { renderLintText } from "../report/lint-text.ts";
import { RULES } from "../rules/all-rules.ts";
import { IGNORE_FILE_NAME, loadIgnoreFile } from "../rules/ignore-file.ts";
import { loadBaseline } from "../rules/lint-baseline.ts";
import { FAIL_ON, type FailOn, type LintedTree, lintOutcome } from "../rules/lint-outcome.ts";
import type { LintFinding } from "../rules/finding.ts";
import { lintTree } from "../rules/lint-tree.ts";
import type { Rule } from "../rules/rule.ts";
import { targetModules } from "../rules/target-modules.ts";
import { EXIT } from "./exit-status.ts";
import { startLintTiming } from "./lint-timing.ts";
import { stageReport, writeChunks } from "./staged-report.ts";
import { parseOptions } from "./parse-options.ts";
import { toolVersion } from "./tool-version.ts";
import { parseLayout } from "./layout-option.ts";

const FORMATS = ["text", "json", "sarif"] as const;


/** How findings name a tree: the PATH relative to the working directory when inside it, "/"-separated. */
export function treeLabel(path: string, cwd: string): string {
  const absolute = resolve(cwd, path);
  const inside = relative(cwd, absolute);
  const label = inside === "" ? "." : inside.startsWith("..") || isAbsolute(inside) ? absolute : inside;
  return label.split(sep).join("/");
}

/** Colour on a terminal, never into a file, never with NO_COLOR set (https://no-color.org). */
function wantsColor(toFile: boolean): boolean {
  if (toFile) return false;
  const noColor = process.env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  return process.stdout.isTTY === true || (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== "0");
}

function badTrees(unreadable: ReadonlyArray<{ path: string; problems: ConfProblem[] }>): HarnessError {
  const lines = unreadable.flatMap(({ path, problems }) => [
    `${path} (${problems.length} problem${problems.length > 1 ? "s" : ""}):`,
    ...problems.map((p) => `  ${p.file}:${p.line}:${p.column}: ${p.message}${p.hint ? ` (${p.hint})` : ""}`),
  ]);
  const first = unreadable[0]!.problems[0]!;
  return new HarnessError("HARNESS_CONFIG_FILE", `lint cannot read ${unreadable.length === 1 ? "this tree" : "these trees"} as given:\n${lines.join("\n")}`, {
    position: { file: first.file, line: first.line, column: first.column },
    hint: first.hint ?? "Fix the lines named above (or give the files the tree refers to inside it), then lint again.",
  });
}

export async function runLintCommand(args: string[], rules: readonly Rule[] = RULES): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    format: { type: "string", default: "text" },
    define: { type: "string", short: "D", multiple: true, default: [] },
    layout: { type: "string" },
    "target-modules": { type: "string" },
    "fail-on": { type: "string", default: "blocking" },
    baseline: { type: "string" },
    ignore: { type: "string" },
    output: { type: "string" },
  });
  const format = values.format as (typeof FORMATS)[number];
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new HarnessError("HARNESS_USAGE", `--format ${JSON.stringify(values.format)}: use ${FORMATS.join(", ")}.`);
  }
  const failOn = values["fail-on"] as FailOn;
  if (!(FAIL_ON as readonly string[]).includes(failOn)) {
    throw new HarnessError("HARNESS_USAGE", `--fail-on ${JSON.stringify(values["fail-on"])}: use ${FAIL_ON.join(", ")}.`);
  }
  if (positionals.length === 0) {
    throw new HarnessError("HARNESS_USAGE", "lint takes one PATH or more (configuration directories or files).", {
      hint: "httpd-upgrade-harness lint /etc/apache2 --format sarif --output lint.sarif",
    });
  }
  const layout = parseLayout(values.layout);
  const defines = values.define.filter((name) => name !== "");
  const cwd = process.cwd();
  // The fleet's ignore file: the one named, else the one in the working directory when there is one.
  const ignorePath = values.ignore ?? (existsSync(resolve(cwd, IGNORE_FILE_NAME)) ? IGNORE_FILE_NAME : null);
  const ignore = ignorePath === null ? null : await loadIgnoreFile(ignorePath);
  const baseline = values.baseline === undefined ? null : await loadBaseline(values.baseline);

  const linted: Array<{ tree: LintedTree; findings: LintFinding[] }> = [];
  const unreadable: Array<{ path: string; problems: ConfProblem[] }> = [];
  const seen = new Set<string>();
  const timing = startLintTiming();
  for (const path of positionals) {
    // The same tree named twice is linted once.
    if (seen.has(treeLabel(path, cwd))) continue;
    seen.add(treeLabel(path, cwd));
    const tree = await loadTree(path, layout === null ? {} : { layout });
    const target = await targetModules(values["target-modules"] ?? defaultTargetModules(tree.layout));
    const result = lintTree(tree, { defines, target }, rules);
    const errors = [...tree.problems, ...result.problems].filter((problem) => problem.severity === "error");
    const problems = errors.filter((p, index) => errors.findIndex((q) => q.file === p.file && q.line === p.line && q.message === p.message) === index);
    if (problems.length > 0) unreadable.push({ path, problems });
    const absolute = resolve(cwd, path);
    linted.push({
      tree: {
        path: treeLabel(path, cwd),
        root: statSync(absolute).isDirectory() ? absolute : dirname(absolute),
        layout: tree.layout,
        targetModules: target.name,
        files: result.files,
      },
      findings: result.findings,
    });
  }
  await timing?.done(linted.reduce((sum, tree) => sum + tree.findings.length, 0));
  if (unreadable.length > 0) throw badTrees(unreadable);

  const outcome = lintOutcome({ trees: linted, ignore, baseline, failOn });
  // Written as it is rendered, a place at a time: a large tree's report is never one string.
  const chunks =
    format === "json"
      ? lintJsonChunks(outcome, toolVersion())
      : format === "sarif"
        ? lintSarifChunks(outcome, rules, { toolVersion: toolVersion(), cwd })
        : [renderLintText(outcome, { color: wantsColor(values.output !== undefined) })];
  if (values.output === undefined) await writeChunks(process.stdout, chunks);
  else {
    try {
      stageReport({ format, path: values.output }, chunks).publish();
    } catch (error) {
      if (!isHarnessError(error) || error.code !== "HARNESS_REPORT_WRITE") throw error;
      const cause = error.cause as Error;
      throw new HarnessError("HARNESS_REPORT_WRITE", `--output ${values.output}: ${cause.message}`, { cause });
    }
  }
  return outcome.failing > 0 ? EXIT.regressions : EXIT.ok;
}
