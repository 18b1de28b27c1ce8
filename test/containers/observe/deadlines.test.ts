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
    const { runs } = await runYamlScenarios([hanging(2_000, "")], { learnNoise: true });
    const run = runs[0]!;
    expect(run.error).toBeNull();
    for (const observation of run.observations) {
      const hang = observation.requests.find((r) => r.name === "hang")!;
      expect(hang.outcome).toMatchObject({ kind: "transport-error", code: expect.stringMatching(/TIMEOUT/) });
      expect(hang.repeat).toBeNull();
      expect(observation.requests.find((r) => r.name === "quick")!.repeat).not.toBeNull();
    }
  });

  it("stops a scenario at its time limit, says what was pending, and removes its containers", async () => {
    // The request would hang for 10 minutes, far past this test's own limit: only the scenario's 8 s let the run end.
    const { runs, reports } = await runYamlScenarios([hanging(600_000, "timeLimit: 8")], { learnNoise: true });
    const run = runs[0]!;
    expect(run.error).toMatchObject({ code: "HARNESS_DEADLINE", message: expect.stringContaining("time limit of 8 s") });
    expect(run.error!.message).toMatch(/pending: .*request hang/);
    expect(reports[0]!.verdict).toBe("error");
  });
});
