// Pure HTTP/1.x byte handling shared by the raw sender and the container client: parse what a server sent
// (status line, headers in order, de-chunked body, 1xx interim answers skipped) and build the bytes of a plan's
// request for when undici cannot send it.
//
// Parse errors carry llhttp-style codes (HPE_INVALID_CONSTANT, HPE_INVALID_STATUS, HPE_INVALID_HEADER_TOKEN,
// HPE_INVALID_CONTENT_LENGTH, HPE_UNEXPECTED_CONTENT_LENGTH, HPE_INVALID_CHUNK_SIZE, HPE_HEADER_OVERFLOW) so that
// a raw-sent request and an undici-sent one fail with similar words; the classification is this parser's, not
// llhttp's.
import type { HttpRequestPlan } from "./http-request.ts";
import { basicAuthorization, defaultHostHeader } from "./http-request.ts";

export interface ParsedRawResponse {
  status: number;
  /** "1.1", "1.0" (without "HTTP/"). */
  httpVersion: string;
  reason: string;
  /** In the order received, names as sent, duplicates kept, values with surrounding blanks removed. */
  headers: Array<[string, string]>;
  /** De-chunked; trailers of a chunked body are not kept. */
  body: Buffer;
  /** false when the bytes ended before the body did (short of Content-Length, or no last chunk). */
  complete: boolean;
  /** Statuses of the 1xx interim responses skipped before this one (100 Continue, 102, 103 ...). */
  interim: number[];
}

export interface RawScanOptions {
  /** The request's method: the answer to HEAD (and a 2xx to CONNECT) has no body whatever its headers say.
   * Default GET. */
  requestMethod?: string;
  /** true: no more bytes will come (the server closed); a body without length ends here. */
  eof?: boolean;
}

export type RawScanResult =
  /** A whole response; `end` is the offset just after it (further bytes belong to no request). */
  | { state: "complete"; response: ParsedRawResponse; end: number }
  /** More bytes are needed. `partial` once the head is known; `needBytes`: scanning again is pointless before
   * the buffer holds this many bytes. */
  | { state: "incomplete"; partial: ParsedRawResponse | null; needBytes: number | null }
  | { state: "invalid"; code: string; reason: string; offset: number };

const CR = 0x0d;
const LF = 0x0a;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_HEAD_BYTES = 256 * 1024;

class Invalid {
  constructor(
    readonly code: string,
    readonly reason: string,
    readonly offset: number,
  ) {}
}

/** Reads one line ending in LF (CR before it dropped); null when no LF yet. */
function readLine(bytes: Buffer, pos: number): { line: string; next: number } | null {
  const lf = bytes.indexOf(LF, pos);
  if (lf === -1) return null;
  const end = lf > pos && bytes[lf - 1] === CR ? lf - 1 : lf;
  return { line: bytes.toString("latin1", pos, end), next: lf + 1 };
}

interface Head {
  status: number;
  httpVersion: string;
  reason: string;
  headers: Array<[string, string]>;
  bodyStart: number;
}

