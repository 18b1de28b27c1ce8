// One harness run: engine, images, certificates, then every scenario observed on every side with bounded
// concurrency. It returns observations only; the command judges them and the reporters format the result.
// Everything it creates is removed when it returns, throws or is aborted.
import { log } from "../engine/log.ts";
import { engineStuck, engineStuckError } from "../engine/endpoint-changes.ts";
import { DEFAULT_CANDIDATE_IMAGE } from "../engine/default-images.ts";
import { copyFromAny, imageId } from "../engine/copy-image.ts";
import { RECIPE_PREFIX } from "../engine/image-recipes.ts";
import { connectEngine, type Engine, openEngine } from "../engine/engine.ts";
import type { EngineSlot } from "../engine/engine-target.ts";
import { engineAnswers } from "../engine/engine-alive.ts";
import { defaultConcurrency, engineSize } from "../engine/engine-capacity.ts";
import { ensureRecipeImage, imageExists, resolveNamedImage, resolveUserImage } from "../engine/images.ts";
import { RunScope } from "../engine/run-scope.ts";
import { sweepAbandoned } from "../engine/sweep.ts";
import { HarnessError, isHarnessError } from "../errors.ts";
import { type LoadedTrees, type PlannedSideInput, planScenario } from "../plan/plan-scenario.ts";
import { BASELINE, type MatrixAxis, runSides, type Side } from "../plan/side.ts";
import type { ScenarioPlan } from "../plan/scenario-plan.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { inspectImage } from "../server/inspect-image.ts";
import type { ObserveContext } from "./observe-context.ts";
import { mayTake } from "./engine-share.ts";
import { runCertificates } from "./run-certificates.ts";
import { observeScenario } from "./observe-scenario.ts";
import { ScenarioLane } from "./scenario-lane.ts";
import { type SeatKind, SeatQueue } from "./seat-queue.ts";
import { SharedClientNetworks } from "./shared-client-networks.ts";
import type { ScenarioRun, SkippedSide } from "./scenario-run.ts";

/** Scenarios made on demand, for a caller with many (fleet): none is held for the whole run. `load` is called
 * once per scenario to check its plan before any container starts (the plan is dropped), and again when it
 * runs; the trees it returns are those its scenario names. */
export interface ScenarioSource {
  count: number;
  load(index: number, purpose: "check" | "run"): Promise<{ scenario: Scenario; trees?: LoadedTrees }>;
}

