// Two real runs of one fleet agree on everything the configs decide; they differ in what time decides: durations,
// start times, and which benign clock-driven differences happened to show (a Date or Expires header a second apart
// in one run and not in the other). This keeps the first and leaves out the second, so a test can compare a single
// run with merged shards, a resumed run or a run over two engines.
import type { Verdict } from "../../harness/judge/difference.ts";
import type { Report } from "../../harness/report/report-model.ts";

/** Verdicts that say "nothing to fix": which of them a run shows can hang on the clock. */
function settled(verdict: Verdict): string {
  return verdict === "same" || verdict === "noise" || verdict === "expected-change" ? "no regression" : verdict;
}

export function comparableFleet(report: Report): unknown {
  const causes = (findings: ReadonlyArray<{ rule: string; severity: string; security: boolean; gating: boolean }>) =>
    findings.filter((f) => f.severity !== "expected").map((f) => `${f.rule} ${f.severity}${f.security ? " security" : ""}${f.gating ? " gating" : ""}`);
  return {
    sides: report.sides,
    scenarios: report.scenarios.map((s) => ({
      id: s.id,
      file: s.file,
      verdict: settled(s.verdict),
      error: s.error,
      findings: causes(s.findings),
      configTest: [s.configTest.baseline?.ok ?? null, s.configTest.candidate?.ok ?? null],
      requests: s.requests.map((r) => `${r.name} ${r.sent} ${r.baseline?.status ?? "-"} ${r.candidate?.status ?? "-"}`),
    })),
    fleet: report.fleet && {
      inputsHash: report.fleet.inputsHash,
      duplicates: report.fleet.duplicates,
      configs: report.fleet.configs.map((c) => ({ id: c.id, path: c.path, verdict: settled(c.verdict), findings: causes(c.findings), sameAs: c.sameAs, error: c.error })),
    },
    causes: report.summary.findings.filter((f) => f.severity !== "expected").map((f) => ({ rule: f.rule, severity: f.severity, configs: [...f.scenarios].sort(), gating: f.gating })),
  };
}
