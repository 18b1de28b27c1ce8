// The JUnit XML report for CI systems. First a <testsuite> of the run's findings, worst first, one <testcase> per
// finding no scenario predicted (a finding that fails the run -> <failure>, its evidence and config lines in the
// text); then one <testsuite> for the run, one <testcase> per scenario: verdict regression -> <failure>, verdict
// error -> <error>, a side whose expectations were skipped (no image) and nothing failed -> <skipped>. A version
// matrix (several candidates) has one <testcase> per scenario and candidate, each judged by that candidate's own
// verdict against the baseline, named "<id> [<label>]: <title>" with a "candidate" property.
import { escapeXml, escapeXmlAttribute } from "./escape-xml.ts";
import { formatValue, truncate } from "./format-value.ts";
import { REPORT_SIDES } from "./describe-side.ts";
import type { Report, ReportMatrixEntry, ReportScenario } from "./report-model.ts";
import { scenarioDifferences } from "./scenario-differences.ts";
import { decimalSeconds, plural } from "./units.ts";
import { confirmationText, findingsWorstFirst, type LocatedFinding, place, requestsText, severityLabel } from "./finding-text.ts";

const VALUE_LIMIT = 500;

function attributes(pairs: Array<[string, string]>): string {
  return pairs.map(([name, value]) => ` ${name}="${escapeXmlAttribute(value)}"`).join("");
}

/**
 * The catalogue area from the scenario's path: the folder under "catalogue/" (scenarios/catalogue/authz/x.yaml ->
 * "authz"), else the file's parent folder, else "scenarios". Dots become "_" so the area stays one class-name part.
 */
export function scenarioArea(file: string): string {
  const parts = file.split(/[\\/]+/).filter((part) => part !== "" && part !== ".");
  const catalogue = parts.lastIndexOf("catalogue");
  const area = catalogue >= 0 && catalogue < parts.length - 2 ? parts[catalogue + 1] : parts.at(-2);
  return (area ?? "scenarios").replace(/\./g, "_");
}

function indent(text: string, prefix: string): string {
  return text.split("\n").map((line) => `${prefix}${line}`).join("\n");
}

function failureOf(scenario: ReportScenario): { message: string; body: string } {
  const regressions = scenarioDifferences(scenario).filter(({ difference }) => difference.class === "regression");
  const lines: string[] = [];
  if (regressions.length > 0) {
    lines.push("Regressions (differences no seed row predicts):");
    for (const { request, difference } of regressions) {
      const where = request === null ? "server" : `request "${request}"`;
      lines.push(`- ${where}, ${difference.field}: ${difference.reason}`);
      lines.push(indent(`baseline:  ${truncate(formatValue(difference.baseline), VALUE_LIMIT)}`, "    "));
      lines.push(indent(`candidate: ${truncate(formatValue(difference.candidate), VALUE_LIMIT)}`, "    "));
    }
  }
  let unmet = 0;
  for (const side of REPORT_SIDES) {
    const failures = scenario.expectations[side].failures;
    unmet += failures.length;
    if (failures.length === 0) continue;
    if (lines.length > 0) lines.push("");
    lines.push(`Unmet expectations (${side}):`);
    for (const failure of failures) lines.push(`- ${failure.message}`);
  }
  const parts: string[] = [];
  if (regressions.length > 0) parts.push(plural(regressions.length, "regression"));
  if (unmet > 0) parts.push(plural(unmet, "unmet expectation"));
  return { message: parts.length > 0 ? parts.join(", ") : "regression", body: lines.join("\n") };
}

function errorOf(scenario: ReportScenario): { message: string; type: string; body: string } {
  const errors = scenarioDifferences(scenario).filter(({ difference }) => difference.class === "error");
  const lines: string[] = [];
  if (scenario.error !== null) lines.push(`${scenario.error.code}: ${scenario.error.message}`);
  for (const { request, difference } of errors) {
    const where = request === null ? "server" : `request "${request}"`;
    lines.push(`- ${where}, ${difference.field}: ${difference.reason}`);
  }
  return {
    message: scenario.error?.message ?? "the harness could not observe one side",
    type: scenario.error?.code ?? "error",
    body: lines.join("\n"),
  };
}

function skippedOf(scenario: ReportScenario): string | null {
  const reasons = REPORT_SIDES.flatMap((side) => {
    const skipped = scenario.expectations[side].skipped;
    return skipped === null ? [] : [`${side}: ${skipped}`];
  });
  return reasons.length === 0 ? null : reasons.join("; ");
}

