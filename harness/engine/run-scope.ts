import { randomBytes } from "node:crypto";
import { HarnessError } from "../errors.ts";
import { changeEndpoints, engineStuck, limitEngineCall } from "./endpoint-changes.ts";
import type { Engine } from "./engine.ts";
import { harnessResourceFilters } from "./labels.ts";
import { RunLease } from "./lease.ts";
import { log } from "./log.ts";

/** Owns every container and network one run creates and removes them all on dispose, whatever happened: a
 * passed run, a failed one, or Ctrl-C (the CLI disposes the scope from its signal handler). It holds the run's
 * lease (engine/lease.ts) from construction until every resource is gone, so that no other harness process sweeps
 * a live run; a run that dies without disposing (kill -9) stops renewing, and the next run's sweep reaps it. */
export class RunScope implements AsyncDisposable {
  readonly runId: string;
  readonly engine: Engine;
  private readonly containers = new Set<string>();
  #created = 0;
  private readonly networks = new Set<string>();
  private disposing: Promise<void> | undefined;
  private readonly lease: RunLease;
  private readonly leaseTaken: Promise<void>;

  constructor(engine: Engine, runId = `run-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`) {
    this.engine = engine;
    this.runId = runId;
    this.lease = new RunLease(engine, runId);
    // Not awaited here: until the first lease stands, a sweep judges this run's resources by their age, which is
    // below the lease length (engine/sweep.ts).
    this.leaseTaken = this.lease.start();
  }

  /** A container created while the scope is being disposed (Ctrl-C during a create) is removed at once, and
   * the caller learns the run is over. */
  async trackContainer(id: string): Promise<void> {
    if (this.disposing) {
      await removeContainerQuietly(this.engine, id);
      throw new HarnessError("HARNESS_INTERRUPTED", "The run was stopped while a container was being created.");
    }
    this.containers.add(id);
    this.#created += 1;
  }

  /** How many containers the run created here so far (each one tracked). */
  get containersCreated(): number {
    return this.#created;
  }

  async trackNetwork(id: string): Promise<void> {
    if (this.disposing) {
      await removeNetworkQuietly(this.engine, id);
      throw new HarnessError("HARNESS_INTERRUPTED", "The run was stopped while a network was being created.");
    }
    this.networks.add(id);
  }

  /** `endpoints`: whether the container has network endpoints of its own (one that joins another's namespace
   * has none, and its removal need not wait for the engine's endpoint changes: engine/endpoint-changes.ts). */
  async removeContainer(id: string, endpoints = true): Promise<void> {
    this.containers.delete(id);
    await removeContainerQuietly(this.engine, id, endpoints);
  }

  async removeNetwork(id: string): Promise<void> {
    this.networks.delete(id);
    await removeNetworkQuietly(this.engine, id);
  }

  /** Idempotent; safe to call from a signal handler while a dispose is under way. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      await Promise.all([...this.containers].map((id) => removeContainerQuietly(this.engine, id)));
      this.containers.clear();
      // A create the engine finished but whose caller had not tracked it yet still carries our run label.
      const filters = harnessResourceFilters(this.runId);
      const labelled = await this.engine.docker.listContainers({ all: true, filters }).catch(() => []);
      await Promise.all(labelled.map((c) => removeContainerQuietly(this.engine, c.Id)));
      await Promise.all([...this.networks].map((id) => removeNetworkQuietly(this.engine, id)));
      this.networks.clear();
      // An engine that stopped answering network calls would not answer this list either: what is left is the
      // next run's sweep's, and the run says why (engineStuck).
      const networks = engineStuck(this.engine) === null ? await this.engine.docker.listNetworks({ filters }).catch(() => []) : [];
      await Promise.all(networks.map((n) => removeNetworkQuietly(this.engine, n.Id)));
      await this.leaseTaken;
      await this.lease.stop();
    })();
    return this.disposing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

/** `endpoints`: false for a container in another's network namespace (it has no endpoints to change). */
export async function removeContainerQuietly(engine: Engine, id: string, endpoints = true): Promise<void> {
  try {
    const remove = (): Promise<unknown> => engine.docker.getContainer(id).remove({ force: true, v: true });
    await (endpoints ? changeEndpoints(engine, `removing the container ${id.slice(0, 12)}`, remove) : remove());
    log("[%s] removed", id.slice(0, 12));
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) log("[%s] remove failed: %s", id.slice(0, 12), error);
  }
}

export async function removeNetworkQuietly(engine: Engine, id: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // Not queued with the endpoint changes (a network with endpoints left is refused, not deadlocked), but
      // limited like them: a lane's network goes as soon as its seats are gone, beside other lanes' seats going.
      await limitEngineCall(engine, `removing the network ${id.slice(0, 12)}`, () => engine.docker.getNetwork(id).remove());
      log("network %s removed", id.slice(0, 12));
      return;
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404 || engineStuck(engine) !== null) return;
      // 403 "has active endpoints": a container removal is still settling.
      await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
    }
  }
}
