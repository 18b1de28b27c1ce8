// Global things a run may need for a while: a client's subnet, a network or container name that a DNS name
// dictates (`www` on network `example.com`). The engine itself is the lock: it refuses a second network with an
// overlapping subnet or the same name, and a second container with the same name. When it refuses, the holder
// decides what happens: another harness run whose lease is alive (engine/lease.ts) is waited for; one whose lease
// expired is swept and the claim tried again; anything else (a network of the user's, a subnet the engine will
// not give, no IPv6) is a HARNESS_CLIENT_ADDRESS naming what was asked for, so a prover can mark those cells
// unprobed instead of failing the run.
import { HarnessError } from "../errors.ts";
import type { Engine } from "./engine.ts";
import { LABEL_RUN_ID, LABEL_SCENARIO } from "./labels.ts";
import { engineNow, listLeases } from "./lease.ts";
import { log } from "./log.ts";
import { ClaimQueue } from "./claim-queue.ts";
import { isAbandoned, sweepAbandoned } from "./sweep.ts";

/** Who holds what a claim asked for, as the engine's lists show it after a refusal. */
export type ClaimHolder =
  /** Nothing holds it any more (it went between the refusal and the look): try again at once. */
  | { kind: "none" }
  /** A harness run's network or container. */
  | { kind: "harness"; labels: Record<string, string>; created: number; what: string }
  /** Something that is not the harness's, or a refusal no holder explains. */
  | { kind: "foreign"; reason: string };

export interface ClaimOptions {
  /** What is claimed, for the error: "client office's address 10.77.1.5". */
  subject: string;
  /** Stops waiting (the scenario's time limit). */
  signal?: AbortSignal;
  /** How long to wait for a live run's hold at most; default 10 minutes. */
  waitMs?: number;
  pollMs?: number;
  /** Told each time the claim waits for another run (the first time and on every look after), so that what waits
   * can say what it waits for: a scenario's pending step, the run's notes. */
  onWait?: (wait: ClaimWait) => void;
  /** Waits in line with other runs claiming the same `key` (a subnet), in the order they began to wait
   * (engine/claim-queue.ts); `scenario` labels this claim's place. */
  queue?: { runId: string; key: string; scenario: string };
}

/** A claim waiting for a live harness run's hold, or for its turn behind another run in line (claim-queue.ts). */
export interface ClaimWait {
  subject: string;
  /** What holds it, as the engine lists it ("network harness-run-…-s1a2b3c4"); null: the other run is in line
   * ahead of this claim, since `aheadSince` (epoch ms). */
  holder: string | null;
  aheadSince?: number;
  /** The holding run's id, and the scenario its resource is labelled with ("shared-clients", a lane's name). */
  runId: string;
  scenario: string | null;
  /** When this claim first waited (epoch ms). */
  since: number;
}

/** Pure: one line saying what a claim waits for, by whom it is held and since when: the pending step of a scenario
 * stopped by its time limit, and the run's note. */
export function describeClaimWait(wait: ClaimWait, now: number): string {
  const clock = (ms: number): string => `${new Date(ms).toISOString().slice(11, 19)} UTC`;
  const run = `run ${wait.runId}${wait.scenario ? ` (${wait.scenario})` : ""}`;
  const whose = wait.holder !== null ? `held by ${wait.holder} of ${run}` : `in line after ${run}, which waits for it since ${clock(wait.aheadSince ?? wait.since)}`;
  return `waiting for ${wait.subject}, ${whose}, since ${clock(wait.since)} (${Math.max(0, Math.round((now - wait.since) / 1000))} s)`;
}

/** Pure: the end of a wait, for the run's notes. */
export function describeClaimWaited(wait: ClaimWait, now: number): string {
  const run = `run ${wait.runId}`;
  return `${wait.subject}: waited ${Math.max(0, Math.round((now - wait.since) / 1000))} s, last for ${wait.holder !== null ? `${wait.holder} of ${run}` : `the turn of ${run}`}`;
}

/** Pure: what to do about a holder: wait for a live run, sweep an abandoned one, give up on anything else. */
export function claimAction(holder: ClaimHolder, leases: Parameters<typeof isAbandoned>[1], now: number): "retry" | "wait" | "sweep" | "refuse" {
  if (holder.kind === "none") return "retry";
  if (holder.kind === "foreign") return "refuse";
  const runId = holder.labels[LABEL_RUN_ID];
  if (!runId) return "refuse";
  return isAbandoned({ runId, labels: holder.labels, created: holder.created }, leases, now) ? "sweep" : "wait";
}

/** Runs `attempt` until the engine accepts it: on a refusal, `holderOf(error)` says who holds it, and the claim
 * waits, sweeps, or throws HARNESS_CLIENT_ADDRESS. */
export async function claim<T>(
  engine: Engine,
  attempt: () => Promise<T>,
  holderOf: (error: unknown) => Promise<ClaimHolder>,
  options: ClaimOptions,
): Promise<T> {
  const started = Date.now();
  let waitingSince: number | null = null;
  const waitMs = options.waitMs ?? 600_000;
  const pollMs = options.pollMs ?? 500;
  const queue = options.queue ? new ClaimQueue(engine, options.queue.runId, options.queue.key, options.queue.scenario) : null;
  const wait = async (other: Omit<ClaimWait, "subject" | "since"> | null, cause?: unknown): Promise<void> => {
    const what = other === null ? "?" : (other.holder ?? `the turn of run ${other.runId}`);
    if (options.signal?.aborted || Date.now() - started > waitMs) {
      throw new HarnessError("HARNESS_CLIENT_ADDRESS", `Cannot give ${options.subject}: another harness run holds it (${what}) and did not free it in time.`, { cause });
    }
    log("claim %s: waiting for %s", options.subject, what);
    if (other !== null) {
      waitingSince ??= Date.now();
      options.onWait?.({ ...other, subject: options.subject, since: waitingSince });
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  };
  try {
    for (;;) {
      // Another live run that began to wait before this claim goes first (engine/claim-queue.ts): this claim waits
      // in line, also when what it claims is free for a moment.
      const ahead = (await queue?.ahead()) ?? [];
      if (ahead.length > 0) {
        await queue!.join();
        const first = ahead[0]!;
        await wait({ holder: null, aheadSince: first.since, runId: first.runId, scenario: first.labels[LABEL_SCENARIO] ?? null });
        continue;
      }
      try {
        return await attempt();
      } catch (error) {
        if (error instanceof HarnessError && error.code !== "HARNESS_CONTAINER") throw error;
        const holder = await holderOf(error);
        const [leases, now] = await Promise.all([listLeases(engine), engineNow(engine)]);
        const action = claimAction(holder, leases, now);
        if (action === "refuse") {
          const reason = holder.kind === "foreign" ? holder.reason : (error as Error).message;
          throw new HarnessError("HARNESS_CLIENT_ADDRESS", `Cannot give ${options.subject}: ${reason}`, {
            cause: error,
            hint: "Free it on the engine, or leave the cells that need it unprobed.",
          });
        }
        if (action === "sweep") {
          log("claim %s: holder's run is gone, sweeping", options.subject);
          await sweepAbandoned(engine);
          continue;
        }
        if (action === "wait") {
          await queue?.join();
          await wait(holder.kind === "harness" ? { holder: holder.what, runId: holder.labels[LABEL_RUN_ID]!, scenario: holder.labels[LABEL_SCENARIO] ?? null } : null, error);
        }
      }
    }
  } finally {
    await queue?.leave();
  }
}
