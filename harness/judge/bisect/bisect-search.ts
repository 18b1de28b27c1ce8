// Pure: the order in which bisect looks at an ordered list of images. Without --all it looks for the first image
// whose outcome differs from the first image's: both ends first (one round), then halves the stretch between the
// last image known to agree with the first and the first known to differ. Each image is asked about once; the
// caller observes it then (and keeps the observation), so a list of n images costs at most 2 + ⌈log2(n − 1)⌉
// observations. When the ends agree there is nothing to halve: a change that reverts (2.4.64's RewriteCond expr
// bug, fixed in 2.4.65) leaves the ends alike, and only --all (every consecutive pair) finds it.

export interface FirstChange {
  /** The last image that agrees with the first, and the next one, which differs; null when the ends agree. */
  change: { before: number; after: number } | null;
  /** The indexes asked about, in the order asked (each once). */
  probed: number[];
}

/** For each index asked about, whether its outcome differs from the first image's (the first itself: false). */
export type DiffersFromFirst = (indexes: readonly number[]) => Promise<readonly boolean[]>;

/** The image between two that bisect asks about next, or null when they are neighbours. */
export function nextProbe(agrees: number, differs: number): number | null {
  return differs - agrees > 1 ? Math.floor((agrees + differs) / 2) : null;
}

export async function findFirstChange(count: number, differsFromFirst: DiffersFromFirst): Promise<FirstChange> {
  if (!Number.isInteger(count) || count < 2) throw new RangeError(`bisect needs two images or more, not ${count}`);
  const probed = [0, count - 1];
  const [, endsDiffer] = await differsFromFirst(probed);
  if (!endsDiffer) return { change: null, probed };
  let agrees = 0;
  let differs = count - 1;
  for (let probe = nextProbe(agrees, differs); probe !== null; probe = nextProbe(agrees, differs)) {
    probed.push(probe);
    const [differsHere] = await differsFromFirst([probe]);
    if (differsHere) differs = probe;
    else agrees = probe;
  }
  return { change: { before: agrees, after: differs }, probed };
}

/** Every pair of neighbours, in order: what --all compares. */
export function consecutivePairs(count: number): Array<{ before: number; after: number }> {
  return Array.from({ length: Math.max(0, count - 1) }, (_, index) => ({ before: index, after: index + 1 }));
}
