// `run --candidate A --candidate B` and `run --matrix FILE`: the same scenarios against several candidates, side by
// side. Baseline 2.4.67, candidates 2.4.68 and 2.4.67 again, on the mod_include scenarios whose bodies changed in
// 2.4.68 (test/containers/observe/patch-levels.test.ts): the candidate differs, the second candidate (the
// baseline's own image) is the same, and every report format shows both columns.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Report } from "../../../harness/report/report-model.ts";
import { runCli, type CliResult } from "../../helpers/run-cli.ts";
import { PLANTED, scenarioDir } from "../../helpers/scenario-files.ts";

const DEFAULTS = fileURLToPath(new URL("../../../scenarios/catalogue/defaults/", import.meta.url));
const FILES = ["ssi-legacy-if-expr.scenario.yaml", "ssi-errordocument-legacy-expr.scenario.yaml"].map((file) => DEFAULTS + file);

describe("run with several candidates", { timeout: 600_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), "harness-matrix-"));
  let result: CliResult;
  let report: Report;

  beforeAll(async () => {
    const { candidate, olderCandidate } = inject("images");
    result = await runCli([
      "run", ...FILES, "--baseline", olderCandidate, "--candidate", candidate, "--candidate", olderCandidate,
      "--report", `json:${out}/r.json`, "--report", `junit:${out}/r.xml`, "--report", `markdown:${out}/r.md`, "--report", `html:${out}/r.html`,
    ]);
    report = JSON.parse(readFileSync(`${out}/r.json`, "utf8")) as Report;
  }, 600_000);

  it("runs both candidates and exits 0: the bodies that differ are what the scenarios state for 2.4.68", () => {
    expect(result.stderr).not.toMatch(/error HARNESS_/);
    expect(result.status).toBe(0);
    expect(report.schemaVersion).toBe("2.4");
    expect(report.candidates.map((c) => [c.side, c.version, c.axis])).toEqual([
      ["candidate", "2.4.68", "upstream"],
      ["candidate-2", "2.4.67", "upstream"],
    ]);
  });

  it("shows the candidate different and the second candidate, the baseline's own image, the same", () => {
    for (const scenario of report.scenarios) {
      const [first, second] = scenario.matrix!;
      expect([scenario.id, first!.side, first!.verdict]).toEqual([scenario.id, "candidate", "expected-change"]);
      expect([scenario.id, second!.side, second!.verdict]).toEqual([scenario.id, "candidate-2", expect.stringMatching(/^(same|noise)$/)]);
      // Only the clock may differ between two servers of one image.
      expect(second!.requests.flatMap((r) => r.differences).filter((d) => d.class !== "noise")).toEqual([]);
      expect(scenario.verdict).toBe("expected-change");
    }
    const legacy = report.scenarios.find((s) => s.id === "ssi-legacy-if-expr")!;
    const body = legacy.matrix![0]!.requests.find((r) => r.name === "old-syntax-match")!.differences.find((d) => d.field === "body");
    expect(body).toMatchObject({
      baseline: "<p>[an error occurred while processing this directive]regex-match</p>\n",
      candidate: "<p>[an error occurred while processing this directive]</p>\n",
      class: "expected-change",
    });
  });

  it("puts the candidates side by side in the terminal table, Markdown, HTML and JUnit", () => {
    const { candidate, olderCandidate } = inject("images");
    // Each column is named by the image as given (the second candidate is the baseline's image, given once as a
    // candidate): its version is in its tag, so no version is added.
    expect(result.stdout).toMatch(new RegExp(`│ baseline\\s+│ ${escape(candidate)}\\s+│ ${escape(olderCandidate)}\\s+│ verdict`));
    expect(result.stdout).toMatch(/│ ssi-legacy-if-expr\s+│ S6\s+│ [0-9, ]+│ [0-9, ]+ expected-change\s+│ [0-9, ]+ (same|noise)\s+│ expected-change/);
    const markdown = readFileSync(`${out}/r.md`, "utf8");
    expect(markdown).toContain(`| scenario | seed | baseline | ${candidate} | ${olderCandidate} | verdict |`);
    const html = readFileSync(`${out}/r.html`, "utf8");
    expect(html).toMatch(/<tr data-matrix-scenario="ssi-legacy-if-expr">.*data-candidate="candidate" data-verdict="expected-change".*data-candidate="candidate-2" data-verdict="(same|noise)"/);
    const junit = readFileSync(`${out}/r.xml`, "utf8");
    const names = [...junit.matchAll(/<testcase classname="catalogue\.[^"]*" name="([^"]+\]): /g)].map((m) => m[1]);
    expect(names).toEqual([
      `ssi-legacy-if-expr [${candidate}]`,
      `ssi-legacy-if-expr [${olderCandidate}]`,
      `ssi-errordocument-legacy-expr [${candidate}]`,
      `ssi-errordocument-legacy-expr [${olderCandidate}]`,
    ]);
  });
});

describe("run --matrix FILE", { timeout: 300_000 }, () => {
  it("names the candidates by label and axis, recipe:ID resolved, Debian's build on the distribution axis", async () => {
    const dir = scenarioDir({
      "planted.scenario.yaml": PLANTED,
      "matrix.yaml": [
        'baseline: { image: "recipe:httpd-2.4.67", label: "2.4.67" }',
        "candidates:",
        '  - { image: "recipe:httpd-2.4", label: "2.4.68", axis: upstream }',
        '  - { image: "recipe:httpd-2.4-debian", label: "Debian bookworm", axis: distribution }',
      ].join("\n"),
    });
    const out = mkdtempSync(join(tmpdir(), "harness-matrix-"));
    const result = await runCli(["run", join(dir, "planted.scenario.yaml"), "--matrix", join(dir, "matrix.yaml"), "--report", `json:${out}/r.json`]);
    expect(result.stderr).not.toMatch(/error HARNESS_/);
    const report = JSON.parse(readFileSync(`${out}/r.json`, "utf8")) as Report;
    expect(report.baseline.image).toBe(inject("images").olderCandidate);
    expect(report.candidates.map((c) => [c.label, c.axis, c.image, c.version])).toEqual([
      ["2.4.68", "upstream", inject("images").candidate, "2.4.68"],
      ["Debian bookworm", "distribution", inject("images").debian, expect.stringMatching(/^2\.4\.\d+$/)],
    ]);
    // Both answer 410 where 2.4.67 answers 404: the planted <IfVersion >= 2.4.68>.
    expect(report.scenarios[0]!.matrix!.map((m) => [m.label, m.requests[0]!.status])).toEqual([
      ["2.4.68", 410],
      ["Debian bookworm", 410],
    ]);
  });

  it("is bad input, exit 2, at file:line:column, before anything starts", async () => {
    const dir = scenarioDir({ "matrix.yaml": "candidates:\n  - { image: httpd:2.4, axis: debian }\n" });
    const out = mkdtempSync(join(tmpdir(), "harness-matrix-"));
    const result = await runCli(["run", "--matrix", join(dir, "matrix.yaml"), "--report", `json:${out}/r.json`], { env: { DEBUG: "harness:docker" } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/HARNESS_MATRIX_FILE: .*matrix\.yaml:2:31: axis "debian" is not one of upstream, distribution/);
    expect(result.stderr).not.toMatch(/created from/);
    expect(existsSync(`${out}/r.json`)).toBe(false);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

