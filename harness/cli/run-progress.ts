// What `run` and `replay` print while scenarios run, and the run options both read from the same flags.
import { judgeScenario } from "../judge/judge-scenario.ts";
import type { TriageInputs } from "../judge/triage.ts";
import { DEFAULT_SCENARIO_TIME_LIMIT_MS, type ProgressEvent } from "../observe/run-harness.ts";
import { renderProgressLine } from "../report/terminal-table.ts";
import { seconds } from "./parse-options.ts";

/** Notes as they come, and a line per finished scenario with its verdict (and engine, over several). */
export function printProgress(triage: TriageInputs): (event: ProgressEvent) => void {
  return (event) => {
    if (event.kind === "note") process.stderr.write(`${event.message}\n`);
    else if (event.kind === "scenario-done") {
      process.stderr.write(`${renderProgressLine(event.done, event.total, event.run.scenario.id, judgeScenario(event.run, triage).verdict, undefined, event.run.engine ?? null)}\n`);
    }
  };
}

/** --no-noise, --scenario-time-limit, --time-limit. */
export function timingOptions(values: { "no-noise"?: boolean; "scenario-time-limit"?: string; "time-limit"?: string }): {
  learnNoise: boolean;
  scenarioTimeLimitMs: number;
  runTimeLimitMs: number | null;
} {
  return {
    learnNoise: values["no-noise"] !== true,
    scenarioTimeLimitMs: seconds(values["scenario-time-limit"], "--scenario-time-limit") ?? DEFAULT_SCENARIO_TIME_LIMIT_MS,
    runTimeLimitMs: seconds(values["time-limit"], "--time-limit"),
  };
}
