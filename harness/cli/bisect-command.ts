// `bisect --images A,B,C [SCENARIO_FILES...] [--config PATH]... [--all]`: in an ordered list of httpd images (2.4
// patch levels, a distribution's builds), where the outcome of the scenarios or configs changes. Without --all:
// the first image whose outcome differs from the first image's (judge/bisect/bisect-search.ts); with --all: every
// change between neighbours. Each image is observed at most once (all the scenarios on it in one run) and its
// observations kept; outcomes are compared as the judge compares sides (judge/bisect/outcome-change.ts). Exit
// status: 0 no change point, 1 a change point, 2 bad input, 3 environment.
import { HarnessError } from "../errors.ts";
import { consecutivePairs, findFirstChange } from "../judge/bisect/bisect-search.ts";
import { type BisectResult, imagesAsMatrix, type ObservedImage } from "../judge/bisect/bisect-result.ts";
import { type BisectImage, changePointBetween, differsFrom } from "../judge/bisect/change-points.ts";
import type { ScenarioOutcome } from "../judge/bisect/outcome-change.ts";
import { judgeRun } from "../judge/judge-run.ts";
import type { TriageInputs } from "../judge/triage.ts";
import { DEFAULT_SCENARIO_TIME_LIMIT_MS, runHarness } from "../observe/run-harness.ts";
import { renderBisectJson, renderBisectText } from "../report/bisect-report.ts";
import { buildReport } from "../report/build-report.ts";
import { RULES } from "../rules/all-rules.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { parseHttpdVersion } from "../versions/httpd-version.ts";
import { EXIT } from "./exit-status.ts";
import { enginesOption } from "./engines-option.ts";
import { ignoreFileFor } from "./ignore-option.ts";
import { checkImageName } from "./matrix-option.ts";
import { interruptible } from "./interrupts.ts";
import { parseOptions, seconds, USAGE } from "./parse-options.ts";
import { parseReportTarget, writeReports } from "./report-targets.ts";
import { runInputs, treeLint } from "./tree-inputs.ts";
import { toolVersion } from "./tool-version.ts";

/** The ordered images of --images: comma-separated, two or more, each a user's image or recipe:ID. */
export function parseImageList(value: string | undefined): string[] {
  if (value === undefined) {
    throw new HarnessError("HARNESS_USAGE", "bisect needs --images: the ordered images to look through, comma-separated.", {
      hint: "For example: --images recipe:httpd-2.4.67,recipe:httpd-2.4 (oldest first).",
    });
  }
  const images = value.split(",").map((image) => image.trim());
  if (images.some((image) => image === "")) throw new HarnessError("HARNESS_USAGE", `--images ${JSON.stringify(value)} has an empty entry.`);
  if (images.length < 2) throw new HarnessError("HARNESS_USAGE", `--images ${JSON.stringify(value)} names one image: bisect needs two or more, in order.`);
  return images.map((image) => checkImageName(image, "--images"));
}

