// A header line of a length-prefixed stream (the exec agent's frames, a request batch's records), read across
// the chunks it arrives in.
export class PendingLine {
  #parts: Buffer[] = [];

  /** Reads `chunk` from `from` up to a newline: the whole line (latin1) and where the byte after it is; null when the
   * chunk ended first (what it held is kept for the next chunk). */
  take(chunk: Buffer, from: number): { line: string; next: number } | null {
    const newline = chunk.indexOf(0x0a, from);
    this.#parts.push(Buffer.from(chunk.subarray(from, newline === -1 ? chunk.length : newline)));
    if (newline === -1) return null;
    const line = Buffer.concat(this.#parts).toString("latin1");
    this.#parts = [];
    return { line, next: newline + 1 };
  }

  /** Whether no part of a line is waiting. */
  get empty(): boolean {
    return this.#parts.length === 0;
  }
}
