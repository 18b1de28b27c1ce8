import { StringDecoder } from "node:string_decoder";
import { Writable } from "node:stream";

/** Lines a route sends elsewhere: those `test` picks go to `to`. */
export interface LineTest {
  test: (line: string) => boolean;
  to: LineStream;
}

/** Collects a byte stream as lines and lets callers wait for lines to arrive. Docker delivers log chunks that
 * are not split at line ends; this joins and splits them. */
export class LineStream {
  readonly lines: string[] = [];
  /** When each line arrived (Date.now()), by index: a batch of requests sent in one exec tells its requests'
   * log lines apart by it (observe/batch-attribution.ts). */
  readonly arrivals: number[] = [];
  /** For a stream fed by another's tagged route (routeTagged), each line's place among all the lines that one
   * routed, by index: lines from one source keep their order across the streams it feeds. Empty otherwise. */
  readonly orders: number[] = [];
  /** How many lines this stream has routed. */
  private routed = 0;
  private partial = "";
  /** Pieces of the unfinished line that came after `partial`. */
  private readonly pending: string[] = [];
  // Chunks can split a multi-byte character; the decoder holds its first bytes until the rest arrives.
  private readonly decoder = new StringDecoder("utf8");
  private ended = false;
  private lastLineAt = Date.now();
  private readonly waiters = new Set<() => void>();
  /** Lines that start with a tag go to another stream, without the tag (routeTagged). */
  private readonly routes: Array<{ tag: string; to: LineStream; unless?: LineTest }> = [];

  readonly sink = new Writable({
    write: (chunk: Buffer, _encoding, callback) => {
      this.push(this.decoder.write(chunk));
      callback();
    },
    final: (callback) => {
      this.push(this.decoder.end());
      this.end();
      callback();
    },
  });

  push(text: string): void {
    // A long line arrives in many chunks: keep its pieces apart until its end, so that each chunk is not
    // joined to all the line before it (quadratic in the line's length).
    if (!text.includes("\n")) {
      if (text.length > 0) this.pending.push(text);
      return;
    }
    if (this.pending.length > 0) {
      this.partial += this.pending.join("");
      this.pending.length = 0;
    }
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop() ?? "";
    const now = Date.now();
    let own = 0;
    for (const part of parts) if (this.take(part.replace(/\r$/, ""), now)) own++;
    if (own > 0) {
      this.lastLineAt = Date.now();
      this.wake();
    }
  }

  /** From now on, lines that start with `tag` go to `to` (without the tag), with the time they arrived here; `to`
   * ends when this stream does. Several writers share a container's stream: a server's start script tags the lines
   * of the log files it follows, so that they reach their own streams apart from httpd's own output. With `unless`,
   * the lines its test picks go to its stream instead (a merged log's unbracketed lines that are no access line);
   * the order counter is shared, so the streams keep their lines' order among each other. */
  routeTagged(tag: string, to: LineStream, unless?: LineTest): void {
    this.routes.push({ tag, to, ...(unless ? { unless } : {}) });
  }

  /** Keeps a line, or hands it to its route; true when kept. */
  private take(line: string, at: number): boolean {
    const route = this.routes.length > 0 ? this.routes.find((r) => line.startsWith(r.tag)) : undefined;
    if (route) {
      const text = line.slice(route.tag.length);
      const to = route.unless?.test(text) === true ? route.unless.to : route.to;
      to.accept(text, at, this.routed++);
      return false;
    }
    this.lines.push(line);
    this.arrivals.push(at);
    return true;
  }

  private accept(line: string, at: number, order: number): void {
    this.lines.push(line);
    this.arrivals.push(at);
    this.orders.push(order);
    this.lastLineAt = at;
    this.wake();
  }

  end(): void {
    this.partial += this.pending.join("");
    this.pending.length = 0;
    if (this.partial) this.take(this.partial, Date.now());
    this.partial = "";
    this.ended = true;
    this.wake();
    for (const route of this.routes) {
      route.to.end();
      route.unless?.to.end();
    }
  }

  get isEnded(): boolean {
    return this.ended;
  }

  get count(): number {
    return this.lines.length;
  }

  since(index: number): string[] {
    return this.lines.slice(index);
  }

  /** Resolves with the index of the first line from `from` on that matches, or -1 on timeout or end. */
  async waitForLine(predicate: (line: string) => boolean, options: { from?: number; timeoutMs: number }): Promise<number> {
    const deadline = Date.now() + options.timeoutMs;
    let next = options.from ?? 0;
    for (;;) {
      for (; next < this.lines.length; next++) if (predicate(this.lines[next]!)) return next;
      if (this.ended || Date.now() >= deadline) return -1;
      await this.nextChange(deadline - Date.now());
    }
  }

  /** Waits until no line has arrived for `quietMs`, counted from `from` (default: now) or from the last line
   * after it, whichever is later; bounded by `maxMs`. Counting from the caller's moment matters: a stream
   * that was idle before a request must still be watched for the request's own late lines. */
  async waitForQuiet(quietMs: number, maxMs: number, from: number = Date.now()): Promise<void> {
    const deadline = Date.now() + maxMs;
    while (!this.ended && Date.now() < deadline) {
      const idle = Date.now() - Math.max(this.lastLineAt, from);
      if (idle >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs - idle, deadline - Date.now())));
    }
  }

  private nextChange(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      this.waiters.add(done);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
