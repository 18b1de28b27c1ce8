// Turns, in the order they began to wait, for what several harness runs wait for on one engine (a client subnet:
// engine/claim.ts). Without them, the run that gave a subnet up and the run waiting for it both tried again every
// half second once it was free, and whoever looked first won: the run that had just held it for a whole window
// (observe/shared-client-networks.ts) often took it again, and a scenario of the other run could lose turn after
// turn until its time limit. A run that waits puts a place in line on the engine: a volume of its own (as its lease
// is, engine/lease.ts), labelled with what it waits for and since when in the engine's clock; a claim of the same
// thing lets every live run's older place go first. Places of runs whose lease expired are passed over, and swept
// (engine/sweep.ts).
import { randomBytes } from "node:crypto";
import type { Engine } from "./engine.ts";
import { LABEL_CLAIM_KEY, LABEL_CLAIM_SINCE, LABEL_ROLE, LABEL_RUN_ID, resourceLabels } from "./labels.ts";
import { engineNow, type LeaseRecord, listLeases, removeVolumeQuietly } from "./lease.ts";
import { log } from "./log.ts";
import { isAbandoned } from "./sweep.ts";

/** A run's place in line for a key. */
export interface ClaimPlace {
  volume: string;
  runId: string;
  /** Engine clock, epoch ms. */
  since: number;
  labels: Record<string, string>;
}

/** Pure: the places of other live runs that go before `own` (null: not in line yet, so every one of them does), in
 * their order. Older first; two of the same moment by volume name, so that every run sees one order. */
export function placesAhead(places: readonly ClaimPlace[], own: ClaimPlace | null, ownRunId: string, leases: readonly LeaseRecord[], now: number): ClaimPlace[] {
  const before = (a: ClaimPlace, b: ClaimPlace): boolean => a.since < b.since || (a.since === b.since && a.volume < b.volume);
  return places
    .filter((place) => place.runId !== ownRunId)
    .filter((place) => !isAbandoned({ runId: place.runId, labels: place.labels, created: place.since }, leases, now))
    .filter((place) => own === null || before(place, own))
    .sort((a, b) => (before(a, b) ? -1 : 1));
}

/** Pure: the places listed on the engine, from its volumes. */
export function placesOf(volumes: ReadonlyArray<{ Name: string; Labels?: Record<string, string> | null }>): ClaimPlace[] {
  return volumes.flatMap((volume) => {
    const labels = volume.Labels ?? {};
    const runId = labels[LABEL_RUN_ID];
    const since = Number(labels[LABEL_CLAIM_SINCE]);
    return runId && Number.isFinite(since) ? [{ volume: volume.Name, runId, since, labels }] : [];
  });
}

/** One claim's place in line for `key`: taken when it first has to wait, given up when it ends. */
export class ClaimQueue {
  #own: ClaimPlace | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly runId: string,
    private readonly key: string,
    /** Labelled on the place, so that a run waiting behind it can say whose it is. */
    private readonly scenario: string,
  ) {}

  /** The other live runs' places that go before this claim now. */
  async ahead(): Promise<ClaimPlace[]> {
    const [answer, leases, now] = await Promise.all([
      this.engine.docker.listVolumes({ filters: { label: [`${LABEL_ROLE}=claim`, `${LABEL_CLAIM_KEY}=${this.key}`] } }),
      listLeases(this.engine),
      engineNow(this.engine),
    ]);
    return placesAhead(placesOf(answer.Volumes ?? []), this.#own, this.runId, leases, now);
  }

  /** Takes a place in line, once. */
  async join(): Promise<void> {
    if (this.#own !== null) return;
    const since = await engineNow(this.engine);
    const volume = `harness-claim-${this.runId}-${randomBytes(4).toString("hex")}`;
    const labels = { ...resourceLabels(this.runId, "claim", this.scenario), [LABEL_CLAIM_KEY]: this.key, [LABEL_CLAIM_SINCE]: String(since) };
    await this.engine.docker.createVolume({ Name: volume, Labels: labels });
    this.#own = { volume, runId: this.runId, since, labels };
    log("claim %s: in line since %d as %s", this.key, since, volume);
  }

  /** Gives the place up (the claim got what it waited for, or stopped waiting). */
  async leave(): Promise<void> {
    const own = this.#own;
    this.#own = null;
    if (own !== null) await removeVolumeQuietly(this.engine, own.volume);
  }
}
