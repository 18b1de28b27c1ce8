// `plan`: what a run would do, without an engine: for each scenario and side, the config, files, prepare steps
// and requests. Image facts come from the last inspection's cache or the official layout's defaults.
import { DEFAULT_BASELINE_IMAGE, DEFAULT_CANDIDATE_IMAGE } from "../engine/default-images.ts";
import { HarnessError } from "../errors.ts";
import { planScenario } from "../plan/plan-scenario.ts";
import { BASELINE, CANDIDATE } from "../plan/side.ts";
import { renderPlanText } from "../report/plan-text.ts";
import { offlineFacts } from "../server/offline-facts.ts";
import { type HttpdVersion, parseHttpdVersion } from "../versions/httpd-version.ts";
import { EXIT } from "./exit-status.ts";
import { parseOptions } from "./parse-options.ts";
import { runInputs } from "./tree-inputs.ts";
import { runTargetModules } from "./target-modules-option.ts";

/** The versions planned for when an image was never inspected and its tag names none: the official 2.2
 * image's and the local 2.4 image's. */
export const DEFAULT_PLAN_VERSIONS = "2.2.34,2.4.68";

function parseVersions(text: string): { baseline: HttpdVersion; candidate: HttpdVersion } {
  const parts = text.split(",").map((part) => part.trim());
  const versions = parts.map((part) => parseHttpdVersion(part));
  if (parts.length !== 2 || versions.some((v, i) => v === null || !/^\d+\.\d+\.\d+$/.test(parts[i]!))) {
    throw new HarnessError("HARNESS_USAGE", `--versions ${JSON.stringify(text)} is not two httpd versions.`, {
      hint: "Name the baseline's and the candidate's version, e.g. --versions 2.2.34,2.4.68.",
    });
  }
  return { baseline: versions[0]!, candidate: versions[1]! };
}

export interface PlanOptions {
  config?: string[] | undefined;
  "candidate-config"?: string[] | undefined;
  layout?: string | undefined;
  define?: string[] | undefined;
  baseline?: string | undefined;
  candidate?: string | undefined;
  versions?: string | undefined;
  side?: string | undefined;
  format?: string | undefined;
  "target-modules"?: string | undefined;
}

export async function runPlanCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    baseline: { type: "string" },
    candidate: { type: "string" },
    versions: { type: "string" },
    side: { type: "string" },
    format: { type: "string", default: "text" },
    config: { type: "string", multiple: true, default: [] },
    "candidate-config": { type: "string", multiple: true, default: [] },
    layout: { type: "string" },
    define: { type: "string", short: "D", multiple: true, default: [] },
    "target-modules": { type: "string" },
  });
  return printPlan(positionals, values);
}

/** Shared by `plan` and `run --dry-run`. */
export async function printPlan(positionals: string[], options: PlanOptions): Promise<number> {
  const values = { ...options, format: options.format ?? "text" };
  if (values.format !== "text" && values.format !== "json") {
    throw new HarnessError("HARNESS_USAGE", `--format ${JSON.stringify(values.format)}: use text or json.`);
  }
  if (values.side !== undefined && values.side !== "baseline" && values.side !== "candidate") {
    throw new HarnessError("HARNESS_USAGE", `--side ${JSON.stringify(values.side)}: use baseline or candidate.`);
  }
  const target = await runTargetModules(values["target-modules"]);
  const { scenarios, trees } = await runInputs(positionals, values, undefined, target?.candidate);
  const given = values.versions === undefined ? null : parseVersions(values.versions);
  const fallback = parseVersions(DEFAULT_PLAN_VERSIONS);
  const facts = (image: string, version: HttpdVersion | null, otherwise: HttpdVersion) => {
    try {
      return offlineFacts(image, version);
    } catch {
      return offlineFacts(image, otherwise);
    }
  };
  const baselineImage = values.baseline ?? (process.env.HTTPD_BASELINE_IMAGE || DEFAULT_BASELINE_IMAGE);
  const candidateImage = values.candidate ?? (process.env.HTTPD_CANDIDATE_IMAGE || DEFAULT_CANDIDATE_IMAGE);
  const sides = [
    { side: BASELINE, inspection: facts(baselineImage, given?.baseline ?? null, fallback.baseline) },
    { side: CANDIDATE, inspection: facts(candidateImage, given?.candidate ?? null, fallback.candidate) },
  ].filter((s) => values.side === undefined || s.side.id === values.side);
  const plans = scenarios.map((scenario) => planScenario(scenario, sides, trees));
  process.stdout.write(values.format === "json" ? `${JSON.stringify({ schemaVersion: "1.0", plans }, null, 2)}\n` : renderPlanText(plans));
  return EXIT.ok;
}
