import { describe, expect, it } from "vitest";
import { nextBatch } from "../../../harness/observe/request-batches.ts";

const r = (name: string, client: string, alone = false) => ({ name, client, alone });
const names = (batch: Array<{ name: string }>) => batch.map((request) => request.name);

describe("nextBatch", () => {
  const requests = [r("a1", "a"), r("a2", "a"), r("a3", "a", true), r("a4", "a"), r("b1", "b"), r("b2", "b"), r("a5", "a")];
  const canBatch = (request: { alone: boolean }) => !request.alone;

  it("takes consecutive requests of one client until one must go alone or another client's comes", () => {
    expect(names(nextBatch(requests, 0, canBatch, 100))).toEqual(["a1", "a2"]);
    expect(names(nextBatch(requests, 2, canBatch, 100))).toEqual([]);
    expect(names(nextBatch(requests, 3, canBatch, 100))).toEqual(["a4"]);
    expect(names(nextBatch(requests, 4, canBatch, 100))).toEqual(["b1", "b2"]);
    expect(names(nextBatch(requests, 6, canBatch, 100))).toEqual(["a5"]);
    expect(nextBatch(requests, 7, canBatch, 100)).toEqual([]);
  });

  it("stops at the limit", () => {
    expect(names(nextBatch(requests, 0, canBatch, 1))).toEqual(["a1"]);
  });
});
