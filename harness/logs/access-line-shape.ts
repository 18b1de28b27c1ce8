// Pure: whether a log line is an access line, by the formats that could have written it. Where a server's error
// and access lines reach the harness through one file (server/log-targets.ts MERGED_LOG), a line with an error
// line's bracketed time is an error line; the rest are access lines, except what httpd and its children write
// unbracketed on its error log: start-up messages (`AH00558: httpd: Could not reliably determine ...`), a piped
// logger's restarts (`AH00106: piped log program ... failed unexpectedly`, logged with APLOG_STARTUP: no prefix),
// the stderr of a piped logger or a script (`/bin/cat: '>>': No such file or directory`). Those fit no access
// format of the server, which is how they are told apart.
import { compileLogFormat, type LogFormat, STANDARD_LOG_FORMATS } from "./access-log-format.ts";
import { parseAccessLogLine } from "./access-log-line.ts";

/** The stock configs' formats (common, combined, Debian's vhost_combined, referer), which a fragment's server and
 * a config without formats of its own write with. Not `agent` (`%{User-agent}i`): one free word fits nearly any
 * short line; a config that uses it names it. */
const STOCK = ["common", "combined", "vhost_combined", "referer"].map((name) => STANDARD_LOG_FORMATS[name]!);

/** A test for "this line is an access line", from the access formats the server's config uses (format strings,
 * nicknames already resolved) besides the stock ones. */
export function accessLineTest(formats: readonly string[]): (line: string) => boolean {
  const compiled: LogFormat[] = [...new Set([...formats, ...STOCK])].map(compileLogFormat);
  return (line) => compiled.some((format) => parseAccessLogLine(format, line).ok);
}

/** The access formats an inline config names: each `LogFormat` string and each `CustomLog`'s own format (a
 * nickname is one of the LogFormat lines or the stock ones). Read from the text for a server that has no
 * evaluated config (a scenario's inline config on the image's stock one). */
export function accessFormatsOfText(config: string): string[] {
  const formats: string[] = [];
  for (const match of config.matchAll(/^\s*(LogFormat|CustomLog)\s+(.*)$/gim)) {
    const words = [...match[2]!.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((w) => (w[1] !== undefined ? w[1].replace(/\\"/g, '"') : w[2]!));
    const format = match[1]!.toLowerCase() === "logformat" ? words[0] : words[1];
    if (format !== undefined && format.includes("%")) formats.push(format);
  }
  return formats;
}