/** The head (status line + headers) starting at pos, or null when incomplete. */
function readHead(bytes: Buffer, start: number): Head | null {
  let pos = start;
  while (pos < bytes.length && (bytes[pos] === CR || bytes[pos] === LF)) pos++;
  const first = readLine(bytes, pos);
  if (!first) {
    const seen = bytes.toString("latin1", pos, Math.min(bytes.length, pos + 5));
    if (!"HTTP/".startsWith(seen)) throw new Invalid("HPE_INVALID_CONSTANT", "the answer does not start with HTTP/", pos);
    if (bytes.length - pos > MAX_HEAD_BYTES) throw new Invalid("HPE_HEADER_OVERFLOW", "status line too long", pos);
    return null;
  }
  if (!first.line.startsWith("HTTP/")) throw new Invalid("HPE_INVALID_CONSTANT", "the answer does not start with HTTP/", pos);
  const statusLine = /^HTTP\/(\d)\.(\d) (.*)$/.exec(first.line);
  if (!statusLine) throw new Invalid("HPE_INVALID_VERSION", `invalid status line ${JSON.stringify(first.line.slice(0, 80))}`, pos);
  const statusMatch = /^(\d{3})(?: (.*))?$/.exec(statusLine[3] ?? "");
  if (!statusMatch) throw new Invalid("HPE_INVALID_STATUS", `invalid status in ${JSON.stringify(first.line.slice(0, 80))}`, pos);
  const headers: Array<[string, string]> = [];
  pos = first.next;
  for (;;) {
    const next = readLine(bytes, pos);
    if (!next) {
      if (bytes.length - start > MAX_HEAD_BYTES) throw new Invalid("HPE_HEADER_OVERFLOW", "header section too long", start);
      return null;
    }
    const { line } = next;
    if (line.length === 0) {
      return {
        status: Number(statusMatch[1]),
        httpVersion: `${statusLine[1]}.${statusLine[2]}`,
        reason: statusMatch[2] ?? "",
        headers,
        bodyStart: next.next,
      };
    }
    if (line.startsWith(" ") || line.startsWith("\t")) {
      // obs-fold: a continuation of the previous header's value.
      const previous = headers.at(-1);
      if (!previous) throw new Invalid("HPE_INVALID_HEADER_TOKEN", "continuation line before any header", pos);
      previous[1] = `${previous[1]} ${line.trim()}`.trim();
    } else {
      const colon = line.indexOf(":");
      const name = colon === -1 ? line : line.slice(0, colon);
      if (colon === -1 || !TOKEN.test(name)) {
        throw new Invalid("HPE_INVALID_HEADER_TOKEN", `invalid header line ${JSON.stringify(line.slice(0, 80))}`, pos);
      }
      headers.push([name, line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "")]);
    }
    pos = next.next;
  }
}

type Framing = { kind: "none" } | { kind: "length"; length: number } | { kind: "chunked" } | { kind: "close" };

function framingOf(head: Head, requestMethod: string, offset: number): Framing {
  const method = requestMethod.toUpperCase();
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
    if (!/^\d{1,15}$/.test(length)) throw new Invalid("HPE_INVALID_CONTENT_LENGTH", `invalid Content-Length ${JSON.stringify(length)}`, offset);
  }
  if (new Set(lengths.map(Number)).size > 1) {
    throw new Invalid("HPE_UNEXPECTED_CONTENT_LENGTH", `conflicting Content-Length values ${lengths.join(", ")}`, offset);
  }
  return { kind: "length", length: Number(lengths[0]) };
}

/** De-chunks from pos; `end` is null while the last chunk and trailers have not all arrived. */
function readChunked(bytes: Buffer, start: number): { body: Buffer; end: number | null; needBytes: number | null } {
  const parts: Buffer[] = [];
  let pos = start;
  for (;;) {
    const sizeLine = readLine(bytes, pos);
    if (!sizeLine) return { body: Buffer.concat(parts), end: null, needBytes: null };
    const sizeText = (sizeLine.line.split(";")[0] ?? "").trim();
    if (!/^[0-9a-fA-F]{1,12}$/.test(sizeText)) {
      throw new Invalid("HPE_INVALID_CHUNK_SIZE", `invalid chunk size line ${JSON.stringify(sizeLine.line.slice(0, 40))}`, pos);
    }
    const size = Number.parseInt(sizeText, 16);
    pos = sizeLine.next;
    if (size === 0) {
      // Trailers, up to an empty line.
      for (;;) {
        const trailer = readLine(bytes, pos);
        if (!trailer) return { body: Buffer.concat(parts), end: null, needBytes: null };
        pos = trailer.next;
        if (trailer.line.length === 0) return { body: Buffer.concat(parts), end: pos, needBytes: null };
      }
    }
    if (bytes.length < pos + size) {
      parts.push(bytes.subarray(pos));
      return { body: Buffer.concat(parts), end: null, needBytes: pos + size + 1 };
    }
    parts.push(bytes.subarray(pos, pos + size));
    pos += size;
    if (bytes.length === pos) return { body: Buffer.concat(parts), end: null, needBytes: pos + 1 };
    if (bytes[pos] === CR) {
      if (bytes.length === pos + 1) return { body: Buffer.concat(parts), end: null, needBytes: pos + 2 };
      if (bytes[pos + 1] !== LF) throw new Invalid("HPE_INVALID_CHUNK_SIZE", "chunk data not followed by CRLF", pos);
      pos += 2;
    } else if (bytes[pos] === LF) {
      pos += 1;
    } else {
      throw new Invalid("HPE_INVALID_CHUNK_SIZE", "chunk data not followed by CRLF", pos);
    }
  }
}

