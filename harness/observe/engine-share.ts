// Pure: whether an engine of a run over several (`--engines`) may take the next queued scenario. One queue serves
// every engine, and a free slot on any engine takes the next scenario, so a fast engine does more. Left at that, an
// engine that is slow to start (its copy of the run's images takes longer than the others need for the whole
// work) could end the run having run nothing: the report then says nothing about that engine, and a test of the
// spread cannot tell a scheduler that never uses the second engine from one that was merely beaten to it. So while
// an engine still in the run (not lost) has taken nothing, the others leave one queued scenario for it. The price
// is small: the run waited for that engine's copy anyway (its lanes end only once the copy has), and it now runs
// one scenario there instead of none. With fewer scenarios than engines, every scenario still runs: an engine
// that has taken nothing may always take.

export interface EngineTurn {
  /** Scenarios the engine has taken from the queue (finished or not). */
  taken: number;
  /** The engine left the run (it stopped answering, or could not be given the images). */
  lost: boolean;
}

/** Whether `self` may take the next scenario, with `queued` scenarios in the queue and `others` the run's other
 * engines. */
export function mayTake(self: EngineTurn, others: readonly EngineTurn[], queued: number): boolean {
  if (queued === 0 || self.lost) return false;
  if (self.taken === 0) return true;
  const waiting = others.filter((other) => !other.lost && other.taken === 0).length;
  return queued > waiting;
}
