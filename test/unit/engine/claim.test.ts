import { describe, expect, it } from "vitest";
import { claimAction, describeClaimWait, describeClaimWaited } from "../../../harness/engine/claim.ts";
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

describe("describeClaimWait", () => {
  it("names what is waited for, the holder and its run by label, and since when", () => {
    const wait = {
      subject: "subnet 198.51.100.0/24",
      holder: "network harness-run-b-s1a2b3c4",
      runId: "run-b",
      scenario: "shared-clients",
      since: Date.parse("2026-12-07T18:02:11.400Z"),
    };
    expect(describeClaimWait(wait, wait.since + 42_300)).toBe(
      "waiting for subnet 198.51.100.0/24, held by network harness-run-b-s1a2b3c4 of run run-b (shared-clients), since 18:02:11 UTC (42 s)",
    );
    expect(describeClaimWait({ ...wait, scenario: null }, wait.since)).toBe(
      "waiting for subnet 198.51.100.0/24, held by network harness-run-b-s1a2b3c4 of run run-b, since 18:02:11 UTC (0 s)",
    );
  });

  it("names the run a claim waits behind in line, and since when that run waits", () => {
    const since = Date.parse("2026-12-07T18:02:11.400Z");
    const wait = { subject: "subnet 198.51.100.0/24", holder: null, aheadSince: since - 9_000, runId: "run-b", scenario: "shared-clients", since };
    expect(describeClaimWait(wait, since + 5_000)).toBe(
      "waiting for subnet 198.51.100.0/24, in line after run run-b (shared-clients), which waits for it since 18:02:02 UTC, since 18:02:11 UTC (5 s)",
    );
    expect(describeClaimWaited(wait, since + 61_000)).toBe("subnet 198.51.100.0/24: waited 61 s, last for the turn of run run-b");
    expect(describeClaimWaited({ ...wait, holder: "network harness-run-b-s1a2b3c4" }, since + 61_000)).toBe(
      "subnet 198.51.100.0/24: waited 61 s, last for network harness-run-b-s1a2b3c4 of run run-b",
    );
  });
});
