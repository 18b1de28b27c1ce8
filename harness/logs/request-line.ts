// Pure: a logged request line (%r, httpd's r->the_request) in its three parts, `METHOD TARGET PROTOCOL`, split
// on single spaces as a strict HTTP parser reads it. A line without a protocol is HTTP/0.9's `GET /`; any other
// shape is malformed (a space in the target, an empty line, bytes that were no request at all).

export interface RequestLine {
  method: string;
  target: string;
  /** "HTTP/1.1"; null for an HTTP/0.9 line. */
  protocol: string | null;
}

export type ParsedRequestLine = { ok: true; line: RequestLine } | { ok: false; reason: string };

export function parseRequestLine(text: string): ParsedRequestLine {
  if (text === "") return { ok: false, reason: "empty request line" };
  const parts = text.split(" ");
  if (parts.some((part) => part === "")) return { ok: false, reason: "malformed request line (extra spaces)" };
  if (parts.length === 2) return { ok: true, line: { method: parts[0]!, target: parts[1]!, protocol: null } };
  if (parts.length !== 3) return { ok: false, reason: `malformed request line (${parts.length} words, not METHOD TARGET PROTOCOL)` };
  return { ok: true, line: { method: parts[0]!, target: parts[1]!, protocol: parts[2]! } };
}
