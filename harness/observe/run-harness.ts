// One harness run: engine, images, certificates, then every scenario observed on every side with bounded
// concurrency. It returns observations only; the command judges them and the reporters format the result.
// Everything it creates is removed when it returns, throws or is aborted.
import { createCertificateAuthority, createRevocationList, issueClientCertificate } from "../backends/certificate-factory.ts";
import { DEFAULT_CANDIDATE_IMAGE } from "../engine/default-images.ts";
import { connectEngine } from "../engine/engine.ts";
import { engineAnswers } from "../engine/engine-alive.ts";
import { ensureRecipeImage, imageExists, resolveUserImage } from "../engine/images.ts";
import { RunScope } from "../engine/run-scope.ts";
import { sweepAbandoned } from "../engine/sweep.ts";
import { HarnessError, isHarnessError } from "../errors.ts";
import { type LoadedTrees, type PlannedSideInput, planScenario } from "../plan/plan-scenario.ts";
import { BASELINE, CANDIDATE, type Side } from "../plan/side.ts";
import type { ScenarioPlan } from "../plan/scenario-plan.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { inspectImage } from "../server/inspect-image.ts";
import type { ObserveContext } from "./observe-context.ts";
import { observeScenario } from "./observe-scenario.ts";
import type { ScenarioRun, SkippedSide } from "./scenario-run.ts";

export interface HarnessRunOptions {
  scenarios: Scenario[];
  /** The configuration trees the scenarios name, read at the input boundary. */
  trees?: LoadedTrees;
  baselineImage: string;
  candidateImage: string;
  /** Run the candidate alone when the baseline image can be neither found nor pulled. */
  allowMissingBaseline: boolean;
  concurrency: number;
  learnNoise: boolean;
  /** What a scenario may take when it names no limit (default 300 s). */
  scenarioTimeLimitMs?: number;
  /** What the whole run may take, from its start; scenarios not started by then are errors (default: none). */
  runTimeLimitMs?: number | null;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
}

export type ProgressEvent =
  | { kind: "note"; message: string }
  | { kind: "scenario-done"; run: ScenarioRun; done: number; total: number };

/** One side of the run as it was set up: its image, and its version when it ran. */
export interface RunSide {
  side: Side;
  image: string;
  version: string | null;
  missing: boolean;
}

export interface HarnessRunResult {
  startedAt: Date;
  sides: RunSide[];
  runs: ScenarioRun[];
  durationMs: number;
}

/** A scenario the run's time limit left no time for. */
function notStarted(scenario: Scenario, plan: ScenarioPlan, skipped: SkippedSide[], limitMs: number): ScenarioRun {
  return {
    scenario,
    plan,
    observations: [],
    skipped,
    error: { code: "HARNESS_DEADLINE", message: `Not started: the run's time limit of ${(limitMs / 1000).toFixed(0)} s had passed.` },
    durationMs: 0,
  };
}

async function resolveCandidate(scope: RunScope, image: string, note: (m: string) => void): Promise<string> {
  if (image !== DEFAULT_CANDIDATE_IMAGE || (await imageExists(scope.engine, image))) return resolveUserImage(scope.engine, image);
  try {
    return await resolveUserImage(scope.engine, image, { pullTimeoutMs: 20_000 });
  } catch {
    const local = await ensureRecipeImage(scope.engine, "httpd-2.4", note);
    note(`candidate: ${image} cannot be pulled here; using the local 2.4 image ${local}`);
    return local;
  }
}

export const DEFAULT_SCENARIO_TIME_LIMIT_MS = 300_000;

