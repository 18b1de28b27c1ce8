// Deadlines on real servers: a request that hangs costs its own timeout once (no noise repeat), and a scenario
// past its time limit is an error that names what was pending, with its containers removed.
import { describe, expect, it } from "vitest";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

// A request line without the blank line that ends the headers: httpd waits for the rest.
const hanging = (timeoutMs: number, timeLimit: string): string => `
id: hanging-request-${timeoutMs}
title: a request httpd waits on
${timeLimit}
server:
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: quick, path: /, expect: { both: { status: 200 } } }
  - { name: hang, raw: "GET / HTTP/1.1\\r\\nHost: x\\r\\n", timeoutMs: ${timeoutMs} }
`;

describe("deadlines", { timeout: 120_000 }, () => {
  it("sends a request that timed out once, not again to learn noise", async () => {
    const started = Date.now();
    const { runs } = await runYamlScenarios([hanging(2_000, "")], { learnNoise: true });
    const run = runs[0]!;
    expect(run.error).toBeNull();
    for (const observation of run.observations) {
      const hang = observation.requests.find((r) => r.name === "hang")!;
      expect(hang.outcome).toMatchObject({ kind: "transport-error", code: expect.stringMatching(/TIMEOUT/) });
      expect(hang.repeat).toBeNull();
      expect(observation.requests.find((r) => r.name === "quick")!.repeat).not.toBeNull();
    }
    // Two sides side by side, one 2 s timeout each: far from the 8 s two sends in a row would cost.
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("stops a scenario at its time limit, says what was pending, and removes its containers", async () => {
    const started = Date.now();
    const { runs, reports } = await runYamlScenarios([hanging(100_000, "timeLimit: 8")], { learnNoise: true });
    const elapsed = Date.now() - started;
    const run = runs[0]!;
    expect(run.error).toMatchObject({ code: "HARNESS_DEADLINE", message: expect.stringContaining("time limit of 8 s") });
    expect(run.error!.message).toMatch(/pending: .*request hang/);
    expect(reports[0]!.verdict).toBe("error");
    // Not the request's own 100 s.
    expect(elapsed).toBeLessThan(60_000);
  });
});