function systemOut(scenario: ReportScenario): string | null {
  const lines: string[] = [];
  if (scenario.guide.holds === false) {
    lines.push("The upgrade guide is wrong here:");
    for (const note of scenario.guide.notes) lines.push(`- ${note}`);
    for (const failure of scenario.guide.failures) lines.push(`- ${failure.version}: ${failure.message}`);
  }
  const expected = scenarioDifferences(scenario).filter(({ difference }) => difference.class === "expected-change");
  if (expected.length > 0) {
    if (lines.length > 0) lines.push("");
    lines.push("Expected changes:");
    for (const { request, difference } of expected) {
      const where = request === null ? "server" : `request "${request}"`;
      lines.push(`- ${where}, ${difference.field} [${difference.seed.join(", ")}]: ${difference.reason}`);
    }
  }
  return lines.length === 0 ? null : lines.join("\n");
}

type Outcome = "passed" | "failure" | "error" | "skipped";

function outcomeOf(scenario: ReportScenario): Outcome {
  if (scenario.verdict === "error") return "error";
  if (scenario.verdict === "regression") return "failure";
  return skippedOf(scenario) === null ? "passed" : "skipped";
}

/** One scenario as seen by one candidate of a matrix: its own verdict, expectations and differences in the
 * candidate's place, so that a test case reads it as it reads a one-candidate scenario. */
function candidateView(scenario: ReportScenario, entry: ReportMatrixEntry): ReportScenario {
  return {
    ...scenario,
    verdict: entry.verdict,
    expectations: { baseline: scenario.expectations.baseline, candidate: entry.expectations },
    differences: entry.differences,
    requests: scenario.requests.map((request) => ({ ...request, differences: entry.requests.find((r) => r.name === request.name)?.differences ?? [] })),
  };
}

interface Case {
  scenario: ReportScenario;
  /** The matrix candidate's label; null in a one-candidate run. */
  candidate: string | null;
}

function casesOf(report: Report): Case[] {
  return report.scenarios.flatMap((scenario) => casesOfScenario(report, scenario));
}

function casesOfScenario(report: Report, scenario: ReportScenario): Case[] {
  if (report.candidates.length < 2 || scenario.matrix === null) return [{ scenario, candidate: null }];
  return scenario.matrix.map((entry) => ({ scenario: candidateView(scenario, entry), candidate: entry.label }));
}

function testcase({ scenario, candidate }: Case): string {
  const open = `    <testcase${attributes([
    ["classname", `catalogue.${scenarioArea(scenario.file)}`],
    ["name", `${scenario.id}${candidate === null ? "" : ` [${candidate}]`}: ${scenario.title}`],
    ["file", scenario.file],
    ["time", decimalSeconds(scenario.durationMs)],
  ])}>`;
  const children: string[] = [];
  const properties: Array<[string, string]> = [
    ...(candidate === null ? [] : ([["candidate", candidate]] as Array<[string, string]>)),
    ["seed", scenario.seed.join(",")],
    ["verdict", scenario.verdict],
    ["coverage", scenario.coverage],
    ["guide.holds", scenario.guide.holds === null ? "unknown" : String(scenario.guide.holds)],
  ];
  children.push(
    "      <properties>",
    ...properties.map(([name, value]) => `        <property${attributes([["name", name], ["value", value]])}/>`),
    "      </properties>",
  );
  switch (outcomeOf(scenario)) {
    case "failure": {
      const { message, body } = failureOf(scenario);
      children.push(`      <failure${attributes([["message", message], ["type", "regression"]])}>${escapeXml(body)}</failure>`);
      break;
    }
    case "error": {
      const { message, type, body } = errorOf(scenario);
      children.push(`      <error${attributes([["message", message], ["type", type]])}>${escapeXml(body)}</error>`);
      break;
    }
    case "skipped":
      children.push(`      <skipped${attributes([["message", skippedOf(scenario) ?? ""]])}/>`);
      break;
    case "passed":
      break;
  }
  const out = systemOut(scenario);
  if (out !== null) children.push(`      <system-out>${escapeXml(out)}</system-out>`);
  return [open, ...children, "    </testcase>"].join("\n");
}

