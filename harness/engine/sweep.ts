import type { Engine } from "./engine.ts";
import { harnessResourceFilters, LABEL_CLAIM_SINCE, LABEL_LEASE_SECONDS, LABEL_ROLE, LABEL_RUN_ID } from "./labels.ts";
import { engineNow, leaseGraceMs, type LeaseRecord, listLeases, removeVolumeQuietly } from "./lease.ts";
import { removeContainerQuietly, removeNetworkQuietly } from "./run-scope.ts";

/** A resource made by a harness version before leases carries no lease length: it is left alone for an hour. */
export const LEGACY_RESOURCE_SECONDS = 3600;

export interface SweptResource {
  runId: string;
  labels: Record<string, string>;
  /** Epoch milliseconds, engine clock. */
  created: number;
}

/** Pure: whether a resource's run is gone, judged at `now` (engine clock, ms) from the run's lease volumes (see
 * engine/lease.ts): the newest lease's holder is known gone, or the lease expired more than a grace ago; or, with no
 * lease at all, the resource is older than its lease length plus the grace. */
export function isAbandoned(resource: SweptResource, leases: readonly LeaseRecord[], now: number): boolean {
  const own = leases.filter((lease) => lease.runId === resource.runId);
  if (own.length > 0) return leaseEnded(own.reduce((a, b) => (b.expires > a.expires ? b : a)), now);
  const stated = Number(resource.labels[LABEL_LEASE_SECONDS]);
  const seconds = Number.isFinite(stated) && stated > 0 ? stated : LEGACY_RESOURCE_SECONDS;
  return now > resource.created + seconds * 1000 + leaseGraceMs(seconds);
}

/** Pure: whether a run's newest lease has ended: its holder is known gone, or it expired more than a grace ago. */
export function leaseEnded(newest: LeaseRecord, now: number): boolean {
  return newest.holderGone === true || now > newest.expires + leaseGraceMs(newest.seconds);
}

export interface SweepResult {
  containers: number;
  networks: number;
  /** The runs whose resources were removed. */
  runs: string[];
}

/** Removes the containers and networks of runs whose lease expired (a crash, a kill -9, on this machine or any
 * other sharing the engine), then their lease volumes. Live runs keep everything, whoever started them; nothing
 * without the harness's run label is looked at. With `runId`, removes that run's resources whatever its lease. */
export async function sweepAbandoned(engine: Engine, options: { runId?: string } = {}): Promise<SweepResult> {
  const filters = harnessResourceFilters(options.runId);
  const [now, leases, containerList, networkList] = await Promise.all([
    engineNow(engine),
    listLeases(engine),
    engine.docker.listContainers({ all: true, filters }),
    engine.docker.listNetworks({ filters }),
  ]);
  const gone = (labels: Record<string, string> | undefined, created: number): boolean => {
    const runId = labels?.[LABEL_RUN_ID];
    if (!runId) return false;
    return options.runId !== undefined || isAbandoned({ runId, labels: labels ?? {}, created }, leases, now);
  };
  const containers = containerList.filter((c) => gone(c.Labels, c.Created * 1000));
  await Promise.all(containers.map((c) => removeContainerQuietly(engine, c.Id)));
  const networks = networkList.filter((n) => gone(n.Labels, Date.parse(n.Created)));
  await Promise.all(networks.map((n) => removeNetworkQuietly(engine, n.Id)));
  // A run's lease volumes go once its newest lease has expired: a live run's previous lease is its own to remove.
  const newest = new Map<string, LeaseRecord>();
  for (const lease of leases) if (lease.expires > (newest.get(lease.runId)?.expires ?? -Infinity)) newest.set(lease.runId, lease);
  const expired = leases.filter((lease) => {
    const last = newest.get(lease.runId)!;
    return options.runId === lease.runId || leaseEnded(last, now);
  });
  await Promise.all(expired.map((lease) => removeVolumeQuietly(engine, lease.volume)));
  // Places in line for a subnet (engine/claim-queue.ts) of runs that died waiting.
  const places = await engine.docker.listVolumes({ filters: { label: [`${LABEL_ROLE}=claim`, ...filters.label] } }).then((answer) => answer.Volumes ?? [], () => []);
  await Promise.all(places.filter((volume) => gone(volume.Labels ?? undefined, Number(volume.Labels?.[LABEL_CLAIM_SINCE]) || 0)).map((volume) => removeVolumeQuietly(engine, volume.Name)));
  const runs = [...new Set([...containers.map((c) => c.Labels[LABEL_RUN_ID]!), ...networks.map((n) => n.Labels?.[LABEL_RUN_ID] ?? "")])].filter(Boolean);
  return { containers: containers.length, networks: networks.length, runs };
}
