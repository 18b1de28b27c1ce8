// Parses httpd error-log lines of both versions into ErrorLogRecord. Pure: no I/O, no clock; never throws.
//
// 2.2 (server/log.c log_error_core at 2.2.34):
//   [Sat Nov 21 22:41:17 2026] [error] [client 172.17.0.1] (13)Permission denied: message
//   order: [time] [level] [file.c(NN): at debug] [client IP] [(errno)text: ] message[, referer: URL]
// 2.4 default ErrorLogFormat (server/log.c do_errorlog_default at 2.4.62):
//   [Sat Nov 21 22:41:24.568687 2026] [ssl:warn] [pid 1:tid 1] AH01873: Init: ...
//   order: [time] [module:level] [pid N:tid N] [file.c(NN): at debug] [(errno)text: ] [client IP:PORT] or
//          [remote IP:PORT] AHnnnnn: message[, referer: URL]
// Startup messages (APLOG_STARTUP: config-test output, "Syntax OK", AH00526, AH00548, AH00558) have neither time
// nor level on both versions. Lines with a level but no time ("[warn] message") are accepted too.
//
// Field choices:
// - `raw` is the line without its line terminator (a trailing "\r" is dropped with the "\n").
// - `level` is null for lines without a level bracket.
// - `module` is null on 2.2 and for an empty tag ("[:notice]").
// - `client` is the address of "[client ...]" or of "[remote ...]" without the port. 2.4 writes "[remote ...]"
//   for connections that have no scoreboard handle, in practice mod_ssl's lines about the proxy's backend
//   connection; there the address is the backend's. 2.2 writes the same backend address as "[client ...]" on
//   those lines, so filling `client` from both keeps the two versions comparable.
// - The errno part ("(20014)Internal error (specific information not available): ") stays at the front of
//   `message`, followed by the text after the client part and the AH code:
//   "(20014)Internal error (specific information not available): pass request body failed to ...".
//   splitErrnoPrefix takes it apart again; the message map matches the text without it.
// - The "file.c(NN): " part of debug lines is dropped from `message`: line numbers differ between builds.
import type { ErrorLogDialect, ErrorLogRecord } from "./error-log-record.ts";
import { eventFor } from "./message-map.ts";
import { normalizeMessage } from "./normalize-log.ts";


const TIME_PART = /^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]?\d \d{2}:\d{2}:\d{2}(?:\.\d{1,6})? \d{4}\] ?/;
const LEVEL_PART = /^\[(?:([\w.-]*):)?(emerg|alert|crit|error|warn|notice|info|debug|trace[1-8])\] ?/;
const PID_PART = /^\[pid \d+(?::tid \d+)?\] ?/;
const FILE_LINE_PART = /^[\w.-]+\.(?:c|h|cpp)\(\d+\): /;
const ERRNO_PART = /^\((?:-?\d+|EAI -?\d+|OS \d+|os 0x[0-9A-Fa-f]+)\)[^:]*: /;
const CLIENT_PART = /^\[(?:client|remote) ([^\]\s]+)\] ?/;
const CODE_PART = /^(AH\d{5}): ?/;

/** Splits "(20014)Internal error (specific information not available): text" into its errno part (without the
 * ": ") and the text. A message without one gives errno null and the message unchanged. */
export function splitErrnoPrefix(message: string): { errno: string | null; text: string } {
  const match = ERRNO_PART.exec(message);
  if (!match) return { errno: null, text: message };
  return { errno: match[0].slice(0, -2), text: message.slice(match[0].length) };
}

/** The address of a "[client ...]"/"[remote ...]" part without its port. 2.4 always appends ":port" (also to
 * IPv6 addresses, without brackets: "::1:1234"); 2.2 never does, so its "::1" must stay whole. */
function clientAddress(value: string, dialect: ErrorLogDialect): string {
  if (dialect === "2.2") return value;
  const bracketed = /^\[([^\]]+)\]:\d+$/.exec(value);
  if (bracketed?.[1] !== undefined) return bracketed[1];
  const withPort = /^(.*[^:]):\d+$/.exec(value);
  return withPort?.[1] ?? value;
}

export function parseErrorLogLine(line: string, dialect: ErrorLogDialect): ErrorLogRecord {
  const raw = line.replace(/\r?\n$/, "").replace(/\r$/, "");
  let rest = raw;
  let level: string | null = null;
  let module: string | null = null;
  let client: string | null = null;
  let errno: string | null = null;
  let code: string | null = null;

  const take = (pattern: RegExp): RegExpExecArray | null => {
    const match = pattern.exec(rest);
    if (match) rest = rest.slice(match[0].length);
    return match;
  };

  const time = take(TIME_PART);
  const levelMatch = take(LEVEL_PART);
  if (levelMatch) {
    level = levelMatch[2] ?? null;
    module = levelMatch[1] ? levelMatch[1] : null;
  }
  if (time || levelMatch) take(PID_PART);
  // File/line, errno and client come in a version-specific order; take each at most once, in any order. Startup
  // lines have no prefix but can have an errno ("(98)Address already in use: AH00072: make_sock: ...").
  let progressed = true;
  let sawFileLine = false;
  while (progressed) {
    progressed = false;
    if (!sawFileLine && take(FILE_LINE_PART)) {
      sawFileLine = progressed = true;
    }
    if (errno === null) {
      const errnoMatch = take(ERRNO_PART);
      if (errnoMatch) {
        errno = errnoMatch[0].slice(0, -2);
        progressed = true;
      }
    }
    if (client === null) {
      const clientMatch = take(CLIENT_PART);
      if (clientMatch?.[1] !== undefined) {
        client = clientAddress(clientMatch[1], dialect);
        progressed = true;
      }
    }
  }
  const codeMatch = take(CODE_PART);
  if (codeMatch?.[1] !== undefined) code = codeMatch[1];

  const message = errno === null ? rest : `${errno}: ${rest}`;
  return {
    raw,
    level,
    module,
    code,
    event: eventFor(code, rest, dialect),
    client,
    message,
    normalized: normalizeMessage(message),
  };
}