function findingCase({ scenario, finding }: LocatedFinding): string {
  const where = finding.config.length > 0 ? place(finding.config[0]!) : (finding.requests.examples[0] ?? "server");
  const open = `    <testcase${attributes([
    ["classname", `findings.${severityLabel(finding).replace(/[ ()]+/g, "_").replace(/_$/, "")}`],
    ["name", `${finding.rule} at ${where} (${scenario})`],
    ...(finding.config.length > 0 ? ([["file", finding.config[0]!.file]] as Array<[string, string]>) : []),
  ])}>`;
  const lines = [
    `${severityLabel(finding)}: ${finding.rule}: ${finding.title}`,
    ...finding.config.map((line) => `- ${place(line)}${line.directive ? ` ${line.directive}` : ""}`),
    ...[requestsText(finding.requests), confirmationText(finding)].filter((text) => text !== ""),
    ...finding.evidence.map((line) => `  ${truncate(line, VALUE_LIMIT)}`),
  ];
  const body = finding.gating
    ? `      <failure${attributes([["message", `${severityLabel(finding)}: ${finding.rule}: ${finding.title}`], ["type", finding.severity]])}>${escapeXml(lines.join("\n"))}</failure>`
    : `      <system-out>${escapeXml(lines.join("\n"))}</system-out>`;
  return [open, body, "    </testcase>"].join("\n");
}

/** The findings suite, when the run has findings no scenario predicted. */
function findingsSuite(report: Report, name: string): { lines: string[]; tests: number; failures: number } {
  const news = findingsWorstFirst(report).filter(({ finding }) => !finding.predicted);
  if (news.length === 0) return { lines: [], tests: 0, failures: 0 };
  const failures = news.filter(({ finding }) => finding.gating).length;
  const totals: Array<[string, string]> = [["tests", String(news.length)], ["failures", String(failures)], ["errors", "0"], ["skipped", "0"], ["time", "0.000"]];
  return {
    lines: [`  <testsuite${attributes([["name", `${name}: findings`], ...totals, ["timestamp", report.startedAt]])}>`, ...news.map(findingCase), "  </testsuite>"],
    tests: news.length,
    failures,
  };
}

export function renderJunitReport(report: Report): string {
  return [...junitReportChunks(report, report.scenarios)].join("");
}

/** The report in pieces, for a writer that streams it: the same bytes as renderJunitReport. The totals and the
 * findings suite come from `frame` (its scenarios need their verdicts, expectations and findings), the test
 * cases from `scenarios`, whole. */
export function* junitReportChunks(frame: Report, scenarios: Iterable<ReportScenario>): Generator<string> {
  const report = frame;
  const cases = casesOf(report);
  const outcomes = cases.map((c) => outcomeOf(c.scenario));
  const count = (outcome: Outcome) => String(outcomes.filter((o) => o === outcome).length);
  const name = `httpd-upgrade-harness ${report.baseline.image} -> ${report.candidates.length > 1 ? report.candidates.map((c) => c.label).join(", ") : report.candidate.image}`;
  const totals: Array<[string, string]> = [
    ["tests", String(cases.length)],
    ["failures", count("failure")],
    ["errors", count("error")],
    ["skipped", count("skipped")],
    ["time", decimalSeconds(report.summary.durationMs)],
  ];
  const findings = findingsSuite(report, name);
  const all: Array<[string, string]> = totals
    .filter(([key]) => key !== "skipped")
    .map(([key, value]) => [key, key === "tests" || key === "failures" ? String(Number(value) + findings[key]) : value]);
  yield [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites${attributes([["name", name], ...all])}>`,
    ...findings.lines,
    `  <testsuite${attributes([["name", name], ...totals, ["timestamp", report.startedAt]])}>`,
    "    <properties>",
    ...(
      [
        ["baseline.image", report.baseline.image],
        ["baseline.version", report.baseline.version ?? (report.baseline.missing ? "missing" : "unknown")],
        ["candidate.image", report.candidate.image],
        ["candidate.version", report.candidate.version ?? "unknown"],
        ["schemaVersion", report.schemaVersion],
        ["tool.version", report.tool.version],
      ] satisfies Array<[string, string]>
    ).map(([key, value]) => `      <property${attributes([["name", key], ["value", value]])}/>`),
    "    </properties>",
  ].join("\n");
  for (const scenario of scenarios) for (const one of casesOfScenario(report, scenario)) yield `\n${testcase(one)}`;
  yield "\n  </testsuite>\n</testsuites>\n";
}
