// Pure: a fleet's report from its entries, the same function for one run and for merged shards, so a merge
// gives exactly the report a single run gives. The tally is the judge's, read from the report's scenarios.
import { guideNotesOf, type ScenarioTally, summarize } from "../judge/judge-run.ts";
import { assembleReport, candidatesOfReport } from "../report/build-report.ts";
import type { Report, ReportFleetConfig, ReportScenario, ReportSide } from "../report/report-model.ts";
import type { BlobEnd, BlobSides, FleetEntry } from "./blob.ts";
import type { FleetManifest } from "./manifest.ts";

/** A finished scenario's tally: its expectation results are the baseline's and the first candidate's. */
export function reportTally(scenario: ReportScenario, sides: readonly ReportSide[]): ScenarioTally {
  const baseline = sides.find((s) => s.role === "baseline");
  const candidate = sides.find((s) => s.role === "candidate");
  const side = (id: string | undefined, result: ReportScenario["expectations"]["baseline"]) =>
    id === undefined ? [] : [{ side: id, stated: result.stated, ok: result.ok, skipped: result.skipped }];
  return {
    id: scenario.id,
    seed: scenario.seed,
    verdict: scenario.verdict,
    sides: [...side(baseline?.id, scenario.expectations.baseline), ...side(candidate?.id, scenario.expectations.candidate)],
    guide: { holds: scenario.guide.holds, notes: guideNotesOf(scenario.guide.notes, scenario.guide.failures) },
    findings: scenario.findings,
    ignored: scenario.ignored,
  };
}

/** Why a config that no version starts did not start, when no rule names the cause: the candidate's config test
 * (its syntax error, else its last line), so a fleet's list never says just "no cause" for a dead config. */
function notStarted(scenario: ReportScenario): string | null {
  if (scenario.verdict !== "broken-on-both" || scenario.findings.length > 0) return null;
  const test = scenario.configTest.candidate ?? scenario.configTest.baseline;
  const why = test?.syntaxError ? `${test.syntaxError.file}:${test.syntaxError.line}: ${test.syntaxError.reason}` : test?.messages.filter((m) => !/AH00014|AH00558/.test(m)).at(-1);
  return `neither version starts${why ? `: ${why.replace(/^\[[^\]]*\] (\[[^\]]*\] )*/, "")}` : ""}`;
}

export interface FleetReportInput {
  manifest: FleetManifest;
  sides: BlobSides;
  /** One per config, in the manifest's order. */
  entries: readonly FleetEntry[];
  durationMs: number;
  engines: BlobEnd["engines"];
  toolVersion: string;
}

export function fleetReport(input: FleetReportInput): Report {
  const { manifest, entries } = input;
  const sides: ReportSide[] = input.sides.sides.map(({ imageId: _id, label: _label, axis: _axis, ...side }) => side);
  const scenarios = entries.map((entry) => entry.scenario);
  const summary = summarize(
    scenarios.map((s) => reportTally(s, sides)),
    sides.map((s) => ({ side: { id: s.id, role: s.role } })),
    input.durationMs,
  );
  const byId = new Map(manifest.configs.map((config) => [config.id, config]));
  const configs: ReportFleetConfig[] = entries.map((entry) => {
    const config = byId.get(entry.config);
    return {
      id: entry.scenario.id,
      path: config?.label ?? entry.scenario.file,
      verdict: entry.scenario.verdict,
      findings: entry.scenario.findings.map((f) => ({ rule: f.rule, severity: f.severity, security: f.security, gating: f.gating })),
      sameAs: config?.sameAs ?? null,
      engine: entry.scenario.engine ?? null,
      durationMs: entry.scenario.durationMs,
      error: entry.scenario.error ? `${entry.scenario.error.code}: ${entry.scenario.error.message.split("\n")[0]}` : notStarted(entry.scenario),
    };
  });
  return assembleReport({
    startedAt: input.sides.startedAt,
    sides,
    engines: input.engines,
    // A matrix's labels and axes come with the blob's sides, so merged shards label their columns as one run does.
    candidates: candidatesOfReport(input.sides.sides, scenarios),
    scenarios,
    summary,
    toolVersion: input.toolVersion,
    fleet: {
      inputsHash: manifest.inputsHash,
      configs,
      duplicates: manifest.configs.filter((c) => c.sameAs !== null).length,
      passed: manifest.passed ?? [],
    },
  });
}
