// An incremental HTTP/1.x response parser: bytes are pushed as they arrive (from a socket, from an exec's
// stdout) and each byte is looked at once. The head (status line, headers) is read line by line; the body is
// handed to `onBody` as it comes, de-chunked, and never kept here. What the parser holds is one unfinished
// line at most (bounded by MAX_HEAD_BYTES), so memory does not grow with the body and time is linear in it.
//
// Framing and error codes are those of `scanRawResponse` (parse-raw-response.ts), which is built on this class:
// 1xx interim heads skipped (not 101), no body for HEAD / 204 / 304 / a 2xx to CONNECT, Transfer-Encoding whose
// last coding is chunked, else Content-Length, else the body runs to the server's close.

const CR = 0x0d;
const LF = 0x0a;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
export const MAX_HEAD_BYTES = 256 * 1024;
/** How many bytes from an error's offset are kept to show in a message. */
const PREVIEW_BYTES = 256;

export interface ResponseHead {
  status: number;
  /** "1.1", "1.0" (without "HTTP/"). */
  httpVersion: string;
  reason: string;
  /** In the order received, names as sent, duplicates kept, values with surrounding blanks removed. */
  headers: Array<[string, string]>;
  /** Statuses of the 1xx interim responses skipped before this one (100 Continue, 102, 103 ...). */
  interim: number[];
}

export interface ResponseParseError {
  code: string;
  reason: string;
  /** Offset of the offending bytes from the first byte pushed. */
  offset: number;
  /** Up to PREVIEW_BYTES bytes from `offset` on, as far as they were at hand. */
  bytes: Buffer;
}

export interface ResponseParserOptions {
  /** The request's method: the answer to HEAD (and a 2xx to CONNECT) has no body whatever its headers say.
   * Default GET. */
  requestMethod?: string;
  /** Receives the body, de-chunked, in order. The buffers may be views of pushed chunks: copy to keep. */
  onBody?: (chunk: Buffer) => void;
}

type Phase =
  | "start"
  | "status"
  | "headers"
  | "length"
  | "chunk-size"
  | "chunk-data"
  | "chunk-end"
  | "chunk-end-lf"
  | "trailers"
  | "close"
  | "done"
  | "invalid";

class Invalid {
  constructor(
    readonly code: string,
    readonly reason: string,
    readonly offset: number,
    readonly bytes: Buffer,
  ) {}
}

export class ResponseParser {
  readonly #method: string;
  readonly #onBody: (chunk: Buffer) => void;
  #phase: Phase = "start";
  /** Bytes consumed so far: the offset of the next byte. */
  #offset = 0;
  /** Where the current head began (before any blank lines), for the head size limit and framing errors. */
  #headStart = 0;
  /** The first bytes of the current head, to show with a framing error. */
  #headPreview: Buffer[] = [];
  #headPreviewBytes = 0;
  /** The offset up to which bytes were offered to the head preview. */
  #headPreviewTo = 0;
  /** The unfinished line (status, header, chunk size, trailer), as copies. */
  #lineParts: Buffer[] = [];
  #lineBytes = 0;
  #lineStart = 0;
  #status: { status: number; httpVersion: string; reason: string } | null = null;
  #headers: Array<[string, string]> = [];
  readonly #interim: number[] = [];
  #remaining = 0;
  #trailerBytes = 0;
  #head: ResponseHead | null = null;
  #error: ResponseParseError | null = null;
  #end: number | null = null;
  #bodyBytes = 0;
  /** Bytes looked at by the parser, for tests: each pushed byte is looked at once at most. */
  examined = 0;

  constructor(options: ResponseParserOptions = {}) {
    this.#method = (options.requestMethod ?? "GET").toUpperCase();
    this.#onBody = options.onBody ?? (() => undefined);
  }

  /** The final response's head, once read. */
  get head(): ResponseHead | null {
    return this.#head;
  }

  get error(): ResponseParseError | null {
    return this.#error;
  }

  get complete(): boolean {
    return this.#phase === "done";
  }

  /** The offset just after the response, once complete (bytes after it belong to no request). */
  get end(): number | null {
    return this.#end;
  }

  get bodyBytes(): number {
    return this.#bodyBytes;
  }

  /** Bytes held in the parser (an unfinished line): bounded by MAX_HEAD_BYTES whatever the body's size. */
  get bufferedBytes(): number {
    return this.#lineBytes + this.#headPreviewBytes;
  }

