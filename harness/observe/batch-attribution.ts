// Pure: which of a batch's requests each error-log line belongs to. The requests of a batch (clients/
// client-batch.ts) run one after another in one exec, `gapMs` apart, so a single send's way (lines since a mark,
// once its access line came and the log went quiet) sees them all at once. A line is placed by:
//   1. the client port in 2.4's `[client 10.77.1.5:43210]`, when it is one of the batch's connections: exact;
//   2. else when it arrived: a request's lines are written before its answer ends, and its record arrives just
//      after that, on a stream as fast as the log's; the next request starts `gapMs` later. So a line belongs to
//      the first request whose record arrived no earlier than `gapMs / 2` before it (2.2's lines, which carry
//      neither a port nor sub-second times, and 2.4's lines without a client).
// Lines past the last record's window belong to the last request (its late lines, as a single send keeps them).

export interface BatchLine {
  text: string;
  /** Date.now() when it arrived. */
  arrivedAt: number;
}

export interface BatchSlot {
  /** null: the request never connected, or was skipped. */
  localPort: number | null;
  receivedAt: number;
  /** A skipped request has no lines. */
  skipped: boolean;
}

const CLIENT_PORT = /\[client \S+:(\d+)\]/;

export function attributeBatchLines(lines: readonly BatchLine[], slots: readonly BatchSlot[], gapMs: number): string[][] {
  const result = slots.map((): string[] => []);
  const live = slots.map((slot, index) => ({ slot, index })).filter(({ slot }) => !slot.skipped);
  if (live.length === 0) return result;
  const byPort = new Map<number, number>();
  for (const { slot, index } of live) if (slot.localPort !== null) byPort.set(slot.localPort, index);
  for (const line of lines) {
    const port = CLIENT_PORT.exec(line.text)?.[1];
    const exact = port === undefined ? undefined : byPort.get(Number(port));
    if (exact !== undefined) {
      result[exact]!.push(line.text);
      continue;
    }
    const owner = live.find(({ slot }) => line.arrivedAt <= slot.receivedAt + gapMs / 2) ?? live.at(-1)!;
    result[owner.index]!.push(line.text);
  }
  return result;
}
