// A fixed-seed slice of the differential fuzzer (npm run fuzz): 40 generated 2.2 fragments on the real 2.4 image
// (and the real 2.2 image when HTTPD_BASELINE_IMAGE names one), every cell's real answer against lint's per-cell
// prediction, and migrate's port proved on both. Fails on any disagreement no fixture explains.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { signature } from "../../fuzz/disagreements.ts";
import { fuzz, type FuzzSummary, summaryLines } from "../../fuzz/fuzz.ts";

const SEED = 20261207;
const FRAGMENTS = 40;

describe("the differential fuzzer on real servers (fixed seed)", { timeout: 1_200_000 }, () => {
  const images = inject("images");
  let summary: FuzzSummary;
  beforeAll(async () => {
    summary = await fuzz({
      runs: FRAGMENTS,
      seed: SEED,
      batchSize: 20,
      // A name no engine has: the batch then runs on the candidate alone.
      images: { baseline: images.baseline ?? "httpd-upgrade-harness-test/no-baseline:2.2", candidate: images.candidate },
      shrink: false,
    });
    console.log(summaryLines(summary).join("\n"));
  }, 1_200_000);

  const unexplained = (kinds: readonly string[]) => summary.disagreements.filter((d) => kinds.includes(d.kind) && !summary.explained.includes(signature(d))).map((d) => `${d.kind} ${d.cell}: expected ${d.expected}, real ${d.real} (${d.why})`);

  it("ran every fragment, and every batch started on 2.4", () => {
    expect(summary.fragments).toBe(FRAGMENTS);
    expect(summary.cells).toBeGreaterThan(FRAGMENTS * 5);
    // Without a 2.2 image the baseline side is skipped (said so below); nothing else may fail.
    expect(summary.failures.filter((f) => images.baseline || !/: skipped: /.test(f))).toEqual([]);
  });

  it("2.4: the prediction is the real answer in every predicted cell", () => {
    expect(unexplained(["predict-2.4"])).toEqual([]);
  });

  it("2.2, and migrate's port: the prediction is the real 2.2 answer, and the port is equivalent or marked needs action", (context) => {
    if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no 2.2 image: set HTTPD_BASELINE_IMAGE");
    expect(summary.failures).toEqual([]);
    expect(unexplained(["predict-2.2", "migrate"])).toEqual([]);
  });
});
