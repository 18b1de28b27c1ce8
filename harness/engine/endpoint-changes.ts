// Endpoint changes one at a time per engine, each with a time limit. Docker 20.10 before its backport of
// moby/moby#42545 (moby/libnetwork#2679, 2023; Debian bookworm's docker.io 20.10.24 lacks it) can deadlock its
// network controller when two endpoints of one network go at the same moment: one goroutine holds the network's
// lock and waits for the controller's, the controller's watch loop holds that and waits for the network's
// (moby/moby#46661). From then on the daemon answers no network call and removes no container with an endpoint:
// a run removing a fleet's seats (four networks each) all at once hung for good in its clean-up, twice in a day.
// So the harness takes endpoints away one at a time on each engine: it removes containers that have endpoints of
// their own and disconnects in turn (the engine released endpoints one at a time anyway, 0.06-0.1 s each).
// Endpoints coming (a connect, a container's start) and network creates and removals are not queued: they are most
// of a run's start, and the deadlock takes an endpoint going; they get the same time limit (limitEngineCall). Another process on the same engine is not covered; nor is a container
// that exits by itself.
// A change that has not ended within its limit means the engine stopped answering: the engine is marked stuck,
// every later change fails at once instead of waiting behind it, and the run says so (engineStuck) instead of
// hanging.
import { HarnessError } from "../errors.ts";
import type { Engine } from "./engine.ts";
import { describeEngineTarget } from "./engine-target.ts";

/** Far above what a removal takes on a loaded engine (seconds), far below a CI job's limit. */
export const ENDPOINT_CHANGE_LIMIT_MS = 120_000;

interface Gate {
  /** The last change queued; the next starts once it has ended. */
  tail: Promise<unknown>;
  /** What the engine did not finish within its limit, once that happened. */
  stuck: string | null;
}

const gates = new WeakMap<Engine, Gate>();

function gateOf(engine: Engine): Gate {
  let gate = gates.get(engine);
  if (!gate) gates.set(engine, (gate = { tail: Promise.resolve(), stuck: null }));
  return gate;
}

/** What the engine stopped answering in, or null while it answers. */
export function engineStuck(engine: Engine): string | null {
  return gates.get(engine)?.stuck ?? null;
}

export function engineStuckError(engine: Engine, what: string, limitMs = ENDPOINT_CHANGE_LIMIT_MS): HarnessError {
  return new HarnessError(
    "HARNESS_ENGINE_UNAVAILABLE",
    `The Docker engine ${describeEngineTarget(engine.target)} stopped answering: it did not finish ${what} within ${limitMs >= 1000 ? `${Math.round(limitMs / 1000)} s` : `${limitMs} ms`}, so the run stopped and could not remove what it made.`,
    {
      hint:
        "Docker 20.10 before its fix for moby/moby#46661 (Debian bookworm's docker.io 20.10.24 among them) can deadlock when two containers of one network go at once; " +
        "its network calls then wait forever. Restart the engine (for the one the harness started: `pkill -x dockerd; bash scripts/setup.sh`); " +
        "the next run's sweep removes what this run left.",
    },
  );
}

/** Runs `change` once every change queued before it on this engine has ended (endpoints going: removals,
 * disconnects), and fails it, marking the engine stuck, when it has not ended within `limitMs`. */
export function changeEndpoints<T>(engine: Engine, what: string, change: () => Promise<T>, limitMs = ENDPOINT_CHANGE_LIMIT_MS): Promise<T> {
  const gate = gateOf(engine);
  const run = gate.tail.then(() => withinLimit(engine, gate, what, change, limitMs));
  gate.tail = run.catch(() => undefined);
  return run;
}

/** Runs `call` at once (endpoints coming: connects, network creates, which the deadlock above does not take two
 * of), with the same limit: an engine stuck on them is stuck for every change. */
export function limitEngineCall<T>(engine: Engine, what: string, call: () => Promise<T>, limitMs = ENDPOINT_CHANGE_LIMIT_MS): Promise<T> {
  const gate = gateOf(engine);
  return Promise.resolve().then(() => withinLimit(engine, gate, what, call, limitMs));
}

function withinLimit<T>(engine: Engine, gate: Gate, what: string, call: () => Promise<T>, limitMs: number): Promise<T> {
  if (gate.stuck !== null) throw engineStuckError(engine, gate.stuck, limitMs);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      gate.stuck ??= what;
      reject(engineStuckError(engine, what, limitMs));
    }, limitMs);
    call().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
