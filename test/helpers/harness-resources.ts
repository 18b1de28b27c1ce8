// For tests that check a run left nothing behind: what the harness has on the engine now.
import type { Engine } from "../../harness/engine/engine.ts";
import { harnessResourceFilters, LABEL_SESSION } from "../../harness/engine/labels.ts";

/** The names of the harness's containers and networks on the engine: one run's, one session's, or every run's. */
export async function listHarnessResources(
  engine: Engine,
  which?: string | { session: string },
): Promise<{ containers: string[]; networks: string[] }> {
  const filters = typeof which === "object" ? { label: [`${LABEL_SESSION}=${which.session}`] } : harnessResourceFilters(which);
  const containers = await engine.docker.listContainers({ all: true, filters });
  const networks = await engine.docker.listNetworks({ filters });
  return { containers: containers.map((c) => c.Names[0] ?? c.Id), networks: networks.map((n) => n.Name) };
}
