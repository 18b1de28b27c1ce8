// An exec's or an attach's multiplexed output (no TTY) as stdout and stderr bytes.
/**
 * Splits an exec's multiplexed stream (8-byte frame headers: stream type, then the payload's length) into
 * stdout and stderr as bytes arrive, without joining frames: a payload is handed on in the pieces it came in.
 * (docker-modem's demuxStream joins each frame into one buffer, copying what it has so far on every read.)
 */
export class ExecDemuxer {
  readonly #header = Buffer.alloc(8);
  #headerBytes = 0;
  #stream = 0;
  #remaining = 0;

  constructor(
    private readonly onStdout: (chunk: Buffer) => void,
    private readonly onStderr: (chunk: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.#remaining === 0) {
        const take = Math.min(8 - this.#headerBytes, chunk.length - i);
        chunk.copy(this.#header, this.#headerBytes, i, i + take);
        this.#headerBytes += take;
        i += take;
        if (this.#headerBytes === 8) {
          this.#headerBytes = 0;
          this.#stream = this.#header[0]!;
          this.#remaining = this.#header.readUInt32BE(4);
        }
        continue;
      }
      const take = Math.min(this.#remaining, chunk.length - i);
      const part = chunk.subarray(i, i + take);
      if (this.#stream === 2) this.onStderr(part);
      else this.onStdout(part);
      this.#remaining -= take;
      i += take;
    }
  }
}
