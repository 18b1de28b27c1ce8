// Reads the output of `httpd -t` (stdout and stderr together). Pure.
//
// What `httpd -t` prints, on both versions: startup messages without prefix ("Syntax OK", "AH00548: ...",
// "httpd: Could not reliably determine ..."), and lines with the normal prefix when the error log is already
// set up ("[...] [core:warn] [pid 1:tid 1] AH00117: ..." on 2.4, "[...] [warn] NameVirtualHost ..." on 2.2).
// A syntax error is two lines: "AH00526: Syntax error on line N of FILE:" (2.2: without "AH00526: ") and then the
// reason ("Invalid command 'Order', perhaps misspelled ...", "KeepAlive must be On or Off"); httpd stops at the
// first one. An error while reading a file (LoadModule, Include) is one line, "httpd: Syntax error on line N of
// FILE: Cannot load ...", and one in an included file nests the Include's place around the file's own, once per
// level: "httpd: Syntax error on line 552 of .../httpd.conf: Syntax error on line 2 of .../extra/x.conf: Cannot load
// ..." (2.2.34 and 2.4.68 alike). The innermost place is the line at fault.
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

/** "Syntax error on line N of FILE:" and, on the same line, what follows "FILE: " when there is anything. */
const SYNTAX_ERROR = /Syntax error on line (\d+) of (.+?):(?: (.*))?$/;

/** The place a "Syntax error on line N of FILE" message names, the innermost when errors nest (an error in an
 * included file), with the one-line form's reason (null: the two-line form, whose reason is the next line). Null
 * for any other message. `index` is where the outermost "Syntax error" starts in the message ("httpd: ",
 * "AH00526: " or nothing before it). */
export function syntaxErrorPlace(message: string): { file: string; line: number; reason: string | null; index: number } | null {
  const outer = SYNTAX_ERROR.exec(message);
  if (outer === null) return null;
  let found = outer;
  for (let inner = SYNTAX_ERROR.exec(found[3] ?? ""); inner !== null; inner = SYNTAX_ERROR.exec(inner[3] ?? "")) found = inner;
  return { file: found[2]!, line: Number(found[1]), reason: found[3] ?? null, index: outer.index };
}

/** Only a message that starts with the syntax error (after httpd's own name or an AH code) is one: a reason that
 * quotes the words further in is not. */
const LEAD = /^(?:[^\s:]+: )?$/;

export function parseConfigTestOutput(text: string, exitCode: number, dialect: ErrorLogDialect): ConfigTestResult {
  const messages = text
    .split(/\r?\n/)
    .map((line) => line.replace(/\r$/, ""))
    .filter((line) => line.trim() !== "");
  const records = messages.map((line) => parseErrorLogLine(line, dialect));
  let syntaxError: ConfigSyntaxError | null = null;
  for (const [index, record] of records.entries()) {
    const place = syntaxErrorPlace(record.message);
    if (place === null || !LEAD.test(record.message.slice(0, place.index))) continue;
    syntaxError = { file: place.file, line: place.line, reason: place.reason ?? records[index + 1]?.message ?? "" };
    break;
  }
  return { ok: exitCode === 0, messages, records, syntaxError };
}
