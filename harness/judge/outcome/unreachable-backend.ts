// Pure: whether a request went to a proxied backend the harness cannot reach (a name its networks do not resolve, an
// address nothing answers on). Both servers then fail, each with its own status (2.2: 502, 2.4: 500 on a DNS
// failure): the answers say nothing about the config, so such a cell is not probed, whatever its statuses.
import type { RequestObservation } from "../../observe/observation.ts";

const BACKEND_FAILURE = /DNS lookup failure for: (\S+)|proxy: .*(?:attempt to connect to|could not connect|error reading)|AH0095[79]|AH01114|AH00898/i;

/** The backend a request failed to reach (its name, or the line that says so), from either side's lines; null when none. */
export function unreachableBackend(...observations: Array<RequestObservation | undefined>): string | null {
  for (const observation of observations) {
    for (const record of observation?.errorLog ?? []) {
      const match = BACKEND_FAILURE.exec(record.message);
      if (match) return match[1] ?? record.message.slice(0, 80);
    }
  }
  return null;
}
