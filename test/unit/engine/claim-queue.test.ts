import { describe, expect, it } from "vitest";
import { type ClaimPlace, placesAhead, placesOf } from "../../../harness/engine/claim-queue.ts";
import { LABEL_CLAIM_KEY, LABEL_CLAIM_SINCE, LABEL_LEASE_SECONDS, LABEL_RUN_ID } from "../../../harness/engine/labels.ts";

const NOW = Date.parse("2026-12-07T18:00:00Z");
const lease = (runId: string, expiresInMs: number) => ({ runId, session: "s", expires: NOW + expiresInMs, seconds: 60, volume: `harness-lease-${runId}-1` });
const place = (runId: string, agoMs: number, volume = `harness-claim-${runId}-0`): ClaimPlace => ({
  volume,
  runId,
  since: NOW - agoMs,
  labels: { [LABEL_RUN_ID]: runId, [LABEL_LEASE_SECONDS]: "60" },
});

describe("placesAhead", () => {
  const leases = [lease("run-a", 30_000), lease("run-b", 30_000), lease("run-c", 30_000), lease("dead", -120_000)];

  it("puts a claim not yet in line behind every other live run's place, oldest first", () => {
    const places = [place("run-c", 1_000), place("run-b", 5_000)];
    expect(placesAhead(places, null, "run-a", leases, NOW).map((p) => p.runId)).toEqual(["run-b", "run-c"]);
  });

  it("lets only older places go first once the claim is in line, and never its own run's", () => {
    const own = place("run-a", 3_000);
    const places = [place("run-b", 5_000), own, place("run-c", 1_000), place("run-a", 9_000, "harness-claim-run-a-1")];
    expect(placesAhead(places, own, "run-a", leases, NOW).map((p) => p.runId)).toEqual(["run-b"]);
    // From run-b's place, run-a's older one goes first; the oldest of all has no one ahead: it takes its turn.
    expect(placesAhead(places, places[0]!, "run-b", leases, NOW).map((p) => p.volume)).toEqual(["harness-claim-run-a-1"]);
    expect(placesAhead(places, places[3]!, "run-a", leases, NOW)).toEqual([]);
  });

  it("orders two places of one moment by volume name, the same way for both runs", () => {
    const b = place("run-b", 2_000, "harness-claim-run-b-aa");
    const c = place("run-c", 2_000, "harness-claim-run-c-bb");
    expect(placesAhead([b, c], c, "run-c", leases, NOW)).toEqual([b]);
    expect(placesAhead([b, c], b, "run-b", leases, NOW)).toEqual([]);
  });

  it("passes over the place of a run whose lease expired", () => {
    expect(placesAhead([place("dead", 60_000)], null, "run-a", leases, NOW)).toEqual([]);
  });
});

describe("placesOf", () => {
  it("reads a place from its volume's labels, and skips volumes that are no place", () => {
    const labels = { [LABEL_RUN_ID]: "run-b", [LABEL_CLAIM_KEY]: "198.51.100.0/24", [LABEL_CLAIM_SINCE]: String(NOW) };
    expect(placesOf([{ Name: "harness-claim-run-b-1", Labels: labels }, { Name: "other", Labels: { [LABEL_RUN_ID]: "run-c" } }, { Name: "bare", Labels: null }])).toEqual([
      { volume: "harness-claim-run-b-1", runId: "run-b", since: NOW, labels },
    ]);
  });
});
