import { describe, expect, it } from "vitest";
import { claimAction } from "../../../harness/engine/claim.ts";
import { LABEL_LEASE_SECONDS, LABEL_RUN_ID } from "../../../harness/engine/labels.ts";

const NOW = Date.parse("2026-11-23T12:00:00Z");
const lease = (runId: string, expiresInMs: number) => ({ runId, session: "s", expires: NOW + expiresInMs, seconds: 60, volume: `harness-lease-${runId}-1` });
const held = (runId: string | null, createdAgoMs = 1_000) => ({
  kind: "harness" as const,
  labels: (runId === null ? {} : { [LABEL_RUN_ID]: runId, [LABEL_LEASE_SECONDS]: "60" }) as Record<string, string>,
  created: NOW - createdAgoMs,
  what: "network example.com",
});

describe("claimAction", () => {
  it("waits for a run whose lease is alive, and for a young resource of a run with no lease yet", () => {
    expect(claimAction(held("run-a"), [lease("run-a", 30_000)], NOW)).toBe("wait");
    expect(claimAction(held("run-b"), [], NOW)).toBe("wait");
  });

  it("sweeps a run whose lease expired past the grace, or an old resource with no lease", () => {
    expect(claimAction(held("run-a"), [lease("run-a", -31_000)], NOW)).toBe("sweep");
    expect(claimAction(held("run-b", 200_000), [], NOW)).toBe("sweep");
  });

  it("refuses what is not the harness's, and retries at once when nothing holds it any more", () => {
    expect(claimAction({ kind: "foreign", reason: "a user's network" }, [], NOW)).toBe("refuse");
    expect(claimAction(held(null), [], NOW)).toBe("refuse");
    expect(claimAction({ kind: "none" }, [], NOW)).toBe("retry");
  });
});