/** Incremental view of a response in `bytes` (everything received so far on a connection for one request). */
export function scanRawResponse(bytes: Buffer, options: RawScanOptions = {}): RawScanResult {
  const requestMethod = options.requestMethod ?? "GET";
  const eof = options.eof ?? false;
  const interim: number[] = [];
  let pos = 0;
  try {
    for (;;) {
      const head = readHead(bytes, pos);
      if (!head) return { state: "incomplete", partial: null, needBytes: null };
      if (head.status >= 100 && head.status < 200 && head.status !== 101) {
        interim.push(head.status);
        pos = head.bodyStart;
        continue;
      }
      const base = { status: head.status, httpVersion: head.httpVersion, reason: head.reason, headers: head.headers, interim };
      const framing = framingOf(head, requestMethod, pos);
      const bodyStart = head.bodyStart;
      switch (framing.kind) {
        case "none":
          return { state: "complete", response: { ...base, body: Buffer.alloc(0), complete: true }, end: bodyStart };
        case "length": {
          const end = bodyStart + framing.length;
          if (bytes.length >= end) {
            return { state: "complete", response: { ...base, body: Buffer.from(bytes.subarray(bodyStart, end)), complete: true }, end };
          }
          return { state: "incomplete", partial: { ...base, body: Buffer.from(bytes.subarray(bodyStart)), complete: false }, needBytes: end };
        }
        case "chunked": {
          const chunked = readChunked(bytes, bodyStart);
          if (chunked.end !== null) return { state: "complete", response: { ...base, body: chunked.body, complete: true }, end: chunked.end };
          return { state: "incomplete", partial: { ...base, body: chunked.body, complete: false }, needBytes: chunked.needBytes };
        }
        case "close": {
          const body = Buffer.from(bytes.subarray(bodyStart));
          if (eof) return { state: "complete", response: { ...base, body, complete: true }, end: bytes.length };
          return { state: "incomplete", partial: { ...base, body, complete: false }, needBytes: null };
        }
      }
    }
  } catch (error) {
    if (error instanceof Invalid) return { state: "invalid", code: error.code, reason: error.reason, offset: error.offset };
    throw error;
  }
}

/**
 * Parses a whole answer as received up to the server's close: the final response after any 1xx interim ones.
 * null when the bytes do not start with a complete, valid response head. A body cut short is returned with
 * `complete: false`.
 */
export function parseRawResponse(bytes: Buffer, options: Omit<RawScanOptions, "eof"> = {}): ParsedRawResponse | null {
  const scan = scanRawResponse(bytes, { ...options, eof: true });
  switch (scan.state) {
    case "complete":
      return scan.response;
    case "incomplete":
      return scan.partial;
    case "invalid":
      return null;
  }
}

/**
 * The status line of the final response at the start of `bytes`, skipping 1xx interim heads; only status lines
 * and head ends are looked at, so headers this parser would refuse do not hide the version. null when the bytes
 * do not start with one.
 */
