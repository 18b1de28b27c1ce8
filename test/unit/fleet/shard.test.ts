import { describe, expect, it } from "vitest";
import { assignShards, parseShard, type ShardUnit } from "../../../harness/fleet/shard.ts";

const units = (keys: readonly string[]): ShardUnit[] => keys.map((key) => ({ key, configs: 1 }));
const byKey = (assignment: Map<string, number>): Record<string, number> => Object.fromEntries([...assignment].sort(([a], [b]) => (a < b ? -1 : 1)));

/** 40 labels as a fleet's discovery gives them: neighbours in a directory. */
const FLEET = Array.from({ length: 40 }, (_, i) => `fleet/${i < 20 ? "web" : "db"}-${String(i).padStart(2, "0")}/apache2`);

describe("parseShard", () => {
  it("reads k/n with 1 <= k <= n", () => {
    expect([parseShard("1/1"), parseShard("2/3"), parseShard(" 3/3 "), parseShard("10/12")]).toEqual([
      { index: 1, count: 1 },
      { index: 2, count: 3 },
      { index: 3, count: 3 },
      { index: 10, count: 12 },
    ]);
  });

  it.each([
    ["0/3", '"0/3": k must be from 1 to n'],
    ["4/3", '"4/3": k must be from 1 to n'],
    ["1/0", '"1/0": k must be from 1 to n'],
    ["2", '"2" is not k/n (for example 2/3: the second of three shards)'],
    ["1/3/5", '"1/3/5" is not k/n (for example 2/3: the second of three shards)'],
    ["-1/3", '"-1/3" is not k/n (for example 2/3: the second of three shards)'],
    ["a/b", '"a/b" is not k/n (for example 2/3: the second of three shards)'],
    ["", '"" is not k/n (for example 2/3: the second of three shards)'],
  ])("refuses %j with a sentence saying why", (value, sentence) => {
    expect(parseShard(value)).toBe(sentence);
  });
});

describe("assignShards without durations", () => {
  it("gives every unit a shard from 1 to n, the shards' counts differing by at most one", () => {
    for (const count of [1, 2, 3, 7, 40, 41]) {
      const assignment = assignShards(units(FLEET), count);
      expect([...assignment.keys()].sort()).toEqual([...FLEET].sort());
      const sizes = Array.from({ length: count }, (_, i) => [...assignment.values()].filter((shard) => shard === i + 1).length);
      expect(sizes.every((size) => size >= Math.floor(FLEET.length / count) && size <= Math.ceil(FLEET.length / count))).toBe(true);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it("spreads the neighbours of one directory over the shards", () => {
    const assignment = assignShards(units(FLEET), 2);
    const webOnOne = FLEET.filter((key) => key.includes("/web-") && assignment.get(key) === 1).length;
    expect(webOnOne).toBeGreaterThan(0);
    expect(webOnOne).toBeLessThan(20);
  });

  it("gives the same assignment for the same input, whatever order the units come in", () => {
    const first = byKey(assignShards(units(FLEET), 3));
    expect(byKey(assignShards(units(FLEET), 3))).toEqual(first);
    expect(byKey(assignShards(units([...FLEET].reverse()), 3))).toEqual(first);
    const shuffled = [...FLEET.filter((_, i) => i % 2 === 1), ...FLEET.filter((_, i) => i % 2 === 0)];
    expect(byKey(assignShards(units(shuffled), 3))).toEqual(first);
  });

  it("takes an empty map of durations as no durations", () => {
    expect(byKey(assignShards(units(FLEET), 4, new Map()))).toEqual(byKey(assignShards(units(FLEET), 4)));
  });
});

describe("assignShards with durations", () => {
  it("places the longest first, each on the shard with the least work so far, so the shards end together", () => {
    const durations = new Map([
      ["a", 9],
      ["b", 8],
      ["c", 7],
      ["d", 6],
      ["e", 5],
      ["f", 4],
    ]);
    // a→1 (9,0,0), b→2 (9,8,0), c→3 (9,8,7), d→3 (9,8,13), e→2 (9,13,13), f→1 (13,13,13).
    expect(byKey(assignShards(units(["f", "e", "d", "c", "b", "a"]), 3, durations))).toEqual({ a: 1, b: 2, c: 3, d: 3, e: 2, f: 1 });
  });

  it("breaks a tie in duration by key and a tie in load by the lowest shard", () => {
    const durations = new Map([
      ["b", 5],
      ["a", 5],
      ["c", 5],
    ]);
    expect(byKey(assignShards(units(["c", "b", "a"]), 2, durations))).toEqual({ a: 1, b: 2, c: 1 });
  });

  it("costs a unit without a duration the median of the known ones", () => {
    const known: Array<[string, number]> = [
      ["a", 9],
      ["b", 3],
      ["c", 4],
      ["d", 8],
    ];
    const keys = ["a", "b", "c", "d", "x"];
    const withX = (x: number) => byKey(assignShards(units(keys), 2, new Map([...known, ["x", x]])));
    const withoutX = byKey(assignShards(units(keys), 2, new Map(known)));
    // Known 3, 4, 8, 9: x costs 8. a9→1 (9,0), d8→2 (9,8), x8→2 (9,16), c4→1 (13,16), b3→1 (16,16).
    expect(withoutX).toEqual({ a: 1, b: 1, c: 1, d: 2, x: 2 });
    expect(withoutX).toEqual(withX(8));
    expect(withoutX).not.toEqual(withX(0));
    expect(withoutX).not.toEqual(withX(4));
  });

  it("does not depend on the order of the units either", () => {
    const durations = new Map(FLEET.map((key, i) => [key, ((i * 7919) % 97) + 1] as [string, number]));
    const first = byKey(assignShards(units(FLEET), 5, durations));
    expect(byKey(assignShards(units([...FLEET].reverse()), 5, durations))).toEqual(first);
    expect(new Set(Object.values(first))).toEqual(new Set([1, 2, 3, 4, 5]));
  });
});
