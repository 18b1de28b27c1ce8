import type { Engine } from "./engine.ts";
import { LABEL_APP, LABEL_OWNER_PID, LABEL_RUN_ID } from "./labels.ts";
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
  const filters = { label: [options.runId ? `${LABEL_RUN_ID}=${options.runId}` : `${LABEL_APP}=true`] };
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

/** What the harness has on the engine now: for tests that check nothing is left behind. */
export async function listHarnessResources(engine: Engine, runId?: string): Promise<{ containers: string[]; networks: string[] }> {
  const filters = { label: [runId ? `${LABEL_RUN_ID}=${runId}` : `${LABEL_APP}=true`] };
  const containers = await engine.docker.listContainers({ all: true, filters });
  const networks = await engine.docker.listNetworks({ filters });
  return { containers: containers.map((c) => c.Names[0] ?? c.Id), networks: networks.map((n) => n.Name) };
}