export interface HarnessRunOptions {
  scenarios: Scenario[] | ScenarioSource;
  /** The configuration trees the scenarios name, read at the input boundary. */
  trees?: LoadedTrees;
  /** null: no baseline side at all, the candidates only (bisect observes images one at a time). */
  baselineImage: string | null;
  candidateImage: string;
  /** Further candidates, run side by side with the first (a version matrix): sides candidate-2, candidate-3... */
  moreCandidateImages?: readonly string[];
  /** Run the candidate alone when the baseline image can be neither found nor pulled. */
  allowMissingBaseline: boolean;
  /** Scenarios run at once on each engine that names no concurrency of its own; null: sized from each engine's
   * CPUs and memory (engine/engine-capacity.ts). */
  concurrency: number | null;
  /** How many scenarios per engine CPU a sized concurrency takes (engine/engine-capacity.ts): the catalogue's
   * scenarios wait a lot, a fleet's configs hardly. */
  scenariosPerCpu?: number;
  /** Engines to spread the scenarios over (`--engines`); default: the one the environment names. */
  engines?: readonly EngineSlot[];
  learnNoise: boolean;
  /** Whether a lane's servers run scenario after scenario in one host per seat (server/server-host.ts); default:
   * yes, unless HARNESS_REUSE=0. */
  reuseServers?: boolean;
  /** What a scenario may take when it names no limit (default 300 s). */
  scenarioTimeLimitMs?: number;
  /** How long a shared client network takes new scenarios before it is let drain and made again, so that another
   * run on the engine gets its subnet (default 60 s; tests shorten it); `sharedNetworkTurnsAlone`: turns even when no
   * other run is alive on the engine (tests, which cannot know whether another test file's run is). */
  sharedNetworkWindowMs?: number;
  sharedNetworkTurnsAlone?: boolean;
  /** What the whole run may take, from its start; scenarios not started by then are errors (default: none). */
  runTimeLimitMs?: number | null;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** false: a finished scenario goes to `onProgress` only and `runs` comes back empty (a caller that keeps its
   * results as they come, so a long run's memory does not grow with them). Default true. */
  keepRuns?: boolean;
}

export type ProgressEvent =
  | { kind: "note"; message: string }
  /** The sides as resolved, before the first scenario starts: a caller that keeps results as they come (fleet)
   * records which images they are of. */
  | { kind: "sides"; sides: RunSide[] }
  | { kind: "scenario-done"; run: ScenarioRun; done: number; total: number };

/** One side of the run as it was set up: its image, and its version when it ran. */
export interface RunSide {
  side: Side;
  image: string;
  version: string | null;
  missing: boolean;
  /** What a version matrix calls this side ("2.4.67", "debian"), and which axis it is on (an upstream tag or a
   * distribution's build); set by the command from --matrix or --candidate, absent otherwise. */
  label?: string;
  axis?: MatrixAxis | null;
  /** The image's id (sha256:...) on the engines that ran it; null or absent when it did not run. */
  imageId?: string | null;
}

/** An engine the run used: what it ran, and why it stopped early when it did. */
export interface RunEngine {
  /** As DOCKER_HOST names it. */
  name: string;
  concurrency: number;
  /** Scenarios it ran to the end. */
  scenarios: number;
  /** Why the run stopped using it (it stopped answering); its scenario went to another engine. */
  lost: string | null;
}

export interface HarnessRunResult {
  startedAt: Date;
  sides: RunSide[];
  runs: ScenarioRun[];
  durationMs: number;
  /** The engines it used (absent: the environment's one). */
  engines?: RunEngine[];
  /** How many containers the run created on all its engines (servers, hosts, seats, clients, backends): what a
   * scenario costs the engines most (docs/scaling.md). */
  containersCreated?: number;
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
  if (image !== DEFAULT_CANDIDATE_IMAGE || (await imageExists(scope.engine, image))) return resolveNamedImage(scope.engine, image, { onProgress: note });
  try {
    return await resolveUserImage(scope.engine, image, { pullTimeoutMs: 20_000 });
  } catch {
    const local = await ensureRecipeImage(scope.engine, "httpd-2.4", note);
    note(`candidate: ${image} cannot be pulled here; using the local 2.4 image ${local}`);
    return local;
  }
}

export const DEFAULT_SCENARIO_TIME_LIMIT_MS = 300_000;

/** One engine of the run, ready: its scope, the images it holds, its share of the work. */
interface Station {
  engine: Engine;
  scope: RunScope;
  concurrency: number;
  context: ObserveContext | null;
  /** Scenarios it took from the queue (engine-share.ts), whether it finished them or lost them. */
  taken: number;
  /** Scenarios it ran to the end. */
  ran: number;
  lost: string | null;
}

/** The engines a run uses: those of --engines, or the one the environment names. TESTCONTAINERS_HOST_OVERRIDE
 * names one host for published ports, so it holds for one engine only: with several, each is reached at its
 * own host (engine/engine-host.ts). */
async function openStations(options: HarnessRunOptions, note: (message: string) => void): Promise<Station[]> {
  const slots = options.engines ?? [];
  const env = slots.length > 1 ? { ...process.env, TESTCONTAINERS_HOST_OVERRIDE: undefined } : process.env;
  const engines = slots.length === 0 ? [await connectEngine()] : await Promise.all(slots.map((slot) => openEngine(slot.target, env)));
  return Promise.all(
    engines.map(async (engine, index) => ({
      engine,
      scope: new RunScope(engine),
      concurrency: slots[index]?.concurrency ?? options.concurrency ?? (await sizedConcurrency(engine, note, options.scenariosPerCpu)),
      context: null,
      taken: 0,
      ran: 0,
      lost: null,
    })),
  );
}

/** What an engine runs at once when nobody said: from its CPUs and memory, said once, so the operator knows. */
async function sizedConcurrency(engine: Engine, note: (message: string) => void, perCpu: number | undefined): Promise<number> {
  const size = await engineSize(engine);
  if (size === null) {
    note(`concurrency: ${FALLBACK_CONCURRENCY} scenarios at once on ${engine.target.url} (it did not report its CPUs and memory); --concurrency N sets it`);
    return FALLBACK_CONCURRENCY;
  }
  const concurrency = defaultConcurrency(size, perCpu);
  note(`concurrency: ${concurrency} scenarios at once on ${engine.target.url} (${size.cpus} CPUs, ${(size.memoryBytes / 2 ** 30).toFixed(0)} GiB); --concurrency N sets it`);
  return concurrency;
}

const FALLBACK_CONCURRENCY = 2;
/** How often a lane with nothing to run looks whether the shared networks it stays on have closed. */
const IDLE_LOOK_MS = 2_000;

function mismatch(station: Station, primary: Station, image: string, here: string | null, there: string | null): HarnessError {
  return new HarnessError("HARNESS_ENGINE_MISMATCH", `${image} is ${there} on ${primary.engine.target.url} but ${here} on ${station.engine.target.url}: one run must run the same images everywhere.`, {
    hint: `Remove ${image} from ${station.engine.target.url} (the harness then copies it from the first engine), or leave that engine out of --engines.`,
  });
}

/** The run's images a further engine lacks; HARNESS_ENGINE_MISMATCH when it holds one under the same name with
 * another id (checked before anything runs: a quick look, unlike the copy). */
async function imagesToCopy(station: Station, primary: Station, images: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const image of images) {
    const [here, there] = await Promise.all([imageId(station.engine, image), imageId(primary.engine, image)]);
    if (here === null) missing.push(image);
    else if (here !== there) throw mismatch(station, primary, image, here, there);
  }
  return missing;
}

