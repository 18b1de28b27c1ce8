import type { Engine } from "./engine.ts";
import { harnessResourceFilters, LABEL_OWNER_PID } from "./labels.ts";
import { removeContainerQuietly, removeNetworkQuietly } from "./run-scope.ts";

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Removes containers and networks left by runs whose process is gone (a crash, a kill -9). Live runs of other
 * processes are left alone, so parallel CI jobs on one engine do not remove each other's servers. */
export async function sweepAbandoned(engine: Engine, options: { runId?: string } = {}): Promise<{ containers: number; networks: number }> {
  const filters = harnessResourceFilters(options.runId);
  const abandoned = (labels: Record<string, string> | undefined): boolean => {
    if (options.runId) return true;
    const pid = Number(labels?.[LABEL_OWNER_PID]);
    if (!Number.isInteger(pid)) return true;
    return pid !== process.pid && !processAlive(pid);
  };
  const containers = (await engine.docker.listContainers({ all: true, filters })).filter((c) => abandoned(c.Labels));
  await Promise.all(containers.map((c) => removeContainerQuietly(engine, c.Id)));
  const networks = (await engine.docker.listNetworks({ filters })).filter((n) => abandoned(n.Labels));
  await Promise.all(networks.map((n) => removeNetworkQuietly(engine, n.Id)));
  return { containers: containers.length, networks: networks.length };
}
