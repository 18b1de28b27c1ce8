// Pure: an access log, one line at a time, as its distinct requests with how many lines each stands for, and its
// bad lines counted by kind with the first few kept to show. A line at a time so that a large log is read as a
// stream: memory grows with the distinct requests, not with the lines. Blank lines are skipped, not counted.
import type { LogFormat } from "../../logs/access-log-format.ts";
import { parseAccessLogLine } from "../../logs/access-log-line.ts";
import { type NotReplayable, replayKey, type ReplayContext, type ReplayRequest, replayRequestOf } from "./replay-request.ts";

export interface ReplayEntry {
  request: ReplayRequest;
  /** Lines of the log it stands for. */
  count: number;
  /** The first of them (1-based). */
  firstLine: number;
}

export interface BadLine {
  line: number;
  kind: NotReplayable["kind"];
  reason: string;
  /** The line, cut to a readable length. */
  text: string;
}

export interface ReplayResult {
  /** Lines read, blank ones included. */
  lines: number;
  blank: number;
  /** Lines that became a request. */
  replayed: number;
  /** Every distinct request, most lines first (the earliest first on a tie). */
  entries: ReplayEntry[];
  bad: {
    count: number;
    byKind: Array<{ kind: NotReplayable["kind"]; count: number }>;
    /** The first bad lines, in log order. */
    samples: BadLine[];
  };
}

export const BAD_LINE_SAMPLES = 10;
const SHOWN_CHARACTERS = 160;

export class ReplayCollector {
  #lines = 0;
  #blank = 0;
  #replayed = 0;
  readonly #entries = new Map<string, ReplayEntry>();
  readonly #badKinds = new Map<NotReplayable["kind"], number>();
  #bad = 0;
  readonly #samples: BadLine[] = [];

  constructor(
    private readonly format: LogFormat,
    private readonly context: ReplayContext,
    private readonly samples = BAD_LINE_SAMPLES,
  ) {}

  /** One line of the log, without its line end; `line` is its 1-based number. */
  add(line: number, text: string): void {
    this.#lines++;
    if (text.trim() === "") {
      this.#blank++;
      return;
    }
    const parsed = parseAccessLogLine(this.format, text);
    const outcome = parsed.ok ? replayRequestOf(parsed.record, this.context) : { ok: false as const, why: { kind: "format" as const, reason: parsed.reason } };
    if (!outcome.ok) {
      this.#bad++;
      this.#badKinds.set(outcome.why.kind, (this.#badKinds.get(outcome.why.kind) ?? 0) + 1);
      if (this.#samples.length < this.samples) {
        const shown = text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
        this.#samples.push({ line, kind: outcome.why.kind, reason: outcome.why.reason, text: shown });
      }
      return;
    }
    this.#replayed++;
    const key = replayKey(outcome.request);
    const entry = this.#entries.get(key);
    if (entry) entry.count++;
    else this.#entries.set(key, { request: outcome.request, count: 1, firstLine: line });
  }

  result(): ReplayResult {
    const entries = [...this.#entries.values()].sort((a, b) => b.count - a.count || a.firstLine - b.firstLine);
    const byKind = [...this.#badKinds].map(([kind, count]) => ({ kind, count })).sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
    return { lines: this.#lines, blank: this.#blank, replayed: this.#replayed, entries, bad: { count: this.#bad, byKind, samples: [...this.#samples] } };
  }
}
