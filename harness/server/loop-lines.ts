// Pure: a server host's stdout carries two writers while a config runs: the config's own (httpd's stdout, where a
// config logs there) and the host's loop, which answers a command sent during the run (server-host.ts, `l`) with
// lines of its own, each begun with one prefix and written whole by one write. LoopLines takes the loop's lines out
// and passes everything else on byte for byte, as it comes: a line is held back only while its first bytes could
// still be the prefix.

export class LoopLines {
  readonly #prefix: Buffer;
  /** The start of a line that may still turn out to be the loop's. */
  #held: Buffer[] = [];
  #heldBytes = 0;
  /** Inside a line that is not the loop's: passed on up to its newline. */
  #passing = false;

  constructor(
    prefix: string,
    private readonly onLine: (line: string) => void,
  ) {
    this.#prefix = Buffer.from(prefix, "utf8");
  }

  /** Reads a chunk; returns what of it (and of what was held) is not the loop's, in order. */
  push(chunk: Buffer): Buffer {
    const out: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      const newline = chunk.indexOf(0x0a, i);
      const end = newline < 0 ? chunk.length : newline;
      if (this.#passing) {
        out.push(chunk.subarray(i, newline < 0 ? end : end + 1));
        this.#passing = newline < 0;
        i = newline < 0 ? end : end + 1;
        continue;
      }
      // At a line's start (with what was held of it).
      const piece = chunk.subarray(i, end);
      const seen = this.#heldBytes + piece.length;
      const compared = Math.min(seen, this.#prefix.length);
      const start = this.#held.length === 0 ? piece : Buffer.concat([...this.#held, piece]);
      if (!start.subarray(0, compared).equals(this.#prefix.subarray(0, compared))) {
        // Not the loop's: pass on what was held and the rest of the line.
        out.push(...this.#held, chunk.subarray(i, newline < 0 ? end : end + 1));
        this.#held = [];
        this.#heldBytes = 0;
        this.#passing = newline < 0;
        i = newline < 0 ? end : end + 1;
        continue;
      }
      if (newline < 0) {
        // Could still be the loop's: held until its newline, or until it differs from the prefix.
        this.#held.push(Buffer.from(piece));
        this.#heldBytes += piece.length;
        i = end;
        continue;
      }
      this.#held = [];
      this.#heldBytes = 0;
      i = end + 1;
      if (seen >= this.#prefix.length) this.onLine(start.toString("utf8"));
      // A whole line shorter than the prefix that begins like it ("@@"): not the loop's.
      else out.push(start, Buffer.from("\n"));
    }
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  /** The stream ended: what was held back is not the loop's (it never ended its line). */
  end(): Buffer {
    const held = Buffer.concat(this.#held);
    this.#held = [];
    this.#heldBytes = 0;
    return held;
  }
}
