import { describe, expect, it } from "vitest";
import { StringPool } from "../../../harness/fleet/string-pool.ts";

describe("StringPool", () => {
  it("gives parsed values back as they were, in place, strings at every depth pooled and nothing else touched", () => {
    const pool = new StringPool();
    const text = '{"id":"a","n":3,"ok":true,"none":null,"list":["x",{"deep":["y","x"]}],"nested":{"title":"x"}}';
    const first = JSON.parse(text) as Record<string, unknown>;
    const list = first.list;
    const interned = pool.intern(first);
    expect(interned).toBe(first);
    expect(interned.list).toBe(list);
    expect(interned).toEqual(JSON.parse(text));
    // A second value with the same texts comes out equal too, and the pool answers for each text it has seen.
    const second = pool.intern(JSON.parse(text) as Record<string, unknown>);
    expect(second).toEqual(first);
    expect(pool.string("x")).toBe("x");
    expect(pool.intern("plain")).toBe("plain");
    expect(pool.intern(7)).toBe(7);
    expect(pool.intern(null)).toBeNull();
  });
});
