// Pure: one access-log line read with a compiled LogFormat (access-log-format.ts) into a record: every field as
// logged, and the ones a replay needs by meaning. Never throws; a line the format does not fit says so.
//
// httpd writes request data escaped (ap_escape_logitem, 2.2.34 and 2.4.62): `"` and `\` get a backslash, control
// characters are `\n`, `\t`, ... or `\xhh`. So inside a quoted field no bare `"` occurs, which is what lets a line
// be split: each field has a pattern by what its directive writes, the literal text between fields must match
// exactly, and the whole line must be used. A free-text field (a header, %u, %U) may hold spaces only where the
// format quotes it (`"%{User-Agent}i"`) or brackets it (`[%{%d/%b/%Y %T}t]`): httpd does not escape spaces, so
// unquoted, a space ends it (else a field could swallow its neighbours and a wrong format fit). "-" is httpd's
// word for "none" (no user, no header, no body).
import type { LogFormat, LogFormatDirective } from "./access-log-format.ts";

export interface AccessLogField {
  /** The directive as written in the format, `%>s`, `%{User-Agent}i`. */
  directive: string;
  /** The value as logged, unescaped; "-" kept. */
  value: string;
}

export interface AccessLogRecord {
  /** Every directive's value, in the format's order (unknown directives included, as opaque text). */
  fields: AccessLogField[];
  /** %h, else %a, else %{c}a: the client's address (or name, with HostnameLookups On). */
  remoteHost: string | null;
  /** %u. */
  remoteUser: string | null;
  /** %r: the request line as received. */
  requestLine: string | null;
  /** %m, %U (the path, escaped again by httpd), %q ("?..." or ""), %H: the request in parts, when the format
   * has no %r. */
  method: string | null;
  urlPath: string | null;
  query: string | null;
  protocol: string | null;
  /** %{Host}i. */
  hostHeader: string | null;
  /** %{User-Agent}i. */
  userAgent: string | null;
  /** %V: the server name as the request named it (UseCanonicalName Off). */
  serverName: string | null;
  /** %v: the canonical ServerName of the server that answered. */
  canonicalName: string | null;
  /** %p, %{canonical}p or %{local}p: the server's port. */
  port: number | null;
  /** %>s, else %s: the final status. */
  status: number | null;
}

export type AccessLogLine = { ok: true; record: AccessLogRecord } | { ok: false; reason: string };

/** Longer lines are refused unread: no request line httpd accepts is this long (LimitRequestLine 8190 and
 * eight header fields of LimitRequestFieldSize). */
export const MAX_ACCESS_LOG_LINE = 65_536;

const ESCAPED_TEXT = String.raw`(?:[^"\\]|\\.)*?`;
const ESCAPED_WORD = String.raw`(?:[^"\\\s]|\\.)*`;
const BRACKETED = String.raw`[^\]]*`;

/** Where a field sits: between double quotes, between brackets, or bare. */
type Enclosure = "quoted" | "bracketed" | "bare";
const NO_SPACE = String.raw`\S+`;
const NUMBER = String.raw`-?\d+|-`;

