import { describe, expect, it } from "vitest";
import { PendingSteps } from "../../../harness/observe/observe-scenario.ts";

describe("PendingSteps", () => {
  it("says the scenario was setting up when no step is pending", () => {
    expect(new PendingSteps().describe()).toBe("setting up the network, clients and backends");
  });

  it("names a step's wait for another run as it stands when the time limit asks, and drops the step once done", () => {
    let now = 1_000_000;
    const steps = new PendingSteps(() => now);
    let waitingFor: string | null = null;
    steps.note("clients", "joining the run's shared network of 198.51.100.0/24", () => waitingFor);
    now += 5_000;
    expect(steps.describe()).toBe("clients: joining the run's shared network of 198.51.100.0/24 (for 5 s)");
    waitingFor = "waiting for subnet 198.51.100.0/24, held by network harness-run-b-s1a2b3c4 of run run-b (shared-clients), since 18:02:11 UTC (300 s)";
    now += 295_000;
    expect(steps.describe()).toBe(
      "clients: joining the run's shared network of 198.51.100.0/24 (for 300 s), waiting for subnet 198.51.100.0/24, held by network harness-run-b-s1a2b3c4 of run run-b (shared-clients), since 18:02:11 UTC (300 s)",
    );
    steps.note("baseline", "starting httpd");
    steps.done("clients");
    expect(steps.describe()).toBe("baseline: starting httpd (for 0 s)");
  });
});
