import { describe, expect, it } from "vitest";
import { harnessResourceFilters, imageLabels, LABEL_LEASE_SECONDS, LABEL_RUN_ID, sessionFromEnv } from "../../../harness/engine/labels.ts";
import { leaseGraceMs, type LeaseRecord } from "../../../harness/engine/lease.ts";
import { isAbandoned, LEGACY_RESOURCE_SECONDS } from "../../../harness/engine/sweep.ts";

const NOW = Date.parse("2025-01-01T12:00:00Z");
const lease = (runId: string, expiresInMs: number, seconds = 60): LeaseRecord => ({ runId, session: "s", expires: NOW + expiresInMs, seconds, volume: `v-${runId}-${expiresInMs}` });
const resource = (runId: string, ageMs: number, seconds: string | null = "60") => ({
  runId,
  labels: { [LABEL_RUN_ID]: runId, ...(seconds === null ? {} : { [LABEL_LEASE_SECONDS]: seconds }) },
  created: NOW - ageMs,
});

describe("isAbandoned", () => {
  it("keeps a run whose newest lease has not expired by more than the grace, however old its resources", () => {
    expect(isAbandoned(resource("a", 86_400_000), [lease("a", 1_000)], NOW)).toBe(false);
    expect(isAbandoned(resource("a", 86_400_000), [lease("a", -leaseGraceMs(60) + 1)], NOW)).toBe(false);
    expect(isAbandoned(resource("a", 1_000), [lease("a", -leaseGraceMs(60) - 1)], NOW)).toBe(true);
    // Mid-renewal a run has two leases: the newest counts.
    expect(isAbandoned(resource("a", 1_000), [lease("a", -600_000), lease("a", 50_000)], NOW)).toBe(false);
  });

  it("gives a run up at once when its newest lease's holder is known gone, however long the lease has to run", () => {
    expect(isAbandoned(resource("a", 1_000), [{ ...lease("a", 600_000), holderGone: true }], NOW)).toBe(true);
    expect(isAbandoned(resource("a", 1_000), [{ ...lease("a", 600_000), holderGone: false }], NOW)).toBe(false);
    // An older lease's holder does not decide: the newest does (mid-renewal both are one process's).
    expect(isAbandoned(resource("a", 1_000), [{ ...lease("a", -600_000), holderGone: true }, lease("a", 50_000)], NOW)).toBe(false);
  });

  it("judges a run with no lease by the age of the resource: its lease length plus the grace", () => {
    expect(isAbandoned(resource("b", 60_000), [lease("a", 1_000)], NOW)).toBe(false);
    expect(isAbandoned(resource("b", 60_000 + leaseGraceMs(60) + 1), [], NOW)).toBe(true);
    expect(isAbandoned(resource("b", 5_000, "2"), [], NOW)).toBe(true);
    // Made by a harness before leases: an hour.
    expect(isAbandoned(resource("c", 600_000, null), [], NOW)).toBe(false);
    expect(isAbandoned(resource("c", LEGACY_RESOURCE_SECONDS * 1000 + leaseGraceMs(LEGACY_RESOURCE_SECONDS) + 1, null), [], NOW)).toBe(true);
  });

  it("has a grace of half the lease, at least 2 s", () => {
    expect(leaseGraceMs(60)).toBe(30_000);
    expect(leaseGraceMs(1)).toBe(2_000);
  });
});

describe("labels", () => {
  it("selects by the run label, which images never carry", () => {
    expect(harnessResourceFilters()).toEqual({ label: [LABEL_RUN_ID] });
    expect(harnessResourceFilters("run-1")).toEqual({ label: [`${LABEL_RUN_ID}=run-1`] });
    expect(Object.keys(imageLabels("x:1"))).not.toContain(LABEL_RUN_ID);
  });

  it("takes the session from HARNESS_SESSION, else the CI job, else none (a random one is drawn)", () => {
    expect(sessionFromEnv({ HARNESS_SESSION: "mine", GITHUB_RUN_ID: "1", GITHUB_JOB: "j" })).toBe("mine");
    expect(sessionFromEnv({ GITHUB_RUN_ID: "7", GITHUB_RUN_ATTEMPT: "2", GITHUB_JOB: "test" })).toBe("gh-7-2-test");
    expect(sessionFromEnv({ CI_JOB_ID: "99" })).toBe("gl-99");
    expect(sessionFromEnv({ BUILD_TAG: "jenkins-x-3" })).toBe("jenkins-x-3");
    expect(sessionFromEnv({})).toBeNull();
  });
});
