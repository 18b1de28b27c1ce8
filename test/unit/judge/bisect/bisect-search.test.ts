import { describe, expect, it } from "vitest";
import { consecutivePairs, findFirstChange, nextProbe } from "../../../../harness/judge/bisect/bisect-search.ts";

/** Images whose outcomes are `outcomes` (a letter each); records what was asked. */
function oracle(outcomes: string) {
  const asked: number[] = [];
  const differs = async (indexes: readonly number[]): Promise<boolean[]> => {
    asked.push(...indexes);
    return indexes.map((index) => outcomes[index] !== outcomes[0]);
  };
  return { asked, differs };
}

describe("bisect's search for the first change", () => {
  it("finds the first image whose outcome differs from the first's, asking each image once", async () => {
    for (const outcomes of ["ab", "aab", "abb", "aaaaaaab", "abbbbbbb", "aaaabbbb", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabbbbbbbbbbbb"]) {
      const { asked, differs } = oracle(outcomes);
      const found = await findFirstChange(outcomes.length, differs);
      const first = outcomes.indexOf("b");
      expect(found.change, outcomes).toEqual({ before: first - 1, after: first });
      expect(found.probed).toEqual(asked);
      expect(new Set(asked).size, outcomes).toBe(asked.length);
      expect(asked.length, outcomes).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(outcomes.length - 1)));
    }
  });

  it("asks both ends first, in one round", async () => {
    const rounds: number[][] = [];
    await findFirstChange(9, async (indexes) => {
      rounds.push([...indexes]);
      return indexes.map((index) => index >= 3);
    });
    expect(rounds).toEqual([[0, 8], [4], [2], [3]]);
  });

  it("says the ends agree, without looking further, when they do (even when a change reverts in between)", async () => {
    const { asked, differs } = oracle("aabbaa");
    expect(await findFirstChange(6, differs)).toEqual({ change: null, probed: [0, 5] });
    expect(asked).toEqual([0, 5]);
  });

  it("needs two images", async () => {
    await expect(findFirstChange(1, async () => [false])).rejects.toThrow(/two images or more/);
  });

  it("halves the stretch between the last image that agrees and the first that differs", () => {
    expect([nextProbe(0, 8), nextProbe(0, 2), nextProbe(3, 4), nextProbe(5, 9)]).toEqual([4, 1, null, 7]);
  });

  it("compares every pair of neighbours with --all", () => {
    expect(consecutivePairs(3)).toEqual([{ before: 0, after: 1 }, { before: 1, after: 2 }]);
    expect(consecutivePairs(1)).toEqual([]);
  });
});