export async function runBisectCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    images: { type: "string" },
    all: { type: "boolean", default: false },
    format: { type: "string", default: "text" },
    report: { type: "string", multiple: true, default: [] },
    config: { type: "string", multiple: true, default: [] },
    layout: { type: "string" },
    define: { type: "string", short: "D", multiple: true, default: [] },
    ignore: { type: "string" },
    concurrency: { type: "string" },
    engines: { type: "string" },
    "scenario-time-limit": { type: "string" },
  });
  const names = parseImageList(values.images);
  if (values.format !== "text" && values.format !== "json") throw new HarnessError("HARNESS_USAGE", `--format ${JSON.stringify(values.format)}: use text or json.`, { hint: USAGE });
  const targets = (values.report as string[]).map(parseReportTarget);
  const concurrency = values.concurrency === undefined ? null : Number(values.concurrency);
  if (concurrency !== null && (!Number.isInteger(concurrency) || concurrency < 1)) throw new HarnessError("HARNESS_USAGE", `--concurrency ${JSON.stringify(values.concurrency)} is not a positive whole number.`);
  const limit = seconds(values["scenario-time-limit"], "--scenario-time-limit") ?? DEFAULT_SCENARIO_TIME_LIMIT_MS;
  const engines = enginesOption(values.engines);
  // Bad scenario files and config trees stop here, before any container exists.
  const { scenarios, trees } = await runInputs(positionals, values);
  const triage: TriageInputs = { rules: RULES, lint: treeLint(scenarios, trees), ignore: await ignoreFileFor(values.ignore) };

  // Ctrl-C: the run under way removes its containers and networks; a second one leaves at once.
  // Set while the search runs (interruptible): each observation passes it to its run.
  let signal: AbortSignal | undefined;
  const images: BisectImage[] = names.map((name, index) => ({ index, name, image: null, version: null }));
  // Observations per image name: an image given twice in the list is observed once.
  const observed = new Map<string, ObservedImage>();
  const observe = async (indexes: readonly number[]): Promise<void> => {
    const wanted = [...new Set(indexes.map((index) => names[index]!))].filter((name) => !observed.has(name));
    if (wanted.length === 0) return;
    process.stderr.write(`observing ${wanted.join(", ")} (${scenarios.length} scenario${scenarios.length === 1 ? "" : "s"})\n`);
    const [first, ...more] = wanted;
    const result = await runHarness({
      scenarios,
      trees,
      baselineImage: null,
      candidateImage: first!,
      moreCandidateImages: more,
      allowMissingBaseline: false,
      concurrency,
      ...(engines ? { engines } : {}),
      // Two answers per request: what varies between them on one image is noise, not a change.
      learnNoise: true,
      scenarioTimeLimitMs: limit,
      signal,
      onProgress: (event) => {
        if (event.kind === "note") process.stderr.write(`${event.message}\n`);
      },
    });
    const candidates = result.sides.filter((s) => s.side.role === "candidate");
    for (const [position, name] of wanted.entries()) {
      const side = candidates[position]!;
      const version = side.version === null ? null : parseHttpdVersion(side.version);
      for (const image of images) if (image.name === name) Object.assign(image, { image: side.image, version });
      observed.set(name, { image: images[names.indexOf(name)]!, side, runs: result.runs.filter((run) => run !== undefined), startedAt: result.startedAt, durationMs: result.durationMs });
    }
  };
  const outcomeOf = (image: BisectImage, scenario: Scenario): ScenarioOutcome => {
    const seen = observed.get(image.name);
    const run = seen?.runs.find((r) => r.scenario.id === scenario.id);
    if (!seen || !run) return { error: { code: "HARNESS_INTERNAL", message: `${image.name} was not observed` } };
    if (run.error) return { error: run.error };
    const observation = run.observations.find((o) => o.side.id === seen.side.side.id);
    return observation ? { observation } : { error: { code: "HARNESS_INTERNAL", message: `${image.name} recorded nothing for ${scenario.id}` } };
  };

  const found: Omit<BisectResult, "mode" | "images" | "scenarios"> = await interruptible((aborted) => {
    signal = aborted;
    return values.all === true ? everyChange(images, scenarios, observe, outcomeOf, triage) : firstChange(images, scenarios, observe, outcomeOf, triage);
  });

  const result: BisectResult = {
    mode: values.all === true ? "all" : "first",
    images: images.map((image) => ({ ...image, observed: observed.has(image.name) })),
    scenarios: scenarios.length,
    ...found,
  };
  process.stdout.write(values.format === "json" ? renderBisectJson(result) : renderBisectText(result));
  if (targets.length > 0) {
    // The observed images side by side, the first in the baseline's place: the reports `run` writes.
    const distinct = [...new Map([...observed.values()].map((o) => [o.image.name, o])).values()];
    const report = buildReport(judgeRun(imagesAsMatrix(distinct), triage), toolVersion());
    writeReports(report, targets);
    for (const target of targets) process.stderr.write(`wrote ${target.format} report: ${target.path}\n`);
  }
  return result.changePoints.length > 0 ? EXIT.regressions : EXIT.ok;
}

type Observe = (indexes: readonly number[]) => Promise<void>;
type OutcomeOf = (image: BisectImage, scenario: Scenario) => ScenarioOutcome;

/** --all: every image observed (in one run), every pair of neighbours compared. */
async function everyChange(images: BisectImage[], scenarios: Scenario[], observe: Observe, outcomeOf: OutcomeOf, triage: TriageInputs): Promise<Omit<BisectResult, "mode" | "images" | "scenarios">> {
  const probed = images.map((image) => image.index);
  await observe(probed);
  const changePoints = consecutivePairs(images.length).flatMap(({ before, after }) => changePointBetween(images[before]!, images[after]!, scenarios, outcomeOf, triage) ?? []);
  return { probed, endsAgree: null, changePoints };
}

/** The first image whose outcome differs from the first image's: both ends, then halving. */
async function firstChange(images: BisectImage[], scenarios: Scenario[], observe: Observe, outcomeOf: OutcomeOf, triage: TriageInputs): Promise<Omit<BisectResult, "mode" | "images" | "scenarios">> {
  const found = await findFirstChange(images.length, async (indexes) => {
    await observe(indexes);
    return indexes.map((index) => differsFrom(images[0]!, images[index]!, scenarios, outcomeOf, triage));
  });
  if (found.change === null) return { probed: found.probed, endsAgree: true, changePoints: [] };
  const { before, after } = found.change;
  // Neighbours normally differ where the first image and `after` do; when noise keeps "the same" from carrying
  // over from one image to the next, the change is shown against the first image.
  const point = changePointBetween(images[before]!, images[after]!, scenarios, outcomeOf, triage) ?? changePointBetween(images[0]!, images[after]!, scenarios, outcomeOf, triage);
  return { probed: found.probed, endsAgree: false, changePoints: point ? [point] : [] };
}
