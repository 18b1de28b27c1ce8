import { describe, expect, it } from "vitest";
import { scenarioTimeLimit } from "../../../harness/observe/observe-scenario.ts";

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
