import { describe, expect, it } from "vitest";
import { defaultConcurrency, FLEET_CONFIGS_PER_CPU, MAX_DEFAULT_CONCURRENCY, MEMORY_PER_SCENARIO, SCENARIOS_PER_CPU } from "../../../harness/engine/engine-capacity.ts";

const GiB = 2 ** 30;

describe("the default concurrency of an engine", () => {
  it("runs a few scenarios per CPU, since most of a scenario is waiting", () => {
    expect(defaultConcurrency({ cpus: 2, memoryBytes: 24 * GiB })).toBe(2 * SCENARIOS_PER_CPU);
    expect(defaultConcurrency({ cpus: 1, memoryBytes: 24 * GiB })).toBe(SCENARIOS_PER_CPU);
  });

  it("runs fleet configs per CPU as measured for them, bounded by memory the same way", () => {
    expect(defaultConcurrency({ cpus: 2, memoryBytes: 24 * GiB }, FLEET_CONFIGS_PER_CPU)).toBe(2 * FLEET_CONFIGS_PER_CPU);
    expect(defaultConcurrency({ cpus: 8, memoryBytes: 1 * GiB }, FLEET_CONFIGS_PER_CPU)).toBe(Math.floor(GiB / MEMORY_PER_SCENARIO));
  });

  it("is bounded by the engine's memory", () => {
    expect(defaultConcurrency({ cpus: 8, memoryBytes: 1 * GiB })).toBe(Math.floor(GiB / MEMORY_PER_SCENARIO));
  });

  it("stays within what Docker's default address pools hold at once", () => {
    expect(defaultConcurrency({ cpus: 64, memoryBytes: 512 * GiB })).toBe(MAX_DEFAULT_CONCURRENCY);
  });

  it("is at least one, however small the engine says it is", () => {
    expect(defaultConcurrency({ cpus: 0, memoryBytes: 100 * 1024 * 1024 })).toBe(1);
  });
});
