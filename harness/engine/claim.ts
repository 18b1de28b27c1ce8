// Global things a run may need for a while: a client's subnet, a network or container name that a DNS name
// dictates (`www` on network `example.com`). The engine itself is the lock: it refuses a second network with an
// overlapping subnet or the same name, and a second container with the same name. When it refuses, the holder
// decides what happens: another harness run whose lease is alive (engine/lease.ts) is waited for; one whose lease
// expired is swept and the claim tried again; anything else (a network of the user's, a subnet the engine will
// not give, no IPv6) is a HARNESS_CLIENT_ADDRESS naming what was asked for, so a prover can mark those cells
// unprobed instead of failing the run.
import { HarnessError } from "../errors.ts";
import type { Engine } from "./engine.ts";
import { LABEL_RUN_ID } from "./labels.ts";
import { engineNow, listLeases } from "./lease.ts";
import { log } from "./log.ts";
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
  const waitMs = options.waitMs ?? 600_000;
  const pollMs = options.pollMs ?? 500;
  for (;;) {
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
        if (options.signal?.aborted || Date.now() - started > waitMs) {
          throw new HarnessError("HARNESS_CLIENT_ADDRESS", `Cannot give ${options.subject}: another harness run holds it (${holder.kind === "harness" ? holder.what : "?"}) and did not free it in time.`, { cause: error });
        }
        log("claim %s: waiting for %s", options.subject, holder.kind === "harness" ? holder.what : "?");
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    }
  }
}