function fieldPattern(directive: LogFormatDirective, enclosure: Enclosure): string {
  const text = enclosure === "quoted" ? ESCAPED_TEXT : enclosure === "bracketed" ? BRACKETED : ESCAPED_WORD;
  switch (directive.letter) {
    case "h":
    case "a":
    case "A":
    case "l":
    case "v":
    case "V":
    case "H":
    case "m":
    case "P":
      return NO_SPACE;
    case "b":
    case "s":
    case "B":
    case "D":
    case "k":
    case "T":
    case "I":
    case "O":
    case "S":
    case "p":
      return NUMBER;
    case "X":
      return "[X+-]";
    case "t":
      return directive.param === null ? String.raw`\[[^\]]*\]` : text;
    case "U":
      // Logged escaped (ap_escape_uri): a `?` or a space in the path is %3F, %20.
      return String.raw`[^\s"?]*`;
    case "q":
      return String.raw`(?:\?(?:[^"\\]|\\.)*)?`;
    default:
      return text;
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

const compiled = new WeakMap<LogFormat, { regex: RegExp; directives: LogFormatDirective[] }>();

function matcherOf(format: LogFormat): { regex: RegExp; directives: LogFormatDirective[] } {
  let matcher = compiled.get(format);
  if (matcher) return matcher;
  const directives: LogFormatDirective[] = [];
  let source = "^";
  format.parts.forEach((part, i) => {
    if (part.kind === "literal") {
      source += escapeRegex(part.text);
      return;
    }
    directives.push(part);
    const before = format.parts[i - 1];
    const after = format.parts[i + 1];
    const between = (open: string, close: string): boolean =>
      before?.kind === "literal" && before.text.endsWith(open) && after?.kind === "literal" && after.text.startsWith(close);
    const enclosure: Enclosure = between('"', '"') ? "quoted" : between("[", "]") ? "bracketed" : "bare";
    const pattern = fieldPattern(part, enclosure);
    // A conditional field is "-" when the condition fails, whatever it would hold.
    source += `(${part.conditional ? `-|${pattern}` : pattern})`;
  });
  matcher = { regex: new RegExp(`${source}$`), directives };
  compiled.set(format, matcher);
  return matcher;
}

/** ap_escape_logitem undone: `\"`, `\\`, `\n` `\r` `\t` `\b` `\v` `\f`, `\xhh`. */
export function unescapeLogItem(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\(x[0-9a-fA-F]{2}|.)/g, (whole, code: string) => {
    if (code.length === 3) return String.fromCharCode(parseInt(code.slice(1), 16));
    switch (code) {
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      case "b":
        return "\b";
      case "v":
        return "\v";
      case "f":
        return "\f";
      case '"':
      case "\\":
        return code;
      default:
        return whole;
    }
  });
}

function present(value: string | undefined): string | null {
  return value === undefined || value === "-" ? null : value;
}

export function parseAccessLogLine(format: LogFormat, line: string): AccessLogLine {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (text.length > MAX_ACCESS_LOG_LINE) return { ok: false, reason: `longer than ${MAX_ACCESS_LOG_LINE} characters` };
  const { regex, directives } = matcherOf(format);
  const match = regex.exec(text);
  if (match === null) return { ok: false, reason: `does not fit the format ${JSON.stringify(format.text)}` };
  const fields = directives.map((directive, i) => ({ directive: directive.text, value: unescapeLogItem(match[i + 1] ?? "") }));
  const byKey = new Map<string, string>();
  directives.forEach((directive, i) => {
    const key = `${directive.text.includes(">") ? ">" : directive.text.includes("<") ? "<" : ""}${directive.letter}:${directive.param?.toLowerCase() ?? ""}`;
    if (!byKey.has(key)) byKey.set(key, fields[i]!.value);
  });
  const get = (...keys: string[]): string | null => {
    for (const key of keys) {
      const value = present(byKey.get(key));
      if (value !== null) return value;
    }
    return null;
  };
  const port = get("p:", "p:canonical", "p:local");
  const status = get(">s:", "s:", "<s:");
  return {
    ok: true,
    record: {
      fields,
      remoteHost: get("h:", "a:", "a:c"),
      remoteUser: get("u:"),
      requestLine: get("r:"),
      method: get("m:"),
      urlPath: get("U:"),
      // %q logs "" for no query, never "-".
      query: byKey.get("q:") ?? null,
      protocol: get("H:"),
      hostHeader: get("i:host"),
      userAgent: get("i:user-agent"),
      serverName: get("V:"),
      canonicalName: get("v:"),
      port: port !== null && /^\d+$/.test(port) ? Number(port) : null,
      status: status !== null && /^\d+$/.test(status) ? Number(status) : null,
    },
  };
}
