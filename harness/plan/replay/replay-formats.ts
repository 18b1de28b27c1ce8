// Pure: which LogFormat an access log was written with. `--log-format` names one (a format string, or a nickname
// the tree defines or the stock httpd.conf does); otherwise the candidates are the tree's own access logs (the one
// whose file name the log carries first), the nicknames it defines, then the stock common, combined and
// vhost_combined, and the one that reads the most of the log's first lines wins (the first on a tie).
import { basename } from "node:path";
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import { type AccessLogFormat, accessLogFormats, logFormatNicknames } from "../../conf/queries/log-formats.ts";
import { compileLogFormat, type LogFormat, STANDARD_LOG_FORMATS } from "../../logs/access-log-format.ts";
import { parseAccessLogLine } from "../../logs/access-log-line.ts";

export interface FormatCandidate {
  /** How a user recognises it: `combined (stock httpd.conf)`, `CustomLog logs/access_log combined (conf/httpd.conf:212)`. */
  label: string;
  format: LogFormat;
}

const STANDARD_ORDER = ["combined", "common", "vhost_combined"] as const;

/** A log file named after the target: `access_log` for `logs/access_log`, also its rotations `access_log.1`,
 * `access_log-20240101`; for a piped rotatelogs target, the stem before its first `%` or `.`. */
export function logFileMatches(logName: string, target: AccessLogFormat["target"]): boolean {
  const words = target.kind === "piped" ? (target.path ?? "").split(/\s+/).filter((word) => word.includes("/")) : [target.path ?? target.value];
  return words.some((word) => {
    const name = basename(word);
    if (target.kind === "piped") {
      const stem = name.split(/[%.]/)[0] ?? "";
      return stem.length >= 3 && logName.startsWith(stem);
    }
    return logName === name || logName.startsWith(`${name}.`) || logName.startsWith(`${name}-`);
  });
}

function spanText(span: { file: string; line: number }): string {
  return `${span.file}:${span.line}`;
}

/** What `--log-format VALUE` names: a format string (it holds a `%`), or a nickname of the tree or the stock
 * config; null for an unknown nickname. */
export function namedFormat(config: EffectiveConfig, value: string): FormatCandidate | null {
  if (value.includes("%")) return { label: "--log-format", format: compileLogFormat(value) };
  const own = logFormatNicknames(config, null).get(value.toLowerCase());
  if (own) return { label: `${own.nickname} (${spanText(own.span)})`, format: compileLogFormat(own.format) };
  const stock = STANDARD_LOG_FORMATS[value.toLowerCase()];
  return stock === undefined ? null : { label: `${value.toLowerCase()} (stock httpd.conf)`, format: compileLogFormat(stock) };
}

/** The nicknames `--log-format` may name: the tree's, then the stock ones it does not define. */
export function knownNicknames(config: EffectiveConfig): string[] {
  const own = [...logFormatNicknames(config, null).values()].map((entry) => entry.nickname);
  const lower = new Set(own.map((name) => name.toLowerCase()));
  return [...own, ...Object.keys(STANDARD_LOG_FORMATS).filter((name) => !lower.has(name))];
}

/** The virtual host whose own access log the file is, found by its name: one server's own log (not one it
 * inherits from the main server), or null when none or several match. */
export function logOrigin(config: EffectiveConfig, logName: string): AccessLogFormat | null {
  const matched = accessLogFormats(config).filter((log) => !log.target.inherited && logFileMatches(logName, log.target));
  const servers = new Set(matched.map((log) => log.server));
  return servers.size === 1 && matched[0]!.server !== null ? matched[0]! : null;
}

export function formatCandidates(config: EffectiveConfig, logName: string): FormatCandidate[] {
  const candidates: FormatCandidate[] = [];
  const add = (candidate: FormatCandidate): void => {
    if (!candidates.some((c) => c.format.text === candidate.format.text)) candidates.push(candidate);
  };
  const logs = accessLogFormats(config);
  const label = (log: AccessLogFormat): string =>
    `${log.target.directive} ${log.target.value}${log.nickname ? ` ${log.nickname}` : ""} (${spanText(log.target.span)})`;
  for (const log of logs) if (logFileMatches(logName, log.target)) add({ label: label(log), format: compileLogFormat(log.format) });
  for (const log of logs) add({ label: label(log), format: compileLogFormat(log.format) });
  for (const entry of logFormatNicknames(config, null).values()) {
    add({ label: `${entry.nickname} (${spanText(entry.span)})`, format: compileLogFormat(entry.format) });
  }
  for (const name of STANDARD_ORDER) add({ label: `${name} (stock httpd.conf)`, format: compileLogFormat(STANDARD_LOG_FORMATS[name]!) });
  return candidates;
}

/** The candidate that reads the most sample lines (the first on a tie), with how many it read. */
export function chooseFormat(candidates: readonly FormatCandidate[], sample: readonly string[]): { candidate: FormatCandidate; read: number } {
  let best: { candidate: FormatCandidate; read: number } | null = null;
  for (const candidate of candidates) {
    const read = sample.filter((line) => parseAccessLogLine(candidate.format, line).ok).length;
    if (best === null || read > best.read) best = { candidate, read };
  }
  if (best === null) throw new Error("chooseFormat: no candidates");
  return best;
}
