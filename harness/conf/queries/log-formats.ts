// The access-log formats of a config: LogFormat nicknames and the format each CustomLog, TransferLog and
// GlobalLog writes with, as mod_log_config resolves them (mod_log_config.c log_format, set_cust_log,
// open_config_log, merge_config_log_state; 2.2.34 and 2.4.62):
// - `LogFormat FORMAT NICKNAME` names a format for the server it is in; a vhost sees the main server's nicknames
//   with its own laid over them (case-insensitive: an apr table);
// - `LogFormat FORMAT` alone is the server's default format, for TransferLog (else the vhost's main server's,
//   else `%h %l %u %t "%r" %>s %b`);
// - a CustomLog format that is a known nickname is that nickname's format; any other word is itself the format
//   (so a misspelt nickname logs the word).
import { DEFAULT_LOG_FORMAT } from "../../logs/access-log-format.ts";
import type { EffectiveConfig, EffectiveSection } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { hostLogTargets, type LogTarget } from "./log-targets.ts";
import { serverDirectives, virtualHostSections } from "./walk-config.ts";

export interface LogFormatNickname {
  nickname: string;
  format: string;
  span: Span;
}

export interface AccessLogFormat {
  /** The server whose line it is: null for the main server, else its <VirtualHost>. */
  server: EffectiveSection | null;
  target: LogTarget;
  /** The format string the log is written with. */
  format: string;
  /** The nickname it was named by, or null when written out (or TransferLog's default). */
  nickname: string | null;
}

function ownNicknames(config: EffectiveConfig, server: EffectiveSection | null): LogFormatNickname[] {
  return serverDirectives(config, server, "logformat").flatMap((entry) => {
    const [format, nickname] = entry.directive.args;
    return format !== undefined && nickname !== undefined ? [{ nickname, format, span: entry.directive.span }] : [];
  });
}

/** The nicknames a server sees, by lower-case nickname: the main server's, with a vhost's own over them. */
export function logFormatNicknames(config: EffectiveConfig, server: EffectiveSection | null): Map<string, LogFormatNickname> {
  const found = new Map<string, LogFormatNickname>();
  for (const entry of ownNicknames(config, null)) found.set(entry.nickname.toLowerCase(), entry);
  if (server !== null) for (const entry of ownNicknames(config, server)) found.set(entry.nickname.toLowerCase(), entry);
  return found;
}

function defaultFormat(config: EffectiveConfig, server: EffectiveSection | null): string {
  const unnamed = (at: EffectiveSection | null): string | undefined =>
    serverDirectives(config, at, "logformat").filter((entry) => entry.directive.args.length === 1).at(-1)?.directive.args[0];
  return (server !== null ? unnamed(server) : undefined) ?? unnamed(null) ?? DEFAULT_LOG_FORMAT;
}

/** Every access log of every server (the main server first), with the format it is written in. A log the main
 * server's lines give a vhost is listed for the vhost too, marked `inherited` on its target. */
export function accessLogFormats(config: EffectiveConfig): AccessLogFormat[] {
  return [null, ...virtualHostSections(config)].flatMap((server) => {
    const nicknames = logFormatNicknames(config, server);
    return hostLogTargets(config, server).accessLogs.map((target) => {
      const written = target.directive === "TransferLog" ? undefined : target.format[0];
      if (written === undefined) return { server, target, format: defaultFormat(config, server), nickname: null };
      const named = nicknames.get(written.toLowerCase());
      return { server, target, format: named?.format ?? written, nickname: named ? named.nickname : null };
    });
  });
}