/** The images a further engine lacks, copied from the first engine, which resolved (built, pulled) them. */
async function copyImages(station: Station, primary: Station, images: readonly string[], note: (m: string) => void): Promise<void> {
  for (const image of images) {
    if ((await copyFromAny(station.engine, image, [primary.engine], note)) === null) {
      throw new HarnessError("HARNESS_IMAGE_MISSING", `The image ${image} is on neither ${primary.engine.target.url} nor ${station.engine.target.url}.`);
    }
    const [here, there] = await Promise.all([imageId(station.engine, image), imageId(primary.engine, image)]);
    if (here !== there) throw mismatch(station, primary, image, here, there);
  }
}

/** Every scenario planned before any of them runs: a plan that cannot be made is bad input, and stops the run
 * before a scenario container exists. An array's plans are kept; a source's are dropped and made again when
 * the scenario runs (planning twice costs less than holding every tree and plan of a fleet). */
async function plannedSource(
  options: HarnessRunOptions,
  sides: readonly PlannedSideInput[],
): Promise<{ count: number; seats: Array<readonly SeatKind[] | null>; take(index: number): Promise<{ scenario: Scenario; plan: ScenarioPlan }> }> {
  const given = options.scenarios;
  if (Array.isArray(given)) {
    const plans = given.map((scenario) => planScenario(scenario, sides, options.trees));
    return { count: given.length, seats: plans.map((plan) => ScenarioLane.seatsFor(plan)), take: async (index) => ({ scenario: given[index]!, plan: plans[index]! }) };
  }
  // What the check keeps of each plan: the seats it takes, one array per kind of scenario, however many there are.
  const seats: Array<readonly SeatKind[] | null> = [];
  const shared = new Map<string, readonly SeatKind[] | null>();
  // Thousands of trees take a while to read: an interrupt stops the check (the run then says it was interrupted).
  for (let index = 0; index < given.count && !options.signal?.aborted; index++) {
    const { scenario, trees } = await given.load(index, "check");
    const kinds = ScenarioLane.seatsFor(planScenario(scenario, sides, trees ?? options.trees));
    const key = JSON.stringify(kinds);
    if (!shared.has(key)) shared.set(key, kinds);
    seats.push(shared.get(key)!);
  }
  return {
    count: given.count,
    seats,
    take: async (index) => {
      const { scenario, trees } = await given.load(index, "run");
      return { scenario, plan: planScenario(scenario, sides, trees ?? options.trees) };
    },
  };
}

