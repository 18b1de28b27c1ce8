// Whether another harness run is alive on an engine, by the lease volumes every run keeps (engine/lease.ts). A run
// that holds something another run may wait for (a shared client network's subnet: engine/claim.ts) gives it up in
// turns only while another run is there to take it: turning it costs every scenario that needs it a wait for the
// old one to drain. The answer is refreshed in the background, at most every few seconds, so asking costs nothing;
// until the first answer comes, another run counts as alive.
import type { Engine } from "./engine.ts";
import { engineNow, leaseGraceMs, listLeases } from "./lease.ts";
import { log } from "./log.ts";

const REFRESH_MS = 5_000;

export class OtherRuns {
  #alive = true;
  #checked = 0;
  #checking: Promise<void> | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly ownRunId: string,
  ) {
    this.#refresh();
  }

  /** Whether another run's lease was alive at the last look (refreshed when older than a few seconds). */
  get alive(): boolean {
    if (Date.now() - this.#checked > REFRESH_MS) this.#refresh();
    return this.#alive;
  }

  #refresh(): void {
    if (this.#checking) return;
    this.#checking = (async () => {
      try {
        const [leases, now] = await Promise.all([listLeases(this.engine), engineNow(this.engine)]);
        this.#alive = leases.some((lease) => lease.runId !== this.ownRunId && now <= lease.expires + leaseGraceMs(lease.seconds));
      } catch (error) {
        // Unknown: as if another run were there (the turns go on as before).
        log("other runs: could not list leases: %s", error);
        this.#alive = true;
      } finally {
        this.#checked = Date.now();
        this.#checking = null;
      }
    })();
  }
}
