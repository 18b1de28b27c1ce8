// Pieces both senders use to turn what came off a socket into an outcome (outcome.ts).
import { createHash, type Hash } from "node:crypto";
import type { HttpResponseOutcome, TransportFailureOutcome } from "./outcome.ts";
import { BODY_TEXT_LIMIT } from "./http-request.ts";
import { DigestChallengeFilter } from "./digest-challenge.ts";
import { ResponseParser } from "./response-parser.ts";

/** Hash input is gathered up to this size: a chunked body comes in pieces of a few KiB (mod_include's 8000
 * bytes), and each update() has a fixed cost that, per piece, made hashing cost more than the transfer. */
const HASH_STAGE_BYTES = 64 * 1024;

/** Collects a response body: keeps the first BODY_TEXT_LIMIT bytes, counts and hashes all of them. */
export class BodyCollector {
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #bytes = 0;
  readonly #hash: Hash = createHash("sha256");
  readonly #stage = Buffer.allocUnsafe(HASH_STAGE_BYTES);
  #staged = 0;

  push(chunk: Buffer): void {
    this.#bytes += chunk.length;
    if (chunk.length >= HASH_STAGE_BYTES / 2) {
      this.#flush();
      this.#hash.update(chunk);
    } else {
      if (this.#staged + chunk.length > HASH_STAGE_BYTES) this.#flush();
      chunk.copy(this.#stage, this.#staged);
      this.#staged += chunk.length;
    }
    if (this.#keptBytes < BODY_TEXT_LIMIT) {
      // A copy: a view would keep the whole chunk (a socket read, an exec frame) alive with it.
      const part = Buffer.from(chunk.subarray(0, BODY_TEXT_LIMIT - this.#keptBytes));
      this.#kept.push(part);
      this.#keptBytes += part.length;
    }
  }

  get bytes(): number {
    return this.#bytes;
  }

  finish(): Pick<HttpResponseOutcome, "body" | "bodyBytes" | "bodySha256"> {
    this.#flush();
    const kept = Buffer.concat(this.#kept, this.#keptBytes);
    return { body: bodyText(kept, this.#bytes > kept.length), bodyBytes: this.#bytes, bodySha256: this.#hash.digest("hex") };
  }

  #flush(): void {
    if (this.#staged === 0) return;
    this.#hash.update(this.#stage.subarray(0, this.#staged));
    this.#staged = 0;
  }
}

/** The first bytes of a response kept to show in a message (preview() shows 120 and marks more). */
export const SHOWN_BYTES = 256;

/** One response read from a stream (a socket, an exec's stdout): parsed as bytes arrive, the body to a
 * collector, the first bytes kept for messages. Nothing else of it is held. */
export class StreamedResponse {
  readonly body = new BodyCollector();
  readonly parser: ResponseParser;
  received = 0;
  readonly #first: Buffer[] = [];
  #firstBytes = 0;
  /** For a Digest request: the challenge's head curl writes before its retry's answer is dropped. */
  readonly #challenge: DigestChallengeFilter | null;

  constructor(requestMethod: string, options: { digest?: boolean } = {}) {
    this.parser = new ResponseParser({ requestMethod, onBody: (chunk) => this.body.push(chunk) });
    this.#challenge = options.digest === true ? new DigestChallengeFilter() : null;
  }

  push(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.#challenge === null) this.#take(chunk);
    else for (const part of this.#challenge.push(chunk)) this.#take(part);
  }

  /** The stream ended: a body without length ends here. */
  finish(): void {
    if (this.#challenge !== null) for (const part of this.#challenge.finish()) this.#take(part);
    this.parser.finish();
  }

  #take(chunk: Buffer): void {
    if (this.#firstBytes < SHOWN_BYTES) {
      const part = Buffer.from(chunk.subarray(0, SHOWN_BYTES - this.#firstBytes));
      this.#first.push(part);
      this.#firstBytes += part.length;
    }
    this.parser.push(chunk);
  }

  /** Whether a Digest challenge came before the answer (the request went twice). */
  get challenged(): boolean {
    return this.#challenge?.dropped ?? false;
  }

  /** The first bytes received (up to SHOWN_BYTES), for messages. */
  first(): Buffer {
    return Buffer.concat(this.#first, this.#firstBytes);
  }
}

/** UTF-8 when the bytes are valid UTF-8 (a sequence cut by the limit is tolerated and dropped), else latin1 so
 * that every byte survives as one character. */
export function bodyText(bytes: Buffer, cut: boolean): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes, { stream: cut });
  } catch {
    return bytes.toString("latin1");
  }
}

/** A stable code for an error that came from a socket, TLS or a parser: Node's `code` (ECONNRESET, EPROTO,
 * ERR_SSL_...), undici's (UND_ERR_SOCKET, HPE_...), else the error's name. */
export function errorCodeOf(error: unknown): string {
  if (error && typeof error === "object") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code.length > 0) return code;
    const cause = (error as { cause?: unknown }).cause;
    if (cause && typeof cause === "object") {
      const causeCode = (cause as { code?: unknown }).code;
      if (typeof causeCode === "string" && causeCode.length > 0) return causeCode;
    }
    const name = (error as { name?: unknown }).name;
    if (typeof name === "string" && name.length > 0 && name !== "Error") return name;
  }
  return "UNKNOWN";
}

export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

export function transportFailure(code: string, message: string, startedAt: number): TransportFailureOutcome {
  return { kind: "transport-error", code, message, durationMs: elapsedSince(startedAt) };
}

/** Milliseconds since a `performance.now()` reading, to 0.1 ms. */
export function elapsedSince(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 10) / 10;
}

/** A short printable view of bytes for messages: latin1, control characters escaped. */
export function preview(bytes: Buffer, max = 120): string {
  const text = bytes
    .subarray(0, max)
    .toString("latin1")
    .replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => (c === "\r" ? "\\r" : c === "\n" ? "\\n" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`));
  return bytes.length > max ? `${text}…` : text;
}

/** The overall deadline of one exchange: `expired` flips once, `promise` resolves then. */
export class Deadline {
  expired = false;
  readonly promise: Promise<void>;
  readonly #timer: NodeJS.Timeout;

  constructor(timeoutMs: number) {
    let fire!: () => void;
    this.promise = new Promise<void>((resolve) => {
      fire = resolve;
    });
    this.#timer = setTimeout(() => {
      this.expired = true;
      fire();
    }, timeoutMs);
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}
