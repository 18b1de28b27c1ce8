// Behaviour that changed between 2.4 patch levels, observed on the older one. mod_include changed in 2.4.68
// ("Don't print any of if/elsif/else content when a conditional evaluation returns an error"): when a 2.2-style
// `#if expr` fails to parse, 2.4.67 prints the error text *and then the if-branch*, 2.4.68 only the error
// text. The catalogue scenarios state both by version range ("2.4": { ">=2.4.68": ..., default: ... }); this
// test runs them on 2.4.67 (baseline and candidate both), checks that the scenarios' own expectations hold
// there, and checks the bodies straight from the observations too, so a wrong range cannot hide a change.
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { judgeScenario } from "../../../harness/judge/judge-scenario.ts";
import type { HttpResponseOutcome, RequestObservation } from "../../../harness/observe/observation.ts";
import { runHarness } from "../../../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { loadScenarios } from "../../../harness/scenario/load-scenario.ts";

const DEFAULTS = fileURLToPath(new URL("../../../scenarios/catalogue/defaults/", import.meta.url));
const FILES = ["ssi-legacy-if-expr.scenario.yaml", "ssi-errordocument-legacy-expr.scenario.yaml"].map((file) => DEFAULTS + file);
const ERROR_TEXT = "[an error occurred while processing this directive]";

/** The requests whose body differs between 2.4.67 and 2.4.68, with 2.4.67's body (2.4.68 drops the if-branch text). */
const BODIES_ON_2_4_67: Record<string, Record<string, string>> = {
  "ssi-legacy-if-expr": {
    "old-syntax-match": `<p>${ERROR_TEXT}regex-match</p>\n`,
    // The failed condition takes the if-branch, whatever the query string.
    "old-syntax-no-match": `<p>${ERROR_TEXT}regex-match</p>\n`,
    "old-string-equal": `<p>${ERROR_TEXT}string-equal</p>\n`,
  },
  "ssi-errordocument-legacy-expr": {
    "shop-missing": `<html><body>${ERROR_TEXT}Shop page not found</body></html>\n`,
    "other-missing": `<html><body>${ERROR_TEXT}Shop page not found</body></html>\n`,
  },
};

const runs = new Map<string, ScenarioRun>();

function request(run: ScenarioRun, side: string, name: string): RequestObservation {
  const found = run.observations.find((o) => o.side.id === side)?.requests.find((observed) => observed.name === name);
  if (!found) throw new Error(`${run.scenario.id}: no ${side} observation of request ${name}`);
  return found;
}

function response(observed: RequestObservation): HttpResponseOutcome {
  expect(observed.outcome.kind, `${observed.name}: ${JSON.stringify(observed.outcome)}`).toBe("response");
  return observed.outcome as HttpResponseOutcome;
}

describe("mod_include on httpd 2.4.67, the patch level before the candidate", { timeout: 600_000 }, () => {
  beforeAll(async () => {
    const image = inject("images").olderCandidate;
    const scenarios = await loadScenarios(FILES);
    const result = await runHarness({
      scenarios,
      baselineImage: image,
      candidateImage: image,
      allowMissingBaseline: false,
      concurrency: 2,
      learnNoise: false,
    });
    for (const run of result.runs) runs.set(run.scenario.id, run);
  }, 600_000);

  describe.each(Object.keys(BODIES_ON_2_4_67))("%s", (id) => {
    it("runs on 2.4.67 on both sides without a harness error", () => {
      const run = runs.get(id);
      expect(run, `scenario ${id} was not run`).toBeDefined();
      expect(run!.error).toBeNull();
      expect(run!.skipped).toEqual([]);
      expect(run!.observations.map((o) => o.side.id)).toEqual(["baseline", "candidate"]);
      for (const observation of run!.observations) {
        expect(observation.server.version.text).toBe("2.4.67");
        expect(observation.started).toBe(true);
      }
    });

    it("meets what the scenario states for 2.4 before 2.4.68 (its version range's default)", () => {
      const judgement = judgeScenario(runs.get(id)!);
      for (const side of judgement.sides) expect(side.failures, side.side.id).toEqual([]);
      expect(judgement.verdict).not.toBe("regression");
    });

    it.each(Object.entries(BODIES_ON_2_4_67[id]!))("%s answers with 2.4.67's body and logs AH01337", (name, body) => {
      const run = runs.get(id)!;
      for (const side of ["baseline", "candidate"] as const) {
        const observed = request(run, side, name);
        expect(response(observed).body).toBe(body);
        expect(observed.errorLog.map((record) => [record.code, record.module, record.level])).toContainEqual(["AH01337", "include", "error"]);
      }
    });
  });
});
