// Reads the output of `httpd -t` (stdout and stderr together). Pure.
//
// What `httpd -t` prints, on both versions: startup messages without prefix ("Syntax OK", "AH00548: ...",
// "httpd: Could not reliably determine ..."), and lines with the normal prefix when the error log is already
// set up ("[...] [core:warn] [pid 1:tid 1] AH00117: ..." on 2.4, "[...] [warn] NameVirtualHost ..." on 2.2).
// A syntax error is two lines: "AH00526: Syntax error on line N of FILE:" (2.2: without "AH00526: ") and then the
// reason ("Invalid command 'Order', perhaps misspelled ...", "KeepAlive must be On or Off"); httpd stops at the
// first one.
import type { ErrorLogDialect, ErrorLogRecord } from "./error-log-record.ts";
import { parseErrorLogLine } from "./parse-error-log.ts";

export interface ConfigSyntaxError {
  file: string;
  line: number;
  /** The reason line that follows the "Syntax error on line N of FILE:" line; "" when the output ends there. */
  reason: string;
}

export interface ConfigTestResult {
  /** Whether the config test passed, decided by the exit code alone (0; httpd -t exits 1 on an error). The text
   * is not consulted: output cut short by a crash can lack both "Syntax OK" and an error line. */
  ok: boolean;
  /** The output lines without empty ones, otherwise verbatim (line terminators removed). */
  messages: string[];
  records: ErrorLogRecord[];
  /** The syntax error the output reports, paired with its reason line; null when there is none. */
  syntaxError: ConfigSyntaxError | null;
}

const SYNTAX_ERROR = /^Syntax error on line (\d+) of (.*):$/;

export function parseConfigTestOutput(text: string, exitCode: number, dialect: ErrorLogDialect): ConfigTestResult {
  const messages = text
    .split(/\r?\n/)
    .map((line) => line.replace(/\r$/, ""))
    .filter((line) => line.trim() !== "");
  const records = messages.map((line) => parseErrorLogLine(line, dialect));
  let syntaxError: ConfigSyntaxError | null = null;
  for (const [index, record] of records.entries()) {
    const match = SYNTAX_ERROR.exec(record.message);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    syntaxError = { file: match[2], line: Number(match[1]), reason: records[index + 1]?.message ?? "" };
    break;
  }
  return { ok: exitCode === 0, messages, records, syntaxError };
}