  /** Looking again is pointless before this many bytes were pushed in all; null when unknown. */
  get needBytes(): number | null {
    switch (this.#phase) {
      case "length":
        return this.#offset + this.#remaining;
      case "chunk-data":
        return this.#offset + this.#remaining + 1;
      case "chunk-end":
      case "chunk-end-lf":
        return this.#offset + 1;
      default:
        return null;
    }
  }

  /** Consumes a chunk. After the response is complete or invalid, further bytes are ignored. */
  push(chunk: Buffer): void {
    if (this.#phase === "done" || this.#phase === "invalid") return;
    try {
      this.#consume(chunk);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      this.#phase = "invalid";
      this.#error = { code: error.code, reason: error.reason, offset: error.offset, bytes: error.bytes };
      this.#lineParts = [];
      this.#lineBytes = 0;
    }
  }

  /** The server closed cleanly: a body without length ends here. */
  finish(): void {
    if (this.#phase === "close") this.#complete();
  }

  #consume(chunk: Buffer): void {
    const base = this.#offset;
    let i = 0;
    const at = () => base + i;
    while (i < chunk.length) {
      switch (this.#phase) {
        case "start": {
          this.#keepHeadPreview(chunk, base, i);
          const from = i;
          while (i < chunk.length && (chunk[i] === CR || chunk[i] === LF)) i++;
          this.examined += i - from;
          this.#offset = at();
          if (i < chunk.length) {
            this.#phase = "status";
            this.#lineStart = at();
          }
          break;
        }
        case "status":
        case "headers":
        case "chunk-size":
        case "trailers": {
          if (this.#phase === "status" || this.#phase === "headers") this.#keepHeadPreview(chunk, base, i);
          const line = this.#takeLine(chunk, i);
          if (line === null) {
            i = chunk.length;
            this.#offset = at();
            this.#checkUnfinishedLine();
            break;
          }
          i = line.next;
          this.#offset = at();
          const lineStart = this.#lineStart;
          this.#lineStart = at();
          this.#onLine(line.text, lineStart, line.raw, chunk.subarray(i, i + PREVIEW_BYTES));
          break;
        }
        case "length":
        case "chunk-data":
        case "close": {
          const take = this.#phase === "close" ? chunk.length - i : Math.min(this.#remaining, chunk.length - i);
          if (take > 0) {
            this.#body(chunk.subarray(i, i + take));
            i += take;
            this.examined += take;
            this.#offset = at();
          }
          if (this.#phase === "close") break;
          this.#remaining -= take;
          if (this.#remaining === 0) {
            if (this.#phase === "length") this.#complete();
            else this.#phase = "chunk-end";
          }
          break;
        }
        case "chunk-end": {
          const byte = chunk[i];
          this.examined += 1;
          if (byte === CR) this.#phase = "chunk-end-lf";
          else if (byte === LF) this.#startLine("chunk-size", at() + 1);
          else throw new Invalid("HPE_INVALID_CHUNK_SIZE", "chunk data not followed by CRLF", at(), chunk.subarray(i, i + PREVIEW_BYTES));
          i += 1;
          this.#offset = at();
          break;
        }
        case "chunk-end-lf": {
          this.examined += 1;
          if (chunk[i] !== LF) {
            throw new Invalid("HPE_INVALID_CHUNK_SIZE", "chunk data not followed by CRLF", at() - 1, Buffer.concat([Buffer.from([CR]), chunk.subarray(i, i + PREVIEW_BYTES)]));
          }
          i += 1;
          this.#offset = at();
          this.#startLine("chunk-size", at());
          break;
        }
        case "done":
        case "invalid":
          return;
      }
    }
  }

  /** The line ending in LF from chunk[i] on, joined to what was kept of it; null (and kept) when no LF yet. */
  #takeLine(chunk: Buffer, i: number): { text: string; raw: Buffer; next: number } | null {
    const lf = chunk.indexOf(LF, i);
    if (lf === -1) {
      this.examined += chunk.length - i;
      if (i < chunk.length) {
        this.#lineParts.push(Buffer.from(chunk.subarray(i)));
        this.#lineBytes += chunk.length - i;
      }
      return null;
    }
    this.examined += lf + 1 - i;
    const raw = this.#lineParts.length === 0 ? chunk.subarray(i, lf + 1) : Buffer.concat([...this.#lineParts, chunk.subarray(i, lf + 1)]);
    this.#lineParts = [];
    this.#lineBytes = 0;
    const end = raw.length >= 2 && raw[raw.length - 2] === CR ? raw.length - 2 : raw.length - 1;
    return { text: raw.toString("latin1", 0, end), raw, next: lf + 1 };
  }

  #unfinishedLine(): Buffer {
    return Buffer.concat(this.#lineParts, this.#lineBytes);
  }

  /** Limits on a line without its LF yet: a status line must start like one; nothing grows without bound. */
  #checkUnfinishedLine(): void {
    switch (this.#phase) {
      case "status": {
        const seen = this.#lineParts.length === 0 ? "" : Buffer.concat(this.#lineParts).toString("latin1", 0, 5);
        if (!"HTTP/".startsWith(seen)) {
          throw new Invalid("HPE_INVALID_CONSTANT", "the answer does not start with HTTP/", this.#lineStart, this.#unfinishedLine().subarray(0, PREVIEW_BYTES));
        }
        if (this.#lineBytes > MAX_HEAD_BYTES) throw new Invalid("HPE_HEADER_OVERFLOW", "status line too long", this.#lineStart, this.#unfinishedLine().subarray(0, PREVIEW_BYTES));
        return;
      }
      case "headers":
        if (this.#offset - this.#headStart > MAX_HEAD_BYTES) {
          throw new Invalid("HPE_HEADER_OVERFLOW", "header section too long", this.#headStart, this.#headPreviewBuffer());
        }
        return;
      case "chunk-size":
        if (this.#lineBytes > MAX_HEAD_BYTES) {
          throw new Invalid("HPE_INVALID_CHUNK_SIZE", "chunk size line too long", this.#lineStart, this.#unfinishedLine().subarray(0, PREVIEW_BYTES));
        }
        return;
      case "trailers":
        if (this.#trailerBytes + this.#lineBytes > MAX_HEAD_BYTES) {
          throw new Invalid("HPE_HEADER_OVERFLOW", "trailer section too long", this.#lineStart, this.#unfinishedLine().subarray(0, PREVIEW_BYTES));
        }
        return;
      default:
        return;
    }
  }

  #onLine(line: string, lineStart: number, raw: Buffer, after: Buffer): void {
    const shown = () => Buffer.concat([raw, after]).subarray(0, PREVIEW_BYTES);
    switch (this.#phase) {
      case "status": {
        if (!line.startsWith("HTTP/")) throw new Invalid("HPE_INVALID_CONSTANT", "the answer does not start with HTTP/", lineStart, shown());
        const statusLine = /^HTTP\/(\d)\.(\d) (.*)$/.exec(line);
        if (!statusLine) throw new Invalid("HPE_INVALID_VERSION", `invalid status line ${JSON.stringify(line.slice(0, 80))}`, lineStart, shown());
        const statusMatch = /^(\d{3})(?: (.*))?$/.exec(statusLine[3] ?? "");
        if (!statusMatch) throw new Invalid("HPE_INVALID_STATUS", `invalid status in ${JSON.stringify(line.slice(0, 80))}`, lineStart, shown());
        this.#status = { status: Number(statusMatch[1]), httpVersion: `${statusLine[1]}.${statusLine[2]}`, reason: statusMatch[2] ?? "" };
        this.#headers = [];
        this.#phase = "headers";
        return;
      }
      case "headers": {
        if (line.length === 0) {
          this.#onHeadEnd();
          return;
        }
        if (this.#offset - this.#headStart > MAX_HEAD_BYTES) {
          throw new Invalid("HPE_HEADER_OVERFLOW", "header section too long", this.#headStart, this.#headPreviewBuffer());
        }
        if (line.startsWith(" ") || line.startsWith("\t")) {
          // obs-fold: a continuation of the previous header's value.
          const previous = this.#headers.at(-1);
          if (!previous) throw new Invalid("HPE_INVALID_HEADER_TOKEN", "continuation line before any header", lineStart, shown());
          previous[1] = `${previous[1]} ${line.trim()}`.trim();
        } else {
          const colon = line.indexOf(":");
          const name = colon === -1 ? line : line.slice(0, colon);
          if (colon === -1 || !TOKEN.test(name)) {
            throw new Invalid("HPE_INVALID_HEADER_TOKEN", `invalid header line ${JSON.stringify(line.slice(0, 80))}`, lineStart, shown());
          }
          this.#headers.push([name, line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "")]);
        }
        return;
      }
      case "chunk-size": {
        const sizeText = (line.split(";")[0] ?? "").trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(sizeText)) {
          throw new Invalid("HPE_INVALID_CHUNK_SIZE", `invalid chunk size line ${JSON.stringify(line.slice(0, 40))}`, lineStart, shown());
        }
        const size = Number.parseInt(sizeText, 16);
        if (size === 0) {
          this.#trailerBytes = 0;
          this.#phase = "trailers";
        } else {
          this.#remaining = size;
          this.#phase = "chunk-data";
        }
        return;
      }
      case "trailers":
        // Trailers are read up to the empty line and not kept.
        this.#trailerBytes += raw.length;
        if (line.length === 0) this.#complete();
        else if (this.#trailerBytes > MAX_HEAD_BYTES) throw new Invalid("HPE_HEADER_OVERFLOW", "trailer section too long", lineStart, shown());
        return;
      default:
        return;
    }
  }

  #onHeadEnd(): void {
    const status = this.#status!;
    if (status.status >= 100 && status.status < 200 && status.status !== 101) {
      this.#interim.push(status.status);
      this.#status = null;
      this.#headers = [];
      this.#headStart = this.#offset;
      this.#headPreview = [];
      this.#headPreviewBytes = 0;
      this.#headPreviewTo = this.#offset;
      this.#phase = "start";
      return;
    }
    const head: ResponseHead = { ...status, headers: this.#headers, interim: this.#interim };
    const framing = this.#framing(head);
    this.#head = head;
    this.#headPreview = [];
    this.#headPreviewBytes = 0;
    switch (framing.kind) {
      case "none":
        this.#complete();
        return;
      case "length":
        this.#remaining = framing.length;
        this.#phase = "length";
        if (framing.length === 0) this.#complete();
        return;
      case "chunked":
        this.#startLine("chunk-size", this.#offset);
        return;
      case "close":
        this.#phase = "close";
        return;
    }
  }

  #framing(head: ResponseHead): { kind: "none" } | { kind: "length"; length: number } | { kind: "chunked" } | { kind: "close" } {
    const method = this.#method;
    if (method === "HEAD" || head.status < 200 || head.status === 204 || head.status === 304) return { kind: "none" };
    // A 2xx to CONNECT starts a tunnel: what follows is not a body.
    if (method === "CONNECT" && head.status < 300) return { kind: "none" };
    const values = (name: string) => head.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
    const transferEncoding = values("transfer-encoding");
    if (transferEncoding.length > 0) {
      const codings = transferEncoding.join(",").split(",").map((c) => c.trim().toLowerCase()).filter((c) => c.length > 0);
      return codings.at(-1) === "chunked" ? { kind: "chunked" } : { kind: "close" };
    }
    const lengths = values("content-length").flatMap((v) => v.split(",").map((part) => part.trim()));
    if (lengths.length === 0) return { kind: "close" };
    for (const length of lengths) {
      if (!/^\d{1,15}$/.test(length)) {
        throw new Invalid("HPE_INVALID_CONTENT_LENGTH", `invalid Content-Length ${JSON.stringify(length)}`, this.#headStart, this.#headPreviewBuffer());
      }
    }
    if (new Set(lengths.map(Number)).size > 1) {
      throw new Invalid("HPE_UNEXPECTED_CONTENT_LENGTH", `conflicting Content-Length values ${lengths.join(", ")}`, this.#headStart, this.#headPreviewBuffer());
    }
    return { kind: "length", length: Number(lengths[0]) };
  }

  #startLine(phase: "chunk-size", start: number): void {
    this.#phase = phase;
    this.#lineStart = start;
  }

  #body(chunk: Buffer): void {
    this.#bodyBytes += chunk.length;
    this.#onBody(chunk);
  }

  #complete(): void {
    this.#phase = "done";
    this.#end = this.#offset;
  }

  /** Keeps the first bytes of a head (copies), to show with an error found at its end. */
  #keepHeadPreview(chunk: Buffer, base: number, i: number): void {
    const from = Math.max(i, this.#headPreviewTo - base);
    if (this.#headPreviewBytes >= PREVIEW_BYTES || from >= chunk.length) return;
    const part = Buffer.from(chunk.subarray(from, from + PREVIEW_BYTES - this.#headPreviewBytes));
    this.#headPreview.push(part);
    this.#headPreviewBytes += part.length;
    this.#headPreviewTo = base + from + part.length;
  }

  #headPreviewBuffer(): Buffer {
    return Buffer.concat(this.#headPreview, this.#headPreviewBytes);
  }
}
