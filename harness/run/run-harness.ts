// One harness run: engine, images, certificates, then every scenario on both sides with bounded
// concurrency, and the report. Everything it creates is removed when it returns, throws or is aborted.
import { createCertificateAuthority, createRevocationList, issueClientCertificate } from "../backends/certificate-factory.ts";
import { connectEngine } from "../engine/engine.ts";
import { ensureRecipeImage, imageExists, resolveUserImage } from "../engine/images.ts";
import { RunScope } from "../engine/run-scope.ts";
import { sweepAbandoned } from "../engine/sweep.ts";
import { HarnessError, isHarnessError } from "../errors.ts";
import { buildReport } from "../report/build-report.ts";
import type { Report } from "../report/report-model.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { inspectImage, type ImageInspection } from "../server/inspect-image.ts";
import type { Side } from "./observation.ts";
import type { RunContext } from "./run-context.ts";
import { runScenario } from "./run-scenario.ts";
import type { ScenarioRun } from "./scenario-run.ts";

export const DEFAULT_BASELINE_IMAGE = "httpd:2.2.34";
export const DEFAULT_CANDIDATE_IMAGE = "httpd:2.4";

export interface HarnessRunOptions {
  scenarios: Scenario[];
  baselineImage: string;
  candidateImage: string;
  /** Run the candidate alone when the baseline image can be neither found nor pulled. */
  allowMissingBaseline: boolean;
  concurrency: number;
  learnNoise: boolean;
  toolVersion: string;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
}

export type ProgressEvent =
  | { kind: "note"; message: string }
  | { kind: "scenario-done"; run: ScenarioRun; done: number; total: number };

export interface HarnessRunResult {
  report: Report;
  runs: ScenarioRun[];
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

export async function runHarness(options: HarnessRunOptions): Promise<HarnessRunResult> {
  const startedAt = new Date();
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
    if (swept.containers + swept.networks > 0) note(`removed ${swept.containers} containers and ${swept.networks} networks left by an earlier run`);

    const [helperHttpd, tools] = await Promise.all([ensureRecipeImage(engine, "httpd-2.4", note), ensureRecipeImage(engine, "tools", note)]);
    const candidateImage = await resolveCandidate(scope, options.candidateImage, note);
    let baselineImage: string | null = null;
    const skipped: Partial<Record<Side, string>> = {};
    try {
      baselineImage = await resolveUserImage(engine, options.baselineImage, { pullTimeoutMs: 20_000 });
    } catch (error) {
      if (!options.allowMissingBaseline || !isHarnessError(error) || error.code !== "HARNESS_IMAGE_MISSING") throw error;
      skipped.baseline = `baseline image ${options.baselineImage} missing`;
    }
    interrupted();
    const sides: Partial<Record<Side, ImageInspection>> = { candidate: await inspectImage(scope, candidateImage) };
    if (baselineImage) sides.baseline = await inspectImage(scope, baselineImage);

    const ca = await createCertificateAuthority({ commonName: "httpd-upgrade-harness test CA" });
    const [valid, revoked] = await Promise.all([
      issueClientCertificate(ca, { commonName: "client-valid" }),
      issueClientCertificate(ca, { commonName: "client-revoked" }),
    ]);
    const crl = await createRevocationList(ca, [revoked.serialNumber]);
    const context: RunContext = {
      scope,
      sides,
      skipped,
      helperImages: { httpd: helperHttpd, tools },
      certificates: { ca, crl, clients: { valid, revoked } },
      learnNoise: options.learnNoise,
    };

    const runs: ScenarioRun[] = new Array(options.scenarios.length);
    let next = 0;
    let done = 0;
    const worker = async (): Promise<void> => {
      while (next < options.scenarios.length && !options.signal?.aborted) {
        const index = next++;
        const run = await runScenario(options.scenarios[index]!, context);
        runs[index] = run;
        done++;
        options.onProgress?.({ kind: "scenario-done", run, done, total: options.scenarios.length });
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.scenarios.length)) }, worker));
    interrupted();

    const report = buildReport({
      toolVersion: options.toolVersion,
      startedAt,
      baseline: { image: options.baselineImage, version: sides.baseline?.version ?? null, missing: !sides.baseline },
      candidate: { image: candidateImage, version: sides.candidate?.version ?? null },
      runs,
      durationMs: Date.now() - startedAt.getTime(),
    });
    return { report, runs };
  } finally {
    options.signal?.removeEventListener("abort", abort);
  }
}
