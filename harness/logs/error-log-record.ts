/** One error-log line, parsed. The same shape for the 2.2 and the 2.4 format. */
export interface ErrorLogRecord {
  /** The line exactly as the server wrote it. */
  raw: string;
  /** emerg, alert, crit, error, warn, notice, info, debug, trace1..trace8; null for lines with no prefix
   * (config-test output such as "Syntax OK" or the second line of an AH00526 message). */
  level: string | null;
  /** 2.4's module tag ("access_compat" in "[access_compat:error]"); null on 2.2 and for "[:notice]". */
  module: string | null;
  /** The AH code a 2.4 line carries ("AH01797"); null on 2.2, which has none. */
  code: string | null;
  /** The event code: `code` on 2.4, and on 2.2 the AH code of the same event from the message map, so that
   * both versions' lines for one event compare equal. null when unknown. */
  event: string | null;
  /** The client address without port, when the line names one. */
  client: string | null;
  /** The text after the prefixes and the code. */
  message: string;
  /** `message` with volatile parts (ports, pids, addresses, times, temp names) replaced by placeholders. */
  normalized: string;
}

export type ErrorLogDialect = "2.2" | "2.4";

/** httpd's log levels, most severe first (2.4 adds trace1..8). */
export const LOG_LEVELS = [
  "emerg",
  "alert",
  "crit",
  "error",
  "warn",
  "notice",
  "info",
  "debug",
  "trace1",
  "trace2",
  "trace3",
  "trace4",
  "trace5",
  "trace6",
  "trace7",
  "trace8",
] as const;
