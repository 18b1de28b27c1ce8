// A run's lease: how another harness process, in any pid namespace or on any machine that shares the engine,
// tells a live run's containers and networks from those a crashed run left behind.
//
// Docker cannot change the labels of a live container or network, so the expiry cannot live on the resources
// themselves. Each run keeps it on one small *lease volume* of its own instead (`harness-lease-<run id>-<n>`,
// labelled with the run id, the session, the lease length and the expiry). A heartbeat every third of the lease
// renews it by creating the next volume with a later expiry and then removing the previous one, so at every
// moment at least one lease volume stands for a live run. A volume needs no image, no process and no address
// (a marker network would take a subnet from the engine's pool, a marker container an image), and every engine
// that speaks the Docker API has them. Expiry times are in the engine's clock (its `SystemTime`, measured once per
// process), so machines with skewed clocks agree on them.
//
// A sweep (engine/sweep.ts) removes a run's resources only when its newest lease has expired by more than a grace
// of half the lease (at least 2 s), or at once when the lease's holder, the run's process, is known gone: the lease
// names it (engine/lease-holder.ts), and a sweep on the same kernel and in the same pid namespace sees whether it
// lives (a run killed with SIGKILL). A run with no lease volume at all (a crash between its first resource and
// its first lease, an old harness version, a `docker volume prune -a`, which the next heartbeat repairs) is
// judged by the age of each resource instead. Resources without the run label are never touched.
import type { Engine } from "./engine.ts";
import { formatHolder, leaseHolderGone, thisHolder } from "./lease-holder.ts";
import {
  LABEL_LEASE_EXPIRES,
  LABEL_LEASE_HOLDER,
  LABEL_LEASE_SECONDS,
  LABEL_RUN_ID,
  LABEL_SESSION,
  leaseSeconds,
  resourceLabels,
} from "./labels.ts";
import { log } from "./log.ts";

/** Pure: the margin past a lease's expiry before its run counts as gone, in milliseconds. */
export function leaseGraceMs(seconds: number): number {
  return Math.max(2_000, (seconds * 1000) / 2);
}

const offsets = new WeakMap<object, Promise<number>>();

/** The engine's clock now, in epoch milliseconds: this machine's clock plus the offset measured once per engine. */
export async function engineNow(engine: Engine): Promise<number> {
  let offset = offsets.get(engine.docker);
  if (!offset) {
    offset = (async () => {
      const before = Date.now();
      const info = (await engine.docker.info()) as { SystemTime?: string };
      const after = Date.now();
      const engineTime = Date.parse(info.SystemTime ?? "");
      return Number.isFinite(engineTime) ? engineTime - (before + after) / 2 : 0;
    })();
    offset.catch(() => offsets.delete(engine.docker));
    offsets.set(engine.docker, offset);
  }
  return Date.now() + (await offset);
}

export interface LeaseRecord {
  runId: string;
  session: string | undefined;
  /** Epoch milliseconds, engine clock. */
  expires: number;
  seconds: number;
  volume: string;
  /** The process that renews it is known gone (engine/lease-holder.ts): seen from this process when listed. */
  holderGone?: boolean;
}

/** Every lease volume on the engine. */
export async function listLeases(engine: Engine): Promise<LeaseRecord[]> {
  const { Volumes } = await engine.docker.listVolumes({ filters: { label: [LABEL_LEASE_EXPIRES] } });
  return (Volumes ?? []).flatMap((volume) => {
    const labels = volume.Labels ?? {};
    const runId = labels[LABEL_RUN_ID];
    const expires = Date.parse(labels[LABEL_LEASE_EXPIRES] ?? "");
    const seconds = Number(labels[LABEL_LEASE_SECONDS]);
    if (!runId || !Number.isFinite(expires)) return [];
    const holderGone = leaseHolderGone(labels[LABEL_LEASE_HOLDER]);
    return [{ runId, session: labels[LABEL_SESSION], expires, seconds: Number.isFinite(seconds) ? seconds : 0, volume: volume.Name, ...(holderGone ? { holderGone } : {}) }];
  });
}

export async function removeVolumeQuietly(engine: Engine, name: string): Promise<void> {
  try {
    await engine.docker.getVolume(name).remove();
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) log("lease %s: remove failed: %s", name, error);
  }
}

/** The lease of one run: started when the run's scope is made, renewed until the scope is disposed. */
export class RunLease {
  readonly seconds = leaseSeconds();
  private readonly volumes: string[] = [];
  private sequence = 0;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly engine: Engine,
    private readonly runId: string,
  ) {}

  /** Takes the first lease and starts the heartbeat. Never throws: a lease that cannot be taken now is retried
   * on the next beat, and until then the run's resources are protected by their age (see the top of the file). */
  start(): Promise<void> {
    this.timer = setInterval(() => void this.beat(), Math.max(250, (this.seconds * 1000) / 3));
    this.timer.unref();
    return this.beat();
  }

  private beat(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.beating ??= this.renew()
      .catch((error) => log("lease of %s not renewed: %s", this.runId, error))
      .finally(() => (this.beating = undefined));
    return this.beating;
  }

  private async renew(): Promise<void> {
    const expires = new Date((await engineNow(this.engine)) + this.seconds * 1000).toISOString();
    const name = `harness-lease-${this.runId}-${++this.sequence}`;
    const holder = thisHolder();
    const labels = { ...resourceLabels(this.runId, "lease"), [LABEL_LEASE_EXPIRES]: expires, ...(holder === null ? {} : { [LABEL_LEASE_HOLDER]: formatHolder(holder) }) };
    await this.engine.docker.createVolume({ Name: name, Labels: labels });
    // The new lease stands before the old one goes: a sweep never sees this run without one.
    const old = this.volumes.splice(0, this.volumes.length, name);
    log("lease of %s renewed until %s", this.runId, expires);
    if (this.stopped) {
      await Promise.all([...old, name].map((volume) => removeVolumeQuietly(this.engine, volume)));
      return;
    }
    await Promise.all(old.map((volume) => removeVolumeQuietly(this.engine, volume)));
  }

  /** Ends the heartbeat and gives the lease up; call it after the run's resources are removed. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.beating;
    await Promise.all(this.volumes.splice(0).map((volume) => removeVolumeQuietly(this.engine, volume)));
    // A volume whose create the engine finished but whose answer never came back.
    const stray = await this.engine.docker
      .listVolumes({ filters: { label: [`${LABEL_RUN_ID}=${this.runId}`] } })
      .then((answer) => answer.Volumes ?? [])
      .catch(() => []);
    await Promise.all(stray.map((volume) => removeVolumeQuietly(this.engine, volume.Name)));
  }
}