export async function runHarness(options: HarnessRunOptions): Promise<HarnessRunResult> {
  const startedAt = new Date();
  const runDeadline = options.runTimeLimitMs ? startedAt.getTime() + options.runTimeLimitMs : null;
  const note = (message: string): void => options.onProgress?.({ kind: "note", message });
  const stations = await openStations(options, note);
  const primary = stations[0]!;
  const disposeAll = (): Promise<void> => Promise.all(stations.map((station) => station.scope.dispose())).then(() => undefined);
  const abort = (): void => void disposeAll();
  options.signal?.addEventListener("abort", abort, { once: true });
  /** The lanes' networks made ahead (below): settled before the clean-up. */
  const networksMade: Array<Promise<unknown>> = [];
  const interrupted = (): void => {
    if (options.signal?.aborted) throw new HarnessError("HARNESS_INTERRUPTED", "Interrupted; every container and network of the run was removed.");
  };
  try {
    for (const station of stations) {
      const swept = await sweepAbandoned(station.engine);
      if (swept.containers + swept.networks > 0) {
        const runs = swept.runs.length === 1 ? `run ${swept.runs[0]}` : `runs ${swept.runs.join(", ")}`;
        const where = stations.length > 1 ? ` on ${station.engine.target.url}` : "";
        note(`removed ${swept.containers} containers and ${swept.networks} networks${where} left by ${runs}, whose lease expired or whose process is gone`);
      }
    }

    log("run set-up: swept (profile)");
    // Images are resolved (built, pulled) on the first engine; the others get copies of the same images.
    // The run's certificates (RSA keys, made on libuv's threads) while the images are looked at and the scenarios
    // planned.
    const certificates = runCertificates();
    certificates.catch(() => undefined);
    const [helperHttpd, tools] = await Promise.all([ensureRecipeImage(primary.engine, "httpd-2.4", note), ensureRecipeImage(primary.engine, "tools", note)]);
    const candidateImages: string[] = [];
    for (const image of [options.candidateImage, ...(options.moreCandidateImages ?? [])]) candidateImages.push(await resolveCandidate(primary.scope, image, note));
    let baselineImage: string | null = null;
    const skipped: SkippedSide[] = [];
    if (options.baselineImage !== null) {
      try {
        baselineImage = await resolveNamedImage(primary.engine, options.baselineImage, { pullTimeoutMs: 20_000, onProgress: note });
      } catch (error) {
        if (!options.allowMissingBaseline || !isHarnessError(error) || error.code !== "HARNESS_IMAGE_MISSING") throw error;
        skipped.push({ side: BASELINE, image: options.baselineImage, reason: `baseline image ${options.baselineImage} missing` });
      }
    }
    // A further engine holding another image under a run image's name stops the run now; the images it lacks are
    // copied once the scenarios are planned (below).
    const runImages = [...new Set([helperHttpd, tools, ...candidateImages, ...(baselineImage ? [baselineImage] : [])])];
    const toCopy = new Map<Station, string[]>();
    for (const station of stations.slice(1)) toCopy.set(station, await imagesToCopy(station, primary, runImages));
    interrupted();
    log("run set-up: images resolved (profile)");
    const sideIds = runSides(candidateImages.length);
    const sides: PlannedSideInput[] = [];
    if (baselineImage) sides.push({ side: BASELINE, inspection: await inspectImage(primary.scope, baselineImage) });
    for (const [index, image] of candidateImages.entries()) sides.push({ side: sideIds[index + 1]!, inspection: await inspectImage(primary.scope, image) });
    const ids = new Map<string, string | null>();
    for (const side of sides) ids.set(side.inspection.image, await imageId(primary.engine, side.inspection.image));
    // The lanes, and their networks made while the scenarios are planned: the engine makes networks one at a
    // time (about 0.2 s each, mostly waiting on the kernel, not on the CPU the planning needs), and every lane's
    // first scenario waited for its network after the check. A network is no container: a bad plan still stops the
    // run before any exists, and the run's clean-up removes the networks.
    log("run set-up: images inspected (profile)");
    const count = Array.isArray(options.scenarios) ? options.scenarios.length : options.scenarios.count;
    const lanes = stations.map((station, at) =>
      Array.from({ length: Math.max(1, Math.min(station.concurrency, count)) }, (_, slot) => new ScenarioLane(station.scope, `lane-${at + 1}-${slot + 1}`, tools)),
    );
    // A network that cannot be made now is made again at the lane's first scenario, which then says why. The run
    // waits for these before its clean-up: one still being made when a bad plan stops the run would outlive it.
    for (const lane of lanes.flat()) networksMade.push(lane.network().catch(() => undefined));
    // Every scenario is planned before any of them runs: a plan that cannot be made is bad input, and stops
    // the run before a scenario container exists. The engines hold the same images, so one plan serves all.
    const source = await plannedSource(options, sides);
    // The copies (hundreds of MB each: seconds to minutes) are made while the first engine starts on the
    // scenarios; an engine the copy fails on is left out, as a lost one is.
    const provisioning = new Map<Station, Promise<Error | null>>();
    for (const [station, images] of toCopy) {
      provisioning.set(station, copyImages(station, primary, images, note).then(() => null, (error: unknown) => (error instanceof Error ? error : new Error(String(error)))));
    }

    log("run set-up: planned (profile)");
    const { ca, crl, clients, server } = await certificates;
    log("run set-up: certificates (profile)");
    for (const station of stations) {
      station.context = {
        scope: station.scope,
        sides,
        skipped,
        helperImages: { httpd: helperHttpd, tools },
        certificates: { ca, crl, clients, server },
        learnNoise: options.learnNoise,
        ...(options.reuseServers === undefined ? {} : { reuseServers: options.reuseServers }),
        scenarioTimeLimitMs: options.scenarioTimeLimitMs ?? DEFAULT_SCENARIO_TIME_LIMIT_MS,
        runDeadline,
        sharedClients: new SharedClientNetworks(station.scope, tools, {
          ...(options.sharedNetworkWindowMs === undefined ? {} : { windowMs: options.sharedNetworkWindowMs }),
          turnsAlone: options.sharedNetworkTurnsAlone ?? false,
          note,
        }),
      };
    }

    const runSidesOut: RunSide[] = [
      ...skipped.map((s) => ({ side: s.side, image: s.image, version: null, missing: true, imageId: null })),
      ...sides.map((s) => ({
        side: s.side,
        image: s.side.role === "baseline" && options.baselineImage !== null && !options.baselineImage.startsWith(RECIPE_PREFIX) ? options.baselineImage : s.inspection.image,
        version: s.inspection.version.text,
        missing: false,
        imageId: ids.get(s.inspection.image) ?? null,
      })),
    ].sort((a, b) => (a.side.role === b.side.role ? 0 : a.side.role === "baseline" ? -1 : 1));
    options.onProgress?.({ kind: "sides", sides: runSidesOut });

    const total = source.count;
    const runs: ScenarioRun[] = options.keepRuns === false ? [] : new Array(total);
    // One queue for every engine: a free slot on any engine takes the next scenario, so a fast engine takes
    // over the work a slow one has not reached, except the one scenario it leaves for each engine that has taken
    // none yet (engine-share.ts: every engine of the run takes part, however slow its start). A scenario an engine
    // lost is put back at the front, so a worker with an empty queue waits while scenarios are still running
    // elsewhere: one of them may come back. Scenarios are taken group by group of the seats they take
    // (seat-queue.ts).
    const queue = new SeatQueue(total, (index) => source.seats[index] ?? null);
    log("scenarios by the seats they take: %s", queue.groupCounts());
    let done = 0;
    let running = 0;
    let wake = (): void => {};
    let changed = new Promise<void>((resolve) => (wake = resolve));
    const settle = (): void => {
      const woken = wake;
      changed = new Promise<void>((resolve) => (wake = resolve));
      woken();
    };
    // Removed once the workers end: a caller that runs the harness again and again with one signal (the fuzzer's
    // batches) would otherwise collect a listener per run.
    let onStop = (): void => {};
    const stopped = new Promise<null>((resolve) => {
      onStop = () => resolve(null);
      options.signal?.addEventListener("abort", onStop, { once: true });
    });
    const worker = async (station: Station, lane: ScenarioLane): Promise<void> => {
      const copyFailed = await Promise.race([provisioning.get(station) ?? null, stopped]);
      if (copyFailed && station.lost === null) {
        station.lost = `could not be given the run's images: ${copyFailed.message.split("\n")[0]}`;
        note(`engine ${station.engine.target.url} ${station.lost}; the run goes on without it`);
        // The scenario the other engines left for it is theirs now.
        settle();
      }
      const turn = (s: Station) => ({ taken: s.taken, lost: s.lost !== null });
      const mine = (): boolean => mayTake(turn(station), stations.filter((s) => s !== station).map(turn), queue.length);
      while (!options.signal?.aborted && station.lost === null) {
        if (queue.length === 0 && stations.length === 1) {
          // Nothing left to run, and with one engine nothing comes back to the queue: the lane's seats and network
          // go now, while the other lanes finish their last scenarios, not all together after the last one (the
          // engine removes them one at a time: seconds at the end of a run).
          await lane.retire();
          return;
        }
        if (!mine()) {
          // Nothing to run for now (or only what is left for an engine that has taken nothing yet): the lane's seats
          // leave the shared networks that wait to drain (closed to new scenarios). They stay on open ones: at the
          // run's end its clean-up removes seats and networks at once, without a disconnect for each seat on each
          // network first. It looks again when a scenario ends or a few seconds have passed: a network also closes
          // when its window passes while another run waits for its subnet, and no scenario of this run then tells
          // the lane so.
          await lane.leaveClosedStays();
          if (mine()) continue;
          if (queue.length === 0 && running === 0) return;
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([changed, new Promise<void>((resolve) => (timer = setTimeout(resolve, IDLE_LOOK_MS)))]);
          clearTimeout(timer);
          continue;
        }
        // A lane keeps to one group of seats (seat-queue.ts shiftFor); alone on one engine, it ends rather than
        // make seats and hosts anew for a group the other lanes end as soon.
        const index = queue.shiftFor(lane, stations.length === 1);
        if (index === undefined) {
          await lane.retire();
          return;
        }
        station.taken++;
        running++;
        try {
          const { scenario, plan } = await source.take(index);
          // The seats that neither this scenario nor a queued one takes go while it runs, not at the run's end.
          lane.retireSeatsBut([...(ScenarioLane.seatsFor(plan) ?? []), ...queue.kindsAhead()]);
          const run =
            runDeadline !== null && Date.now() >= runDeadline
              ? notStarted(scenario, plan, skipped, options.runTimeLimitMs!)
              : await observeScenario(scenario, plan, station.context!, lane);
          // A scenario that failed may have lost the engine itself: then what it recorded says nothing of the
          // config. With several engines, one that stopped answering after a scenario that did not fail is asked
          // too (its log streams may have been cut short). With another engine left, the scenario goes back to
          // the queue; with none, the run stops, exit 3, no report.
          // An engine that stopped finishing its endpoint changes (engine/endpoint-changes.ts) still answers a ping.
          if ((run.error || stations.length > 1) && (engineStuck(station.engine) !== null || !(await engineAnswers(station.engine)))) {
            const why = run.error ? `: ${run.error.message.split("\n")[0]}` : "";
            // The first scenario to find it gone says why; the engine's other scenarios find the same.
            station.lost ??= `stopped answering during ${scenario.id}${why}`;
            if (stations.some((s) => s.lost === null)) {
              queue.unshift(index);
              note(`engine ${station.engine.target.url} stopped answering during ${scenario.id}${why}; the scenario goes to the other engines`);
              return;
            }
            queue.clear();
            throw new HarnessError("HARNESS_ENGINE_UNAVAILABLE", `The Docker engine (${stations.length > 1 ? "every engine of --engines" : process.env.DOCKER_HOST || "the default socket"}) stopped answering during the run; no report was written.`, {
              hint: `What failed: ${run.scenario.id}${why}\nThe run's containers are removed by the next run's sweep once the engine answers again.`,
            });
          }
          const finished = stations.length > 1 ? { ...run, engine: station.engine.target.url } : run;
          if (options.keepRuns !== false) runs[index] = finished;
          station.ran++;
          done++;
          options.onProgress?.({ kind: "scenario-done", run: finished, done, total });
        } finally {
          running--;
          settle();
        }
      }
    };
    const workers = stations.flatMap((station, at) => lanes[at]!.map((lane) => worker(station, lane)));
    // Every worker ends before the run does (a failed one empties the queue), so nothing runs after the scopes go.
    const ended = await Promise.allSettled(workers);
    options.signal?.removeEventListener("abort", onStop);
    const failed = ended.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed) throw failed.reason;
    interrupted();

    return {
      startedAt,
      sides: runSidesOut,
      runs,
      durationMs: Date.now() - startedAt.getTime(),
      engines: stations.map((s) => ({ name: s.engine.target.url, concurrency: s.concurrency, scenarios: s.ran, lost: s.lost })),
      containersCreated: stations.reduce((sum, s) => sum + s.scope.containersCreated, 0),
    };
  } finally {
    options.signal?.removeEventListener("abort", abort);
    // The shared networks' window timers end with the run (the clean-up removes the networks themselves).
    for (const station of stations) station.context?.sharedClients?.close();
    await Promise.all(networksMade);
    await disposeAll();
    // A clean-up the engine stopped answering in is no finished run, whatever the scenarios said.
    for (const station of stations) {
      const stuck = engineStuck(station.engine);
      if (stuck !== null) throw engineStuckError(station.engine, stuck);
    }
  }
}
