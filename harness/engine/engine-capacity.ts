// How many scenarios an engine runs at once when nobody says (--concurrency, --engines ADDR=N): sized from what
// the engine reports of itself (`docker info`), not from this machine, which may not be where the engine runs.
// A scenario's cost is mostly the engine's: starting and removing containers and networks is CPU work in
// dockerd, containerd and runc, while the harness waits on readiness, log quiet windows and slow clients. So a
// few scenarios per engine CPU keep the CPUs busy through the waits; memory bounds it where CPUs are many.
import type { Engine } from "./engine.ts";
import { log } from "./log.ts";

export interface EngineSize {
  cpus: number;
  memoryBytes: number;
}

/** Scenarios per engine CPU: measured on a 2-CPU engine (npm run bench), where 4 per CPU finished the catalogue
 * sooner than 2 or 8. */
export const SCENARIOS_PER_CPU = 4;
/** Fleet configs per engine CPU: a config keeps the engine busy for most of its time (two servers and a whole
 * probe set), and each lane keeps seats of its own. A real 2.2 baseline waits where 2.4 does not: 2.2's
 * mod_unique_id sleeps to the next whole second in each of its two start-up passes, and a package's fragment runs in
 * the 2.2 image's stock config, which loads it (1-2 s before the server is ready). On the 2-CPU engine, 100 configs
 * against 2.2.34 ran at 1.65-1.72 configs/s with 4 at once, 1.85 with 6; 2.4.68 on both sides ran at 2.23 either
 * way. Since a config's requests go through libcurl in the clients' agents (docker/tools/agent_curl.py) a config
 * takes a fifth less CPU and waits as long, so the engine idled more: with 8 at once it idled half as much as with
 * 6 (8 against 15 CPU-seconds per 100 configs), for 2.02 against 1.96 configs/s in alternated runs. */
export const FLEET_CONFIGS_PER_CPU = 4;
/** What one scenario may hold at once: two servers, clients and backends, each far below its 512 MiB cap. */
export const MEMORY_PER_SCENARIO = 256 * 1024 * 1024;
/** Docker's default address pools hold about 30 networks; a scenario holds its lane's network and, for clients
 * with fixed addresses or names, networks of its own. */
export const MAX_DEFAULT_CONCURRENCY = 16;

/** Pure: the default concurrency of an engine of this size, for scenarios that take `perCpu` per CPU. */
export function defaultConcurrency(size: EngineSize, perCpu: number = SCENARIOS_PER_CPU): number {
  const byCpu = Math.max(1, size.cpus) * perCpu;
  const byMemory = Math.max(1, Math.floor(size.memoryBytes / MEMORY_PER_SCENARIO));
  return Math.min(byCpu, byMemory, MAX_DEFAULT_CONCURRENCY);
}

/** The engine's size as it reports it; null when it does not say (then the caller keeps its own default). */
export async function engineSize(engine: Engine): Promise<EngineSize | null> {
  try {
    const info = (await engine.docker.info()) as { NCPU?: number; MemTotal?: number };
    if (!info.NCPU || !info.MemTotal) return null;
    return { cpus: info.NCPU, memoryBytes: info.MemTotal };
  } catch (error) {
    log("engine info failed: %s", error);
    return null;
  }
}
