// For tests that check a run left nothing behind: what the harness has on the engine now.
import type { Engine } from "../../harness/engine/engine.ts";
import { harnessResourceFilters } from "../../harness/engine/labels.ts";

/** The names of the harness's containers and networks on the engine: one run's, or every run's. */
export async function listHarnessResources(engine: Engine, runId?: string): Promise<{ containers: string[]; networks: string[] }> {
  const filters = harnessResourceFilters(runId);
  const containers = await engine.docker.listContainers({ all: true, filters });
  const networks = await engine.docker.listNetworks({ filters });
  return { containers: containers.map((c) => c.Names[0] ?? c.Id), networks: networks.map((n) => n.Name) };
}