export async function runHarness(options: HarnessRunOptions): Promise<HarnessRunResult> {
  const startedAt = new Date();
  const runDeadline = options.runTimeLimitMs ? startedAt.getTime() + options.runTimeLimitMs : null;
  const note = (message: string): void => options.onProgress?.({ kind: "note", message });
  const engine = await connectEngine();
  await using scope = new RunScope(engine);
  const abort = (): void => void scope.dispose();
  options.signal?.addEventListener("abort", abort, { once: true });
  const interrupted = (): void => {
    if (options.signal?.aborted) throw new HarnessError("HARNESS_INTERRUPTED", "Interrupted; every container and network of the run was removed.");
  };
  try {
    const swept = await sweepAbandoned(engine);
    if (swept.containers + swept.networks > 0) {
      const runs = swept.runs.length === 1 ? `run ${swept.runs[0]}` : `runs ${swept.runs.join(", ")}`;
      note(`removed ${swept.containers} containers and ${swept.networks} networks left by ${runs}, whose lease expired`);
    }

    const [helperHttpd, tools] = await Promise.all([ensureRecipeImage(engine, "httpd-2.4", note), ensureRecipeImage(engine, "tools", note)]);
    const candidateImage = await resolveCandidate(scope, options.candidateImage, note);
    let baselineImage: string | null = null;
    const skipped: SkippedSide[] = [];
    try {
      baselineImage = await resolveUserImage(engine, options.baselineImage, { pullTimeoutMs: 20_000 });
    } catch (error) {
      if (!options.allowMissingBaseline || !isHarnessError(error) || error.code !== "HARNESS_IMAGE_MISSING") throw error;
      skipped.push({ side: BASELINE, image: options.baselineImage, reason: `baseline image ${options.baselineImage} missing` });
    }
    interrupted();
    const sides: PlannedSideInput[] = [];
    if (baselineImage) sides.push({ side: BASELINE, inspection: await inspectImage(scope, baselineImage) });
    sides.push({ side: CANDIDATE, inspection: await inspectImage(scope, candidateImage) });
    // Every scenario is planned before any of them runs: a plan that cannot be made is bad input, and stops
    // the run before a scenario container exists.
    const plans = options.scenarios.map((scenario) => planScenario(scenario, sides, options.trees));

    const ca = await createCertificateAuthority({ commonName: "httpd-upgrade-harness test CA" });
    const [valid, revoked] = await Promise.all([
      issueClientCertificate(ca, { commonName: "client-valid" }),
      issueClientCertificate(ca, { commonName: "client-revoked" }),
    ]);
    const crl = await createRevocationList(ca, [revoked.serialNumber]);
    const context: ObserveContext = {
      scope,
      sides,
      skipped,
      helperImages: { httpd: helperHttpd, tools },
      certificates: { ca, crl, clients: { valid, revoked } },
      learnNoise: options.learnNoise,
      scenarioTimeLimitMs: options.scenarioTimeLimitMs ?? DEFAULT_SCENARIO_TIME_LIMIT_MS,
      runDeadline,
    };

    const runs: ScenarioRun[] = new Array(options.scenarios.length);
    let next = 0;
    let done = 0;
    let engineLost = false;
    const worker = async (): Promise<void> => {
      while (next < options.scenarios.length && !options.signal?.aborted && !engineLost) {
        const index = next++;
        const scenario = options.scenarios[index]!;
        const run =
          runDeadline !== null && Date.now() >= runDeadline
            ? notStarted(scenario, plans[index]!, skipped, options.runTimeLimitMs!)
            : await observeScenario(scenario, plans[index]!, context);
        // A scenario that failed may have lost the engine itself: then nothing after it can run, and a report
        // would only list errors the user cannot act on. The run stops, exit 3, no report.
        if (run.error && !(await engineAnswers(engine))) {
          engineLost = true;
          throw new HarnessError("HARNESS_ENGINE_UNAVAILABLE", `The Docker engine (${process.env.DOCKER_HOST || "the default socket"}) stopped answering during the run; no report was written.`, {
            hint: `What failed: ${run.scenario.id}: ${run.error.message.split("\n")[0]}\nThe run's containers are removed by the next run's sweep once the engine answers again.`,
          });
        }
        runs[index] = run;
        done++;
        options.onProgress?.({ kind: "scenario-done", run, done, total: options.scenarios.length });
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.scenarios.length)) }, worker));
    interrupted();

    const runSides: RunSide[] = [
      ...skipped.map((s) => ({ side: s.side, image: s.image, version: null, missing: true })),
      ...sides.map((s) => ({
        side: s.side,
        image: s.side.role === "baseline" ? options.baselineImage : s.inspection.image,
        version: s.inspection.version.text,
        missing: false,
      })),
    ].sort((a, b) => (a.side.role === b.side.role ? 0 : a.side.role === "baseline" ? -1 : 1));
    return { startedAt, sides: runSides, runs, durationMs: Date.now() - startedAt.getTime() };
  } finally {
    options.signal?.removeEventListener("abort", abort);
  }
}
