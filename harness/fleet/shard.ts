// Pure: which shard runs which config, the same on every machine that runs a shard of the fleet (nothing but the
// fleet's labels decides it). Without durations the units are ordered by a hash of their label and dealt to the
// shards in turn, so shards get as many configs as can be and neighbours in a directory spread out; with the
// durations of an earlier run (`--shard-durations`), the longest configs are placed first, each on the shard with
// the least work so far, so the shards end together. Configs that are the same tree go as one unit: the tree runs
// once and is reported for each.
import { createHash } from "node:crypto";

export interface ShardSpec {
  /** 1-based. */
  index: number;
  count: number;
}

export type ShardAssignment = "path" | "durations";

/** `k/n` with 1 <= k <= n; an error sentence otherwise. */
export function parseShard(value: string): ShardSpec | string {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (!match) return `${JSON.stringify(value)} is not k/n (for example 2/3: the second of three shards)`;
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count) return `${JSON.stringify(value)}: k must be from 1 to n`;
  return { index, count };
}

export interface ShardUnit {
  /** The unit's key: the label of its first config. */
  key: string;
  /** How many configs it reports (a tree and its copies). */
  configs: number;
}

/** Each unit's shard (1-based), by key. `durations` by key, in ms; units without one get the median. */
export function assignShards(units: readonly ShardUnit[], count: number, durations?: ReadonlyMap<string, number>): Map<string, number> {
  const assigned = new Map<string, number>();
  if (!durations || durations.size === 0) {
    const keyed = units.map((unit) => ({ unit, hash: createHash("sha256").update(unit.key).digest("hex") }));
    keyed.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
    keyed.forEach(({ unit }, index) => assigned.set(unit.key, (index % count) + 1));
    return assigned;
  }
  const known = [...durations.values()].sort((a, b) => a - b);
  const median = known[Math.floor(known.length / 2)] ?? 1;
  const cost = (unit: ShardUnit): number => durations.get(unit.key) ?? median;
  const ordered = [...units].sort((a, b) => cost(b) - cost(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const load = Array.from({ length: count }, () => 0);
  for (const unit of ordered) {
    let best = 0;
    for (let shard = 1; shard < count; shard++) if (load[shard]! < load[best]!) best = shard;
    load[best]! += cost(unit);
    assigned.set(unit.key, best + 1);
  }
  return assigned;
}
