import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { labelSides, runImages } from "../../../harness/cli/matrix-option.ts";
import type { RunSide } from "../../../harness/observe/run-harness.ts";
import { runSides } from "../../../harness/plan/side.ts";

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "matrix-")), "matrix.yaml");
  writeFileSync(path, text);
  return path;
}

const NO_ENV = {};

describe("the images a run compares", () => {
  it("takes --candidate once per candidate, in order, labelled by image (numbered when repeated)", async () => {
    const images = await runImages({ baseline: "recipe:httpd-2.4.67", candidate: ["recipe:httpd-2.4", "recipe:httpd-2.4.67", "recipe:httpd-2.4"] }, NO_ENV);
    expect(images.baseline).toEqual({ image: "recipe:httpd-2.4.67", label: "recipe:httpd-2.4.67", axis: null });
    expect(images.candidates.map((c) => c.label)).toEqual(["recipe:httpd-2.4", "recipe:httpd-2.4.67", "recipe:httpd-2.4 (2)"]);
    expect(images.matrix).toBeNull();
  });

  it("falls back to HTTPD_BASELINE_IMAGE / HTTPD_CANDIDATE_IMAGE, then the defaults", async () => {
    expect(await runImages({}, { HTTPD_BASELINE_IMAGE: "b:1", HTTPD_CANDIDATE_IMAGE: "c:1" })).toMatchObject({ baseline: { image: "b:1" }, candidates: [{ image: "c:1" }] });
    expect(await runImages({}, NO_ENV)).toMatchObject({ baseline: { image: "httpd:2.2.34" }, candidates: [{ image: "httpd:2.4" }] });
  });

  it("reads --matrix FILE; --baseline wins over the file's baseline", async () => {
    const path = file("baseline: { image: httpd:2.2.34, label: '2.2' }\ncandidates:\n  - { image: recipe:httpd-2.4-debian, label: debian, axis: distribution }\n");
    expect(await runImages({ matrix: path }, NO_ENV)).toEqual({
      baseline: { image: "httpd:2.2.34", label: "2.2", axis: null },
      candidates: [{ image: "recipe:httpd-2.4-debian", label: "debian", axis: "distribution" }],
      matrix: path,
    });
    expect((await runImages({ matrix: path, baseline: "other:2.2" }, NO_ENV)).baseline).toEqual({ image: "other:2.2", label: "other:2.2", axis: null });
  });

  it("refuses --matrix with --candidate, an unknown recipe, and a missing matrix file", async () => {
    await expect(runImages({ matrix: "m.yaml", candidate: ["x"] }, NO_ENV)).rejects.toMatchObject({ code: "HARNESS_USAGE" });
    await expect(runImages({ candidate: ["recipe:nope"] }, NO_ENV)).rejects.toMatchObject({ code: "HARNESS_USAGE", message: expect.stringMatching(/^--candidate: "recipe:nope" names no httpd recipe/) });
    await expect(runImages({ baseline: "recipe:tools" }, NO_ENV)).rejects.toMatchObject({ code: "HARNESS_USAGE" });
    await expect(runImages({ matrix: "/nonexistent/m.yaml" }, NO_ENV)).rejects.toMatchObject({ code: "HARNESS_MATRIX_FILE", message: "/nonexistent/m.yaml: no such file" });
  });

  it("gives each side of the run its label and axis, baseline first, candidates in order", async () => {
    const images = await runImages({ matrix: file("candidates:\n  - { image: a, label: A, axis: upstream }\n  - { image: b, label: B }\n") }, NO_ENV);
    const sides: RunSide[] = runSides(2).map((side) => ({ side, image: side.id, version: "2.4.68", missing: false }));
    expect(labelSides(sides, images).map((s) => [s.side.id, s.label, s.axis])).toEqual([
      ["baseline", "httpd:2.2.34", null],
      ["candidate", "A", "upstream"],
      ["candidate-2", "B", null],
    ]);
  });
});
