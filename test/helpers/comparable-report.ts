// Two real runs of one fleet agree on everything the configs decide; they differ in what time decides: durations,
// start times, and which benign clock-driven differences happened to show (a Date or Expires header a second apart
// in one run and not in the other). This keeps the first and leaves out the second, so a test can compare a single
// run with merged shards, a resumed run or a run over two engines.
import type { Verdict } from "../../harness/judge/difference.ts";
import type { Report, ReportErrorLogLine, ReportScenario, ReportSideRequest } from "../../harness/report/report-model.ts";

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

/** Error-log messages that the machine's load and the clock decide, not the config: the event MPM's "within
 * MinSpareThreads of MaxRequestWorkers" (AH10159) when its threads start slowly on a busy machine, and, at
 * LogLevel debug, a child process starting its threads (AH02471 "start_threads: Using epoll") when the MPM
 * happens to spawn one while a request is in flight, with the parent's uncoded "Child 3 started: pid ..."
 * (mpm-child-started, logs/message-map.ts), which alone gave a 2.4 cache request a "debug" in one catalogue run and
 * not in the other; and a piped logger that exits being restarted (AH00106), which
 * httpd does over and over on its own clock, falling in one request's window or the next's, with what the logger
 * itself prints (lines that are not httpd's records: no id, event or level, left out for the same reason). */
const LOAD_DRIVEN = new Set(["AH10159", "AH02471", "AH00106", "mpm-child-started"]);

/** One scenario's answers without what time decides: its verdict (settled), error, expectation results, config
 * tests, and per request and side the outcome, status, transport error and which messages the error log had
 * (AH... ids, or the event the parser named; how often a message repeats, such as a piped logger restarting,
 * is the clock's). Bodies and header values are left out: a Date, an uptime or an autoindex's times differ
 * between any two runs. */
export function comparableScenario(scenario: ReportScenario): unknown {
  const side = (request: ReportSideRequest | null) =>
    request && {
      outcome: request.outcome,
      status: request.status,
      transportError: request.transportError,
      exit: request.exec?.exitCode ?? null,
      errorLog: [...new Set(request.errorLog.map((line) => line.code ?? line.event ?? line.level).filter((code) => code !== null && !LOAD_DRIVEN.has(code)))].sort(),
    };
  const expectations = (result: ReportScenario["expectations"]["baseline"]) => ({ ok: result.ok, stated: result.stated, failures: result.failures.map((f) => `${f.request} ${f.field}`) });
  return {
    id: scenario.id,
    verdict: settled(scenario.verdict),
    error: scenario.error,
    expectations: { baseline: expectations(scenario.expectations.baseline), candidate: expectations(scenario.expectations.candidate) },
    configTest: [scenario.configTest.baseline?.ok ?? null, scenario.configTest.candidate?.ok ?? null],
    requests: scenario.requests.map((r) => ({ name: r.name, baseline: side(r.baseline), candidate: side(r.candidate) })),
  };
}

/** Per scenario and side, how many lines of each message (AH id, event, else level) its servers logged for its
 * requests, over every request and the side's trailing lines: each line counted once, wherever it landed. How many
 * lines a config's requests make is the config's; which request holds a 2.2 line (no client port) is timing's where
 * a batch's access lines do not tell its requests apart (observe/batch-attribution.ts), so taking each request's
 * messages as a set and counting those counts the requests that hold a message, a number timing decides. */
export function loggedLines(scenarios: readonly ReportScenario[]): unknown {
  const count = (lines: readonly ReportErrorLogLine[]): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const line of lines) {
      const key = line.code ?? line.event ?? line.level;
      if (key === null || LOAD_DRIVEN.has(key)) continue;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
  };
  const side = (scenario: ReportScenario, which: "baseline" | "candidate") =>
    count([...scenario.requests.flatMap((r) => r[which]?.errorLog ?? []), ...(scenario.servers[which]?.trailingLog ?? [])]);
  return scenarios.map((scenario) => ({ id: scenario.id, baseline: side(scenario, "baseline"), candidate: side(scenario, "candidate") }));
}
