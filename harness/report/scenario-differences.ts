// All differences of one scenario, each with the request it belongs to (null: server level: config test,
// start, startup log).
import type { Difference } from "../judge/difference.ts";
import type { ReportScenario } from "./report-model.ts";

export interface LocatedDifference {
  request: string | null;
  difference: Difference;
}

function key(d: Difference): string {
  return JSON.stringify([d.field, d.baseline, d.candidate, d.class, d.seed, d.reason]);
}

/**
 * Scenario-level differences first (a failed config test explains the rest), then the request-level ones in
 * request order. The contract does not say
 * whether `scenario.differences` also repeats the request-level ones; an entry equal to a request-level one is
 * taken as that repetition and listed once, under its request.
 */
export function scenarioDifferences(scenario: ReportScenario): LocatedDifference[] {
  const perRequest: LocatedDifference[] = [];
  const seen = new Map<string, number>();
  for (const request of scenario.requests) {
    for (const difference of request.differences) {
      perRequest.push({ request: request.name, difference });
      const k = key(difference);
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
  }
  const serverLevel: LocatedDifference[] = [];
  for (const difference of scenario.differences) {
    const k = key(difference);
    const count = seen.get(k) ?? 0;
    if (count > 0) {
      seen.set(k, count - 1);
      continue;
    }
    serverLevel.push({ request: null, difference });
  }
  return [...serverLevel, ...perRequest];
}
