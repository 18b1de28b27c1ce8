// Pure: where each side's httpd writes its error and access logs, per virtual host, and how the harness reads
// them. Files are followed where the effective config puts them; a piped or syslog target cannot be followed,
// so its line is pointed at a file of the harness's own (and the report says so); the container's streams are
// read as they are.
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import { accessLogFormats } from "../../conf/queries/log-formats.ts";
import { STANDARD_LOG_FORMATS } from "../../logs/access-log-format.ts";
import { accessFormatsOfText } from "../../logs/access-line-shape.ts";
import { classifyLogTarget } from "../../conf/queries/log-targets.ts";
import { vhostLabel } from "../../conf/queries/virtual-hosts.ts";
import { resolveServerPath } from "../../conf/queries/server-root.ts";
import { directivesNamed, enclosingVirtualHost } from "../../conf/queries/walk-config.ts";
import type { LineEdit } from "./line-edit.ts";
import type { Adaptation } from "./tree-side-plan.ts";

export const CAPTURE_DIR = "/var/log/httpd-upgrade-harness";

/** httpd's DEFAULT_ERRORLOG: where a config without ErrorLog logs, relative to ServerRoot. */
const DEFAULT_ERROR_LOG = "logs/error_log";


export interface FollowedLogs {
  /** Files followed inside the container; empty: the container's stream. */
  error: string[];
  /** Files followed; empty with `accessLogged` false: the config keeps no access log at all. */
  access: string[];
  /** Whether any access log is written (stream or file): requests are attributed by their access line. */
  accessLogged: boolean;
  /** Whether every log can go to one file the harness follows (server/log-targets.ts MERGED_LOG), error lines told
   * from access lines by their form: false when the config sets an ErrorLogFormat, or an access format that
   * starts like an error line (a time of its own in brackets). */
  mergeable: boolean;
  /** The access formats the config's logs write with (nicknames resolved): in a merged log, an unbracketed line
   * that none of them fits is an error line (logs/access-line-shape.ts). */
  formats: string[];
  /** httpd's own stderr (error) or stdout (access) is a log too, besides the files: a server logging to the
   * container's stream while a virtual host logs to a file, or a fragment's site logs on the stock config's
   * streams. Absent when neither is; with no file at all the streams are read anyway. */
  streams?: { error: boolean; access: boolean };
}

/** What the image's stock config logs, for a fragment read after it: its main server's targets (null: a stream, a
 * pipe or none, as server/log-targets.ts logTargets reads them) and its text, whose access formats and
 * ErrorLogFormat count too. */
export interface StockLogs {
  errorLog: string | null;
  accessLog: string | null;
  text: string;
}

export interface LogCapture {
  logs: FollowedLogs;
  /** Each followed file with the directive that names it (the default error log: the main file's line 1). */
  files: Array<{ path: string; file: string; line: number }>;
  edits: LineEdit[];
  adaptations: Adaptation[];
}

/** `stock`: for a fragment, what the image's stock config around it logs. Its main server logs there, not to
 * httpd's default error log, and its lines are followed besides the fragment's own files: without them a site
 * file's own ErrorLog and CustomLog were never followed (only the stock config's streams were), and every request
 * of such a fragment showed no error line and no access line on either version. */
export function captureLogs(config: EffectiveConfig, stock: StockLogs | null = null): LogCapture {
  const edits: LineEdit[] = [];
  const adaptations: Adaptation[] = [];
  const error = new Set<string>();
  const access = new Set<string>();
  let errorStream = false;
  let accessStream = false;
  let accessLogged = false;
  let captured = 0;
  const named: LogCapture["files"] = [];
  // A line read more than once (a snippet included in two virtual hosts) is staged once, with one file.
  const capturedAt = new Map<string, string>();
  const NAMES = { errorlog: "ErrorLog", customlog: "CustomLog", transferlog: "TransferLog", globallog: "GlobalLog" } as const;
  for (const { directive, sections } of directivesNamed(config, "errorlog", "customlog", "transferlog", "globallog")) {
    const target = directive.args[0];
    if (target === undefined) continue;
    const vhost = enclosingVirtualHost(sections);
    const isError = directive.key === "errorlog";
    if (!isError) accessLogged = true;
    const classified = classifyLogTarget(config, NAMES[directive.key as keyof typeof NAMES], target);
    const kind = classified.kind;
    if (kind === "stream") {
      if (isError) errorStream = true;
      else accessStream = true;
      continue;
    }
    let path: string;
    const at = `${directive.span.file}:${directive.span.line}`;
    if (kind === "file") path = classified.path ?? target;
    else if (capturedAt.has(at)) path = capturedAt.get(at)!;
    else {
      captured++;
      path = `${CAPTURE_DIR}/${isError ? "error" : "access"}-${captured}.log`;
      capturedAt.set(at, path);
      const indent = /^\s*/.exec(directive.node.raw)?.[0] ?? "";
      const rest = directive.node.args.slice(1).map((word) => word.raw).join(" ");
      const now = `${directive.name} "${path}"${rest ? ` ${rest}` : ""}`;
      edits.push({ file: directive.span.file, line: directive.span.line, endLine: directive.span.endLine, text: indent + now });
      adaptations.push({
        kind: "log-captured",
        file: directive.span.file,
        line: directive.span.line,
        was: directive.node.raw.trim(),
        now,
        reason: `a ${kind} ${isError ? "error" : "access"} log${vhost ? ` (virtual host ${vhostLabel(config, vhost)})` : ""} cannot be followed; the harness writes it to a file it reads`,
      });
    }
    (isError ? error : access).add(path);
    named.push({ path, file: directive.span.file, line: directive.span.line });
  }
  if (stock !== null) {
    // The main server of the stock config logs where that config says; a stream stays a stream.
    if (stock.errorLog !== null) error.add(stock.errorLog);
    else errorStream = true;
    if (stock.accessLog !== null) access.add(stock.accessLog);
    else if (/^\s*(?:CustomLog|TransferLog)\s/im.test(stock.text)) accessStream = true;
    if (/^\s*(?:CustomLog|TransferLog)\s/im.test(stock.text)) accessLogged = true;
  } else if (error.size === 0 && !errorStream) {
    const path = resolveServerPath(config, DEFAULT_ERROR_LOG, "final");
    error.add(path);
    named.push({ path, file: config.mainFile, line: 1 });
  }
  // A nickname the tree does not define is the stock config's (common, combined) or httpd's literal text.
  const formats = [
    ...new Set([
      ...accessLogFormats(config).map((f) => (f.format.includes("%") ? f.format : (STANDARD_LOG_FORMATS[f.format.toLowerCase()] ?? f.format))),
      ...(stock === null ? [] : accessFormatsOfText(stock.text)),
    ]),
  ];
  const mergeable = directivesNamed(config, "errorlogformat").length === 0 && !(stock !== null && /^\s*ErrorLogFormat\s/im.test(stock.text)) && !formats.some(startsLikeAnErrorLine);
  // httpd's streams are read anyway when no file is followed; beside files they must be named.
  const streams = (errorStream && error.size > 0) || (accessStream && access.size > 0) ? { streams: { error: errorStream, access: accessStream } } : {};
  return { logs: { error: [...error], access: [...access], accessLogged, mergeable, formats, ...streams }, files: named, edits, adaptations };
}

/** An access format whose lines could start as an error line does: a time of its own format first, bracketed. */
export function startsLikeAnErrorLine(format: string): boolean {
  return /^\[?%\{[^}]*\}t/.test(format);
}