export function finalStatusLine(bytes: Buffer): { httpVersion: string; status: number } | null {
  let pos = 0;
  for (;;) {
    while (pos < bytes.length && (bytes[pos] === CR || bytes[pos] === LF)) pos++;
    const line = readLine(bytes, pos);
    if (!line) return null;
    const match = /^HTTP\/(\d)\.(\d) (\d{3})/.exec(line.line);
    if (!match) return null;
    const status = Number(match[3]);
    if (status >= 200 || status === 101) return { httpVersion: `${match[1]}.${match[2]}`, status };
    const crlf = bytes.indexOf("\r\n\r\n", pos);
    const lflf = bytes.indexOf("\n\n", pos);
    const ends = [crlf === -1 ? -1 : crlf + 4, lflf === -1 ? -1 : lflf + 2].filter((end) => end !== -1);
    if (ends.length === 0) return null;
    pos = Math.min(...ends);
  }
}

/** Whether the connection may carry another request after this response, as the server announced it. */
export function responseKeepsConnection(response: Pick<ParsedRawResponse, "httpVersion" | "headers">): boolean {
  const tokens = response.headers
    .filter(([name]) => name.toLowerCase() === "connection")
    .flatMap(([, value]) => value.toLowerCase().split(","))
    .map((token) => token.trim());
  if (tokens.includes("close")) return false;
  if (response.httpVersion === "1.0") return tokens.includes("keep-alive");
  return true;
}

/** Methods for which undici sends `content-length: 0` without a body (it compares them case-sensitively). */
const METHODS_EXPECTING_PAYLOAD = new Set(["PUT", "POST", "PATCH", "QUERY", "PROPFIND", "PROPPATCH"]);

/** Whether a request of this method and body carries a Content-Length undici would compute, and its value. */
export function computedContentLength(method: string, body: Buffer | null): number | null {
  const length = body?.length ?? 0;
  return length === 0 && !METHODS_EXPECTING_PAYLOAD.has(method) ? null : length;
}

/**
 * The request bytes of a plan, as close to what undici would send as HTTP/1.x allows, but verbatim where undici
 * would refuse or rewrite:
 *
 *   <method> <path> HTTP/<version>
 *   host: <hostHeader or host:port>           (left out when hostHeader is null and the plan has its own Host)
 *   connection: keep-alive                     (1.1, or 1.0 with keepAliveRequests > 1; left out when the plan
 *                                               has its own Connection header)
 *   authorization: Basic ...                   (when auth)
 *   <the plan's headers, in order, duplicates kept, names as written>
 *   content-length: <n>                        (as undici computes it: a non-empty body, or PUT/POST/PATCH/...
 *                                               even without one; not when the plan sets Content-Length or
 *                                               Transfer-Encoding itself)
 *
 * Text (request line, names, values) and body go out as UTF-8, as both senders and curl do. With a plan
 * Transfer-Encoding: chunked the body is sent as is: the plan frames it.
 */
export function buildRawRequest(plan: HttpRequestPlan): Buffer {
  const has = (name: string) => plan.headers.some(([n]) => n.toLowerCase() === name);
  const lines = [`${plan.method} ${plan.path} HTTP/${plan.httpVersion}`];
  if (plan.hostHeader !== null) lines.push(`host: ${plan.hostHeader}`);
  else if (!has("host")) lines.push(`host: ${defaultHostHeader(plan.target)}`);
  if (!has("connection") && (plan.httpVersion === "1.1" || plan.keepAliveRequests > 1)) lines.push("connection: keep-alive");
  if (plan.auth) lines.push(`authorization: ${basicAuthorization(plan.auth)}`);
  for (const [name, value] of plan.headers) lines.push(`${name}: ${value}`);
  const body = plan.body === null ? null : Buffer.from(plan.body, "utf8");
  const contentLength = computedContentLength(plan.method, body);
  if (contentLength !== null && !has("content-length") && !has("transfer-encoding")) lines.push(`content-length: ${contentLength}`);
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "utf8"), body ?? Buffer.alloc(0)]);
}

/** The method on a raw request's first line (GET when the bytes have none), to know whether HEAD was asked. */
export function requestMethodOf(data: Buffer): string {
  const firstLine = data.subarray(0, Math.min(data.length, 64)).toString("latin1");
  const method = /^\s*([A-Za-z]+)[ \t]/.exec(firstLine)?.[1];
  return method ?? "GET";
}
