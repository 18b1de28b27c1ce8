import { randomBytes } from "node:crypto";
import type { Engine } from "./engine.ts";
import { log } from "./log.ts";

/** Owns every container and network one run creates and removes them all on dispose, whatever happened: a
 * passed run, a failed one, or Ctrl-C (the CLI disposes the scope from its signal handler). */
export class RunScope implements AsyncDisposable {
  readonly runId: string;
  readonly engine: Engine;
  private readonly containers = new Set<string>();
  private readonly networks = new Set<string>();
  private disposing: Promise<void> | undefined;

  constructor(engine: Engine, runId = `run-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`) {
    this.engine = engine;
    this.runId = runId;
  }

  trackContainer(id: string): void {
    this.containers.add(id);
  }

  trackNetwork(id: string): void {
    this.networks.add(id);
  }

  async removeContainer(id: string): Promise<void> {
    this.containers.delete(id);
    await removeContainerQuietly(this.engine, id);
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
      await Promise.all([...this.networks].map((id) => removeNetworkQuietly(this.engine, id)));
      this.networks.clear();
    })();
    return this.disposing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }
}

export async function removeContainerQuietly(engine: Engine, id: string): Promise<void> {
  try {
    await engine.docker.getContainer(id).remove({ force: true, v: true });
    log("[%s] removed", id.slice(0, 12));
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) log("[%s] remove failed: %s", id.slice(0, 12), error);
  }
}

export async function removeNetworkQuietly(engine: Engine, id: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await engine.docker.getNetwork(id).remove();
      log("network %s removed", id.slice(0, 12));
      return;
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404) return;
      // 403 "has active endpoints": a container removal is still settling.
      await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
    }
  }
}
