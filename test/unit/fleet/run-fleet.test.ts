// The fleet's bookkeeping is one pass over its configs: units for the shards (a tree and its copies, in
// first-seen order) and the copies of each original. 100,000 configs take well under a second (the quadratic
// versions took minutes).
import { describe, expect, it } from "vitest";
import { copiesByOriginal, unitsOf } from "../../../harness/fleet/run-fleet.ts";

const item = (id: string) => ({ config: { id } });

describe("unitsOf", () => {
  it("counts each unit's configs, in the order units are first seen", () => {
    expect(unitsOf(["b", "a", "b", "c", "b"])).toEqual([{ key: "b", configs: 3 }, { key: "a", configs: 1 }, { key: "c", configs: 1 }]);
  });

  it("is one pass: 100,000 configs of 50,000 units in well under a second", () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `k${i % 50_000}`);
    const started = performance.now();
    const units = unitsOf(keys);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(units.length).toBe(50_000);
    expect(units.every((u) => u.configs === 2)).toBe(true);
  });
});

describe("copiesByOriginal", () => {
  it("lists each original's copies among the items, in their order", () => {
    const [a, b, c, d] = ["a", "b", "c", "d"].map(item) as [ReturnType<typeof item>, ReturnType<typeof item>, ReturnType<typeof item>, ReturnType<typeof item>];
    const sameAs = new Map([["c", a], ["d", a], ["b", item("x")]]);
    const copies = copiesByOriginal([a, b, c, d], sameAs);
    expect(copies.get("a")).toEqual([c, d]);
    expect(copies.get("x")).toEqual([b]);
    expect(copies.has("c")).toBe(false);
  });

  it("is one pass: 100,000 configs, half of them copies, in well under a second", () => {
    const items = Array.from({ length: 100_000 }, (_, i) => item(`c${i}`));
    const sameAs = new Map(items.slice(50_000).map((copy, i) => [copy.config.id, items[i % 1000]!]));
    const started = performance.now();
    const copies = copiesByOriginal(items, sameAs);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(copies.size).toBe(1000);
    expect(copies.get("c0")!.length).toBe(50);
  });
});
