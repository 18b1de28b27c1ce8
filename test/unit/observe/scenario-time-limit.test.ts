import { describe, expect, it } from "vitest";
import { scenarioDue, scenarioTimeLimit } from "../../../harness/observe/observe-scenario.ts";
import { overlapMs } from "../../../harness/observe/shared-client-networks.ts";

describe("scenarioTimeLimit", () => {
  const context = { scenarioTimeLimitMs: 300_000, runDeadline: null };

  it("is the scenario's own limit, else the run's default", () => {
    expect(scenarioTimeLimit({ timeLimitMs: 8_000 }, context)).toBe(8_000);
    expect(scenarioTimeLimit({ timeLimitMs: null }, context)).toBe(300_000);
  });

  it("is cut to what is left of the run, and never negative", () => {
    const now = 1_000_000;
    expect(scenarioTimeLimit({ timeLimitMs: null }, { ...context, runDeadline: now + 5_000 }, now)).toBe(5_000);
    expect(scenarioTimeLimit({ timeLimitMs: 2_000 }, { ...context, runDeadline: now + 5_000 }, now)).toBe(2_000);
    expect(scenarioTimeLimit({ timeLimitMs: null }, { ...context, runDeadline: now - 1 }, now)).toBe(0);
  });
});

describe("scenarioDue", () => {
  it("moves the limit on by the time spent in line for other runs' subnets, never past the run's deadline", () => {
    expect(scenarioDue(1_000, 300_000, 0, null)).toBe(301_000);
    expect(scenarioDue(1_000, 300_000, 120_000, null)).toBe(421_000);
    expect(scenarioDue(1_000, 300_000, 120_000, 350_000)).toBe(350_000);
  });
});

describe("overlapMs", () => {
  it("counts only the part of each wait inside the scenario's join", () => {
    const waits: Array<[number, number]> = [
      [0, 10_000],
      [20_000, 50_000],
    ];
    // Joined at 5 s, joined at 30 s: 5 s of the first wait and 10 s of the second.
    expect(overlapMs(waits, 5_000, 30_000)).toBe(15_000);
    expect(overlapMs(waits, 10_000, 20_000)).toBe(0);
    expect(overlapMs([], 0, 1_000)).toBe(0);
  });
});
