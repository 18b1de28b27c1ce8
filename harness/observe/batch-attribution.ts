// Pure: which of a batch's requests each error-log line belongs to. The requests of a batch (clients/
// client-batch.ts) run one after another in one exec, `gapMs` apart, so a single send's way (lines since a mark,
// once its access line came and the log went quiet) sees them all at once. A line is placed by:
//   1. the client port in 2.4's `[client 10.77.1.5:43210]`, when it is one of the batch's connections: exact;
//   2. else, when the server's error and access logs reach the harness through one follower (server/
//      log-targets.ts scriptFollowLines) and every request of the batch was logged, by order: httpd writes a
//      request's error lines before its access line, so a line belongs to the first request whose access line
//      came after it (2.2's lines, which carry neither a port nor sub-second times, and 2.4's lines without a
//      client);
//   3. else when it arrived: a request's lines are written before its answer ends and before its access line, and
//      the next request starts `gapMs` after its record. So a line belongs to the first request whose record, or
//      whose access line when that came later, arrived no earlier than `gapMs / 2` before it.
// Arrival alone was wrong for one 2.2 config in ten in a busy fleet: a line came 18 ms after its own access line,
// or the harness, busy, read a whole batch's records and lines in one go, all with one arrival time.
// Lines past the last request belong to the last request (its late lines, as a single send keeps them); a line
// that names a connection of another send of the side is moved to that send afterwards (send-attribution.ts).

import type { ErrorLogDialect } from "../logs/error-log-record.ts";
import { clientConnectionOf } from "../logs/client-connection.ts";

export interface BatchLine {
  text: string;
  /** Date.now() when it arrived. */
  arrivedAt: number;
  /** Its place among the follower's lines, error and access lines alike (engine/line-stream.ts orders). */
  order?: number;
}

export interface BatchSlot {
  /** null: the request never connected, or was skipped. */
  localPort: number | null;
  receivedAt: number;
  /** When its access line arrived, and its place among the follower's lines, where the batch's access lines are
   * its answered requests' one for one (observe-side.ts). */
  loggedAt?: number;
  loggedOrder?: number;
  /** A skipped request has no lines. */
  skipped: boolean;
}

/** `dialect`: the server's log dialect, which says whether a `[client ...]` ends in a port (2.4) or not (2.2, whose
 * `[client ::5]` is no port 5). */
export function attributeBatchLines(lines: readonly BatchLine[], slots: readonly BatchSlot[], gapMs: number, dialect: ErrorLogDialect): string[][] {
  const result = slots.map((): string[] => []);
  const live = slots.map((slot, index) => ({ slot, index })).filter(({ slot }) => !slot.skipped);
  if (live.length === 0) return result;
  const byPort = new Map<number, number>();
  for (const { slot, index } of live) if (slot.localPort !== null) byPort.set(slot.localPort, index);
  const ordered = live.every(({ slot }) => slot.loggedOrder !== undefined);
  for (const line of lines) {
    const port = clientConnectionOf(line.text, dialect)?.port;
    const exact = port === undefined ? undefined : byPort.get(port);
    if (exact !== undefined) {
      result[exact]!.push(line.text);
      continue;
    }
    const owner =
      (ordered && line.order !== undefined
        ? live.find(({ slot }) => slot.loggedOrder! > line.order!)
        : live.find(({ slot }) => line.arrivedAt <= Math.max(slot.receivedAt, slot.loggedAt ?? slot.receivedAt) + gapMs / 2)) ?? live.at(-1)!;
    result[owner.index]!.push(line.text);
  }
  return result;
}

/** Pure: each answered request's access line in a batch's access lines (those since the batch's mark, in order),
 * marked on its slot: when it came and its place among the follower's lines. `units[i]`: how many requests record
 * i sent (0 unanswered, 2 for a Digest answer after its challenge, else 1). A config with k access logs (every
 * CustomLog writes a line for each request: rhel-balancer's access_log and balancer_log) writes a request's k lines
 * together, after its error lines and before the next request's, so with k times as many lines as requests each
 * request is told by the first of its k (of its last request, for a Digest answer). Counted one for one, half of
 * them were taken for the requests, and a batch's lines went to its first request. Where a log writes for some
 * requests only (`env=`), the lines are no multiple: the slots are left as they are, and arrival decides. */
export function markLoggedSlots(slots: readonly BatchSlot[], units: readonly number[], logged: ReadonlyArray<{ arrivedAt: number; order?: number }>): BatchSlot[] | null {
  const answered = units.reduce((sum, n) => sum + n, 0);
  // No access line at all (a server whose access log the harness does not follow, or one that logs none of these
  // requests) is no multiple either: 0 lines for n answers would mark every slot with a line that is not there.
  if (answered === 0 || logged.length === 0 || logged.length % answered !== 0) return null;
  const perRequest = logged.length / answered;
  let next = 0;
  return slots.map((slot, index) => {
    const sent = units[index] ?? 0;
    if (sent === 0) return slot;
    next += sent - 1;
    const line = logged[next++ * perRequest]!;
    return { ...slot, loggedAt: line.arrivedAt, ...(line.order === undefined ? {} : { loggedOrder: line.order }) };
  });
}
