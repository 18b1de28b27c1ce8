// The three configs/ samples in the shape of distribution stock configs (Debian, RHEL, the official image) on real
// 2.4, one start-up failure at a time: each tree is staged as `run --config` stages a tree taken as written for 2.4
// (its module paths pointed at the image, nothing renamed), httpd's config test runs and then a real start; the
// first failure's file and line are read from httpd's own output, lint (read for the same tree, 2.4 target) must
// have a blocking finding there, and the line is neutralised (commented out; a section from its open line to its
// close) before the next round, until 2.4 starts. Then `migrate`'s output of each sample runs the same way and must
// pass the config test and start with nothing neutralised but the lines migrate itself marks *needs action*.
import { cpSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { treeScenarios } from "../../../harness/cli/tree-inputs.ts";
import { writeTree } from "../../../harness/cli/write-tree.ts";
import { treePathOf } from "../../../harness/conf/include-paths.ts";
import { loadTree } from "../../../harness/conf/load-tree.ts";
import { walkConfig } from "../../../harness/conf/queries/walk-config.ts";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import type { ErrorLogRecord } from "../../../harness/logs/error-log-record.ts";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
import { migrateTree } from "../../../harness/migrate/migrate-tree.ts";
import { planScenario } from "../../../harness/plan/plan-scenario.ts";
import type { SidePlan } from "../../../harness/plan/scenario-plan.ts";
import { CANDIDATE } from "../../../harness/plan/side.ts";
import { RULES } from "../../../harness/rules/all-rules.ts";
import type { Evidence } from "../../../harness/rules/evidence.ts";
import type { LintFinding } from "../../../harness/rules/finding.ts";
import { lintTree } from "../../../harness/rules/lint-tree.ts";
import { defaultTargetModules, TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";
import type { ImageInspection } from "../../../harness/server/inspect-image.ts";
import { inspectImage } from "../../../harness/server/inspect-image.ts";
import { environmentScript } from "../../../harness/server/staged-httpd.ts";
import { shellQuote } from "../../../harness/server/start-script.ts";
import { stageSidePlan } from "../../helpers/stage-side-plan.ts";

const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
/** The samples written in the shape of a distribution's stock config (configs/README.md). */
const STOCK = ["debian-ssl", "rhel-balancer", "official-stock"] as const;
const MAX_ROUNDS = 40;
/** How long a started httpd is left running before it counts as started: every failure seen so far comes
 * within a second (post_config). */
const START_SECONDS = 5;

/** What 2.2 had in its core and 2.4 has as modules, by the failure that names no line when it is missing. */
const CORE_OF_22: ReadonlyArray<[RegExp, string]> = [
  [/No MPM loaded/, "LoadModule mpm_prefork_module modules/mod_mpm_prefork.so"],
  [/relinquish startup privileges/, "LoadModule unixd_module modules/mod_unixd.so"],
];

interface Place {
  file: string;
  line: number;
}

interface Failure {
  stage: "config test" | "start";
  /** What httpd said was wrong. */
  reason: string;
  /** The line httpd's output names (the config test's syntax error); null when it names none. */
  place: Place | null;
  /** The module a start-up line is tagged with (`[proxy_balancer:emerg]`); null for the config test. */
  module: string | null;
  /** Every line httpd wrote, parsed, for the rules' recognise faces. */
  records: ErrorLogRecord[];
}

const SYNTAX_ERROR = /Syntax error on line (\d+) of (.+?):(?: (.*))?$/;
const QUIET = new Set(["warn", "notice", "info", "debug"]);

/** The first failure in httpd's output: a syntax error (two lines, or one for LoadModule and Include), else the first
 * line above warning level, or AH-coded with no level (the config test's "AH00534: httpd: Configuration error"). */
function firstFailure(stage: Failure["stage"], lines: readonly string[], mount: string): Failure | null {
  const records = lines.filter((line) => line.trim() !== "").map((line) => parseErrorLogLine(line, "2.4"));
  for (const [index, record] of records.entries()) {
    let syntax = SYNTAX_ERROR.exec(record.message);
    if (syntax) {
      // An error in an included file is nested in one line: "Syntax error on line 81 of apache2.conf: Syntax error on
      // line 1 of mods-enabled/x.load: Cannot load ...". The innermost names the line.
      for (let inner = SYNTAX_ERROR.exec(syntax[3] ?? ""); inner !== null; inner = SYNTAX_ERROR.exec(inner[3] ?? "")) syntax = inner;
      const file = treePathOf(mount, syntax[2]!) ?? syntax[2]!;
      return { stage, reason: syntax[3] ?? records[index + 1]?.message ?? "", place: { file, line: Number(syntax[1]) }, module: null, records };
    }
  }
  const first = records.find((record) => (record.level !== null && !QUIET.has(record.level)) || (record.level === null && record.code !== null && record.code !== "AH00558"));
  if (first === undefined) return null;
  return { stage, reason: first.message, place: null, module: first.module, records };
}

/** The harness's own plan for the tree as `run --config` makes it for a candidate taken as written for 2.4. The
 * harness comments out a LoadModule whose file the image lacks, so that a run goes on; here such a line stays,
 * pointed at the image's module directory, so that real 2.4 says what it says about the module. */
async function planAsWritten(dir: string, inspection: ImageInspection): Promise<{ plan: SidePlan; mount: string }> {
  const { scenarios, trees } = await treeScenarios({ configs: [dir], candidateConfigs: [dir], layout: undefined, defines: [] });
  const plan = planScenario(scenarios[0]!, [{ side: CANDIDATE, inspection }], trees).sides[0]!;
  const tree = plan.tree!;
  const restore = tree.adaptations.filter((a) => a.kind === "module-absent" && a.file !== null && a.line !== null && a.was !== null);
  const staged = (path: string): string => (tree.mount === "/" ? `/${path}` : `${tree.mount.replace(/\/$/, "")}/${path}`);
  const restored = (text: string, file: string): string => {
    const lines = text.split("\n");
    for (const a of restore.filter((r) => r.file === file)) {
      const [, id = "", path = ""] = /^\s*LoadModule\s+(\S+)\s+(\S+)/.exec(a.was!) ?? [];
      lines[a.line! - 1] = `LoadModule ${id} ${inspection.profile.modulesDir}/${basename(path)}`;
    }
    return lines.join("\n");
  };
  const files = new Set(restore.map((a) => a.file!));
  const config = files.has(relative(tree.mount, plan.config.path)) ? { ...plan.config, text: restored(plan.config.text, relative(tree.mount, plan.config.path)) } : plan.config;
  const planned = plan.files.map((f) => {
    const file = [...files].find((name) => staged(name) === f.path);
    return file !== undefined && "text" in f.content ? { ...f, content: { text: restored(f.content.text, file) } } : f;
  });
  return { plan: { ...plan, config, files: planned }, mount: tree.mount };
}

/** Config test, then a real start in the foreground (the harness's own start is `httpd ... -DFOREGROUND`): the first
 * failure, or null when httpd is still up after START_SECONDS. */
async function attempt(scope: RunScope, inspection: ImageInspection, dir: string, label: string): Promise<Failure | null> {
  const { plan, mount } = await planAsWritten(dir, inspection);
  await using staged = await stageSidePlan(scope, plan, inspection, label);
  const test = await staged.ask(["-t"]);
  if (test.exitCode !== 0) {
    const failure = firstFailure("config test", `${test.stdout}\n${test.stderr}`.split("\n"), mount);
    if (failure === null) throw new Error(`${label}: the config test failed (exit ${test.exitCode}) and said nothing: ${test.stdout}${test.stderr}`);
    return failure;
  }
  const { profile } = inspection;
  const command = [profile.binary, ...[...plan.httpd.args, "-DFOREGROUND"].map(shellQuote)].join(" ");
  const logs = (plan.logs?.error ?? []).map(shellQuote).join(" ");
  const script = [
    ...environmentScript(inspection, plan.httpd.environment),
    `cd ${profile.serverRoot}`,
    `timeout -s TERM ${START_SECONDS} ${command} >/tmp/harness-start.out 2>&1; echo "exit=$?"`,
    "cat /tmp/harness-start.out",
    ...(logs === "" ? [] : [`cat ${logs} 2>/dev/null || true`]),
  ].join("\n");
  const run = await staged.container.exec(["/bin/sh", "-c", script], { timeoutMs: (START_SECONDS + 25) * 1000 });
  const [status = "", ...output] = run.stdout.split("\n");
  // timeout's 124: httpd was still serving when it was stopped.
  if (status === "exit=124") return null;
  const failure = firstFailure("start", [...output, ...run.stderr.split("\n")], mount);
  if (failure === null) throw new Error(`${label}: httpd ${status} at start and logged nothing above warning:\n${run.stdout}${run.stderr}`);
  return failure;
}

/** A copy of a tree, links kept as links, to neutralise lines in. */
function copyTree(from: string, prefix: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), prefix)), basename(from));
  cpSync(from, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

/** Comments out a line of the copy (read through its links, as httpd names it); a section's open line takes the
 * whole section with it, up to its close. Returns the lines commented. */
function neutralise(dir: string, place: Place): number[] {
  const file = realpathSync(join(dir, place.file));
  if (relative(dir, file).startsWith("..")) throw new Error(`${place.file} leads out of the tree`);
  const lines = readFileSync(file, "utf8").split("\n");
  const index = place.line - 1;
  const opens = (text: string): boolean => /^\s*<[^/!]/.test(text);
  const closes = (text: string): boolean => /^\s*<\//.test(text);
  let end = index;
  if (opens(lines[index] ?? "")) {
    let depth = 0;
    for (end = index; end < lines.length; end++) {
      if (opens(lines[end]!)) depth++;
      else if (closes(lines[end]!)) depth--;
      if (depth === 0) break;
    }
  }
  const done: number[] = [];
  for (let i = index; i <= end; i++) {
    if (lines[i]!.trim() === "" || lines[i]!.trim().startsWith("#")) continue;
    lines[i] = `# ${lines[i]}`;
    done.push(i + 1);
  }
  if (done.length === 0) throw new Error(`${place.file}:${place.line} has nothing to comment out`);
  writeFileSync(file, lines.join("\n"));
  return done;
}

/** The rules whose recognise face claims a failure as its evidence, as triage would in a run. */
function recognisers(failure: Failure, findings: readonly LintFinding[]): string[] {
  const evidence: Evidence = {
    field: failure.stage === "config test" ? "configTest" : "started",
    baseline: null,
    candidate: failure.stage === "config test" ? "failed" : "false",
    request: null,
    status: { baseline: null, candidate: null },
    log: { baseline: [], candidate: failure.records },
    families: { baseline: "2.2", candidate: "2.4" },
    findings,
  };
  return RULES.filter((rule) => rule.recognise?.(evidence) != null).map((rule) => rule.id);
}

interface Round {
  at: string;
  rule: string;
  stage: Failure["stage"];
  reason: string;
}

describe("the stock-shaped samples on real 2.4: lint names every start-up failure, and migrate's output starts", { timeout: 1_200_000 }, () => {
  const images = inject("images");
  let scope: RunScope;
  let inspection: ImageInspection;
  beforeAll(async () => {
    scope = new RunScope(await connectEngine());
    inspection = await inspectImage(scope, images.candidate);
    expect(inspection.version.family).toBe("2.4");
  }, 120_000);
  afterAll(async () => {
    await scope?.dispose();
  });

  for (const sample of STOCK) {
    it(`${sample}: every failure of real 2.4, in the order it stops, is a blocking lint finding at the line it names`, async () => {
      const original = await loadTree(`${CONFIGS}${sample}`);
      const lint = lintTree(original, { defines: [], target: TARGET_PROFILES[defaultTargetModules(original.layout)] });
      const blocking = lint.findings.filter((f) => f.severity === "blocking");
      const at = (place: Place): LintFinding[] => blocking.filter((f) => f.file === place.file && f.line === place.line);
      const loadLine = (module: string): Place | null => {
        const line = (walkConfig(lint.context.target).byKey.get("loadmodule") ?? []).find((d) => d.directive.args[0] === `${module}_module`);
        return line === undefined ? null : { file: line.directive.span.file, line: line.directive.span.line };
      };
      const dir = copyTree(`${CONFIGS}${sample}`, "stock-start-");
      const rounds: Round[] = [];
      for (let round = 1; ; round++) {
        expect(round, `${sample} still fails after ${MAX_ROUNDS} rounds: ${JSON.stringify(rounds)}`).toBeLessThanOrEqual(MAX_ROUNDS);
        const failure = await attempt(scope, inspection, dir, `stock-${sample}-${round}`);
        if (failure === null) break;
        const claimed = recognisers(failure, lint.findings);
        // A start-up line names no config line: its module's LoadModule is where the cause is.
        const place = failure.place ?? (failure.module !== null && failure.stage === "start" ? loadLine(failure.module) : null);
        const what = `${sample} round ${round}, ${failure.stage}: ${failure.reason}`;
        if (place !== null) {
          const found = at(place);
          expect(found.map((f) => f.rule), `${what}: lint has no blocking finding at ${place.file}:${place.line}`).not.toEqual([]);
          expect(found.filter((f) => claimed.includes(f.rule)).map((f) => f.rule), `${what}: no rule found there (${found.map((f) => f.rule)}) recognises it (${claimed})`).not.toEqual([]);
          rounds.push({ at: `${place.file}:${place.line}`, rule: found.filter((f) => claimed.includes(f.rule))[0]!.rule, stage: failure.stage, reason: failure.reason });
          neutralise(dir, place);
          continue;
        }
        // No line named (AH00534 "No MPM loaded", AH00136 without mod_unixd): a rule that recognises it must have a
        // blocking finding, and what 2.2 had in its core is loaded after the last line (no line moves).
        const found = blocking.filter((f) => claimed.includes(f.rule));
        expect(found.map((f) => f.rule), `${what}: no blocking finding of a rule that recognises it (${claimed})`).not.toEqual([]);
        const load = CORE_OF_22.find(([pattern]) => pattern.test(failure.reason))?.[1];
        expect(load, `${what}: a failure naming no line that this test cannot neutralise`).toBeDefined();
        rounds.push({ at: `${found[0]!.file}:${found[0]!.line} (httpd names no line)`, rule: found[0]!.rule, stage: failure.stage, reason: failure.reason });
        const main = realpathSync(join(dir, original.mainFile));
        writeFileSync(main, `${readFileSync(main, "utf8").replace(/\n?$/, "\n")}${load}\n`);
      }
      console.log(`${sample}: ${rounds.length} rounds on real ${inspection.version.text} until it started:\n${rounds.map((r, i) => `  ${i + 1}. ${r.at} ${r.rule} (${r.stage}: ${r.reason})`).join("\n")}`);
      expect(rounds.length).toBeGreaterThan(0);
    });
  }

  for (const sample of STOCK) {
    it(`${sample}: migrate's output passes real 2.4's config test and starts, with only its needs-action lines neutralised`, async () => {
      const original = await loadTree(`${CONFIGS}${sample}`);
      // As `migrate PATH --out DIR` writes it.
      const migration = migrateTree(original, { defines: [], annotate: false, rollback: new Set() });
      const dir = join(mkdtempSync(join(tmpdir(), "stock-migrated-")), sample);
      writeTree(migration.migrated.source, dir);
      // The lines migrate itself marks needs action, found in its output by their text.
      const needsAction = migration.changes.filter((c) => c.status === "needs action");
      const neutralised: string[] = [];
      for (const change of needsAction) {
        const text = readFileSync(realpathSync(join(dir, change.span.file)), "utf8").split("\n");
        for (const wanted of change.after.length > 0 ? change.after : change.before) {
          const index = text.findIndex((line) => line.trim() === wanted.trim() && !line.trim().startsWith("#"));
          if (index < 0) continue;
          neutralise(dir, { file: change.span.file, line: index + 1 });
          neutralised.push(`${change.span.file}:${index + 1} ${change.rule}`);
        }
      }
      const failure = await attempt(scope, inspection, dir, `stock-migrated-${sample}`);
      console.log(`${sample}: migrate's output on real ${inspection.version.text}: ${needsAction.length} changes need action (${neutralised.join(", ") || "nothing neutralised"}); ${failure === null ? "config test passed and it started" : `${failure.stage} failed: ${failure.reason}`}`);
      expect(failure, failure === null ? "" : `${failure.stage}: ${failure.reason} at ${failure.place ? `${failure.place.file}:${failure.place.line}` : "(no line)"}`).toBeNull();
      expect(neutralised.length).toBeLessThanOrEqual(needsAction.reduce((n, c) => n + Math.max(c.after.length, c.before.length), 0));
    });
  }
});
