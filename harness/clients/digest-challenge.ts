// curl --digest sends a request without credentials first, and with -i writes the head of the server's answer to
// it (a 401 with `WWW-Authenticate: Digest`) before the answer to its retry; the challenge's body it skips. The
// request's outcome is the retry's answer, so that head is dropped: held back until the bytes after it show
// another response ("HTTP/"), or passed on whole when they do not (curl did not retry: the 401 is the answer).
const HEAD_END = Buffer.from("\r\n\r\n", "latin1");
/** More than any head: past this without a head's end the bytes are no challenge head and go on as they are. */
const HOLD_LIMIT = 64 * 1024;

export class DigestChallengeFilter {
  #held: Buffer[] = [];
  #heldBytes = 0;
  #decided = false;
  /** Whether a challenge's head was dropped: the server logged two requests for this one. */
  dropped = false;

  /** The bytes to pass on now (none while the answer is undecided). */
  push(chunk: Buffer): Buffer[] {
    if (this.#decided) return [chunk];
    this.#held.push(Buffer.from(chunk));
    this.#heldBytes += chunk.length;
    const all = Buffer.concat(this.#held, this.#heldBytes);
    const end = all.indexOf(HEAD_END);
    if (end === -1) return this.#heldBytes > HOLD_LIMIT ? this.#release(all) : [];
    const head = all.toString("latin1", 0, end);
    const challenge = /^HTTP\/\d(?:\.\d)? 401\b/.test(head) && /^WWW-Authenticate:[ \t]*Digest\b/im.test(head);
    if (!challenge) return this.#release(all);
    const rest = all.subarray(end + HEAD_END.length);
    if (rest.length < 5) return [];
    const retried = rest.toString("latin1", 0, 5) === "HTTP/";
    this.dropped = retried;
    return this.#release(retried ? rest : all);
  }

  /** The stream ended: whatever is held is the answer. */
  finish(): Buffer[] {
    if (this.#decided) return [];
    return this.#release(Buffer.concat(this.#held, this.#heldBytes));
  }

  #release(bytes: Buffer): Buffer[] {
    this.#decided = true;
    this.#held = [];
    this.#heldBytes = 0;
    return bytes.length > 0 ? [bytes] : [];
  }
}
