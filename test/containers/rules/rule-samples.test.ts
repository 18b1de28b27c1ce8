// Lint agrees with real servers: every rule's sample (Rule.sample) runs through the harness's own run path on the
// local 2.4 image, and on the real 2.2 image when HTTPD_BASELINE_IMAGE names one. A sample that 2.4 refuses must
// fail 2.4's config test (or pass it and exit while starting) with a message its rule's recognise face claims, and start on 2.2; any other sample
// starts on both and answers its request. One scenario per rule, so a failure names its rule; all of them in one
// harness run (images inspected once), a few at a time. (Lint's side of the agreement: test/unit/rules/rule-samples-lint.test.ts.)
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { SideObservation } from "../../../harness/observe/observation.ts";
import { runHarness } from "../../../harness/observe/run-harness.ts";
import type { ScenarioRun } from "../../../harness/observe/scenario-run.ts";
import { RULES } from "../../../harness/rules/all-rules.ts";
import type { Evidence } from "../../../harness/rules/evidence.ts";
import type { Scenario } from "../../../harness/scenario/scenario.ts";
import { planSampleOffline, SAMPLE_REQUEST, sampledRules, sampleScenario, type SampledRule } from "../../helpers/rule-samples.ts";

const RULES_WITH_SAMPLES = sampledRules(RULES);
// Each scenario boots a server per side; three at a time keeps two cores busy without starving the engine.
const CONCURRENCY = 3;
const SUITE_TIME_MS = 20 * 60_000;

interface SampleOutcome {
  /** The sample is no valid scenario or cannot be planned (a module no httpd has): the rule's own error. */
  invalid: string | null;
  run: ScenarioRun | null;
}

const outcomes = new Map<string, SampleOutcome>();

function side(run: ScenarioRun, role: "baseline" | "candidate"): SideObservation | undefined {
  return run.observations.find((observation) => observation.side.role === role);
}

function ran(rule: SampledRule): ScenarioRun {
  const outcome = outcomes.get(rule.id);
  if (outcome === undefined) throw new Error(`${rule.id}'s sample was not run`);
  if (outcome.invalid !== null) throw new Error(`${rule.id}'s sample cannot be run (bad scenario or plan): ${outcome.invalid}`);
  const run = outcome.run!;
  if (run.error) throw new Error(`${rule.id}'s sample could not be run: ${run.error.code}: ${run.error.message}`);
  return run;
}

/** What a side said, for failure messages. */
function told(observation: SideObservation): string {
  return [`config test: ${observation.configTest.messages.join(" | ")}`, ...observation.startupLog.map((r) => r.raw), ...(observation.startFailure?.logTail ?? [])].join("\n");
}

/** The candidate's refusal as the judge hands it to rules: the config test's records as the server's evidence. */
function refusalEvidence(run: ScenarioRun, candidate: SideObservation): Evidence {
  const baseline = side(run, "baseline");
  return {
    field: "configTest",
    baseline: baseline ? (baseline.configTest.ok ? "ok" : "failed") : null,
    candidate: "failed",
    request: null,
    status: { baseline: null, candidate: null },
    log: { baseline: baseline?.configTest.records ?? [], candidate: [...candidate.configTest.records, ...candidate.startupLog] },
    families: { baseline: "2.2", candidate: candidate.server.version.family },
    findings: [],
  };
}

describe("every rule's sample on real servers", { timeout: SUITE_TIME_MS }, () => {
  beforeAll(async () => {
    const images = inject("images");
    const scenarios: Scenario[] = [];
    const owners: SampledRule[] = [];
    for (const rule of RULES_WITH_SAMPLES) {
      try {
        planSampleOffline(rule);
        scenarios.push(sampleScenario(rule));
        owners.push(rule);
      } catch (error) {
        outcomes.set(rule.id, { invalid: (error as Error).message, run: null });
      }
    }
    const { runs } = await runHarness({
      scenarios,
      // A name no engine has: without a 2.2 image the candidate runs alone (allowMissingBaseline).
      baselineImage: images.baseline ?? "httpd-upgrade-harness-test/no-baseline:2.2",
      candidateImage: images.candidate,
      allowMissingBaseline: true,
      concurrency: CONCURRENCY,
      learnNoise: false,
    });
    runs.forEach((run, index) => outcomes.set(owners[index]!.id, { invalid: null, run }));
  }, SUITE_TIME_MS);

  it("some rules have samples", () => {
    expect(RULES_WITH_SAMPLES.length).toBeGreaterThan(0);
  });

  for (const rule of RULES_WITH_SAMPLES) {
    describe(`${rule.id}: ${rule.title}`, () => {
      it("every module the sample names is on the 2.4 image", () => {
        const candidate = side(ran(rule), "candidate")!;
        expect(candidate.missingModules).toEqual([]);
      });

      if (rule.sample.on24 === "refuses") {
        it(`2.4 refuses the sample in its config test, with a message ${rule.id} recognises`, () => {
          const run = ran(rule);
          const candidate = side(run, "candidate")!;
          expect(candidate.server.version.family).toBe("2.4");
          expect({ configTestOk: candidate.configTest.ok, started: candidate.started }, told(candidate)).toEqual({ configTestOk: false, started: false });
          expect(rule.recognise, `${rule.id} has a sample 2.4 refuses but no recognise face`).toBeDefined();
          const claim = rule.recognise!(refusalEvidence(run, candidate));
          expect(claim, `${rule.id} does not claim 2.4's refusal:\n${told(candidate)}`).not.toBeNull();
          expect(claim!.summary).not.toBe("");
        });
      } else if (rule.sample.on24 === "exits-at-start") {
        it(`2.4 passes the sample's config test and exits while starting, with a message ${rule.id} recognises`, () => {
          const run = ran(rule);
          const candidate = side(run, "candidate")!;
          expect({ configTestOk: candidate.configTest.ok, started: candidate.started }, told(candidate)).toEqual({ configTestOk: true, started: false });
          const claim = rule.recognise!({ ...refusalEvidence(run, candidate), field: "started" });
          expect(claim, `${rule.id} does not claim 2.4's exit:\n${told(candidate)}`).not.toBeNull();
        });
      } else {
        it("2.4 starts with the sample and answers its request", () => {
          const candidate = side(ran(rule), "candidate")!;
          expect({ configTestOk: candidate.configTest.ok, started: candidate.started }, told(candidate)).toEqual({ configTestOk: true, started: true });
          const request = candidate.requests.find((r) => r.name === SAMPLE_REQUEST)!;
          expect(request.outcome.kind, JSON.stringify(request.outcome)).toBe("response");
        });
      }

      it(rule.sample.refusedBy22 === undefined ? "2.2 starts with the sample and answers its request" : "2.2 refuses the sample too, as the rule says", (context) => {
        const images = inject("images");
        if (!images.baseline) return context.skip(images.baselineMissingReason ?? "no baseline image");
        const baseline = side(ran(rule), "baseline")!;
        expect(baseline.server.version.family).toBe("2.2");
        if (rule.sample!.refusedBy22 !== undefined) {
          expect(baseline.configTest.ok, told(baseline)).toBe(false);
          return;
        }
        expect({ configTestOk: baseline.configTest.ok, started: baseline.started }, told(baseline)).toEqual({ configTestOk: true, started: true });
        const request = baseline.requests.find((r) => r.name === SAMPLE_REQUEST)!;
        expect(request.outcome.kind, JSON.stringify(request.outcome)).toBe("response");
      });
    });
  }
});
