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
import { ResponseParser } from "./response-parser.ts";

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

/** Reads one line ending in LF (CR before it dropped); null when no LF yet. */
function readLine(bytes: Buffer, pos: number): { line: string; next: number } | null {
  const lf = bytes.indexOf(LF, pos);
  if (lf === -1) return null;
  const end = lf > pos && bytes[lf - 1] === CR ? lf - 1 : lf;
  return { line: bytes.toString("latin1", pos, end), next: lf + 1 };
}

/** View of a response in `bytes` (everything received so far on a connection for one request), with the
 * incremental parser (response-parser.ts) over the whole buffer and the body kept. For small buffers; a
 * stream feeds a ResponseParser itself. */
export function scanRawResponse(bytes: Buffer, options: RawScanOptions = {}): RawScanResult {
  const body: Buffer[] = [];
  const parser = new ResponseParser({ requestMethod: options.requestMethod ?? "GET", onBody: (chunk) => body.push(chunk) });
  parser.push(bytes);
  if (options.eof) parser.finish();
  const error = parser.error;
  if (error) return { state: "invalid", code: error.code, reason: error.reason, offset: error.offset };
  const head = parser.head;
  const response = (complete: boolean): ParsedRawResponse => ({ ...head!, body: Buffer.concat(body), complete });
  if (parser.complete) return { state: "complete", response: response(true), end: parser.end! };
  return { state: "incomplete", partial: head ? response(false) : null, needBytes: parser.needBytes };
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
