// Schema 2.3: a version matrix in the report: the run's candidates with labels and axes, and per scenario every
// candidate side by side with its own verdict; the JSON the reporter writes is valid against the schema.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { judgeRun } from "../../../harness/judge/judge-run.ts";
import { buildReport } from "../../../harness/report/build-report.ts";
import { renderJsonReport } from "../../../harness/report/json-report.ts";
import { matrixResult } from "../../fixtures/observations/matrix.ts";
import { a1Run } from "../../fixtures/observations/scenarios.ts";
import { BASELINE, CANDIDATE } from "../../../harness/plan/side.ts";

const schema = JSON.parse(readFileSync(new URL("../../../schema/report.schema.json", import.meta.url), "utf8")) as object;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

describe("a version matrix in the report", () => {
  const report = buildReport(judgeRun(matrixResult()), "0.1.0");

  it("lists the candidates with label, axis, image, version and their own verdict counts", () => {
    expect(report.candidates.map(({ side, label, axis, byVerdict }) => [side, label, axis, byVerdict["expected-change"], byVerdict.regression])).toEqual([
      ["candidate", "2.4.62", "upstream", 2, 0],
      ["candidate-2", "debian", "distribution", 1, 1],
    ]);
    // The first candidate stays where schema 2.2 readers look for it.
    expect(report.candidate).toEqual({ image: "httpd:2.4.62", version: "2.4.62" });
  });

  it("shows every candidate of a scenario side by side: verdict, expectations, config test, each request's status and differences", () => {
    const failing = report.scenarios.find((s) => s.id === "etag-500")!;
    expect(failing.verdict).toBe("regression");
    expect(failing.matrix?.map((m) => [m.side, m.label, m.version, m.verdict, m.expectations.ok, m.configTest?.ok, m.requests.map((r) => [r.name, r.outcome, r.status])])).toEqual([
      ["candidate", "2.4.62", "2.4.62", "expected-change", true, true, [["file", "response", 200]]],
      ["candidate-2", "debian", "2.4.62", "regression", false, true, [["file", "response", 500]]],
    ]);
    const statusDifference = failing.matrix![1]!.requests[0]!.differences.find((d) => d.field === "status");
    expect(statusDifference).toMatchObject({ baseline: "200", candidate: "500", class: "regression" });
    expect(failing.matrix![0]!.requests[0]!.differences.map((d) => d.field)).toEqual(["header:date", "header:server", "header:etag"]);
  });

  it("has no matrix for a one-candidate run", () => {
    const single = buildReport(
      judgeRun({ startedAt: new Date(0), sides: [{ side: BASELINE, image: "httpd:2.2.34", version: "2.2.34", missing: false }, { side: CANDIDATE, image: "httpd:2.4.62", version: "2.4.62", missing: false }], runs: [a1Run()], durationMs: 1 }),
      "0.1.0",
    );
    expect(single.scenarios[0]!.matrix).toBeNull();
    expect(single.candidates).toHaveLength(1);
  });

  it("is valid against schema/report.schema.json as the JSON reporter writes it", () => {
    const ok = validate(JSON.parse(renderJsonReport(report)));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });
});
