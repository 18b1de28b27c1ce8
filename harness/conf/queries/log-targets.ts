// Where each server (main and every vhost) writes its logs: ErrorLog, CustomLog, TransferLog and GlobalLog, each
// classified as the version's httpd opens it.
// - Piped (`|cmd`, server/log.c open_error_log and ap_open_piped_log): 2.2 runs the command through the shell
//   unless written `||cmd`; 2.4 runs it directly unless written `|$cmd` (2.2.34 and 2.4.62). The same for
//   ErrorLog and the access logs.
// - syslog (ErrorLog only): 2.2 takes any value starting with "syslog" in any case (strncasecmp(..., 6)), the
//   facility after a `:`; 2.4 only exactly `syslog` or `syslog:facility[:tag]`. Anything else is a file made
//   absolute against the final ServerRoot. A vhost without ErrorLog uses the main server's (config.c fixups).
// - CustomLog/TransferLog/GlobalLog (mod_log_config.c ap_default_log_writer_init): piped or a file, `syslog`
//   included (mod_log_config has no syslog). A vhost with none of its own logs through the main server's;
//   GlobalLog (2.4) lines of the main server apply to every vhost as well.
// A file that is the process's own stream (/dev/stdout, /dev/stderr, /proc/self/fd/N) is `stream`: the
// container's log, not a file to collect.
import type { EffectiveConfig, EffectiveSection } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { resolveServerPath } from "./server-root.ts";
import { serverDirectives, virtualHostSections } from "./walk-config.ts";

export type LogTargetKind = "file" | "piped" | "syslog" | "stream";

export interface LogTarget {
  directive: "ErrorLog" | "CustomLog" | "TransferLog" | "GlobalLog";
  /** The target as written. */
  value: string;
  kind: LogTargetKind;
  /** file and stream: the absolute path; piped: the command; syslog: null. */
  path: string | null;
  /** syslog: the facility (null for the default, local7). */
  facility: string | null;
  /** piped: whether httpd runs the command through the shell (/bin/sh -c) rather than directly. */
  shell: boolean;
  /** CustomLog/GlobalLog: the format or nickname (and an `env=` condition, as written). */
  format: string[];
  /** True when the line is the main server's, used by a vhost that has none of its own. */
  inherited: boolean;
  span: Span;
}

export interface HostLogTargets {
  /** The `<VirtualHost>`, or null for the main server. */
  vhost: EffectiveSection | null;
  /** The one ErrorLog in effect; null when none is set anywhere (httpd's compiled-in logs/error_log). */
  errorLog: LogTarget | null;
  /** Every access log written for this server. */
  accessLogs: LogTarget[];
}

const STREAM = /^\/(?:dev\/std(?:out|err)|proc\/self\/fd\/\d+)$/;

/** How this version's httpd opens one log target. */
export function classifyLogTarget(config: EffectiveConfig, directive: LogTarget["directive"], value: string):
  Pick<LogTarget, "kind" | "path" | "facility" | "shell"> {
  const is22 = config.version.family === "2.2";
  if (value.startsWith("|")) {
    const program = value.slice(1);
    const shell = is22 ? !program.startsWith("|") : program.replace(/^\|/, "").startsWith("$");
    return { kind: "piped", path: program.replace(/^\|/, "").replace(/^\$/, ""), facility: null, shell };
  }
  const syslog = is22 ? /^syslog/i.test(value) : value === "syslog" || value.startsWith("syslog:");
  if (directive === "ErrorLog" && syslog) {
    const facility = value.includes(":") ? value.split(":")[1]! : "";
    return { kind: "syslog", path: null, facility: facility === "" ? null : facility, shell: false };
  }
  const path = resolveServerPath(config, value, "final");
  return { kind: STREAM.test(path) ? "stream" : "file", path, facility: null, shell: false };
}

function targets(config: EffectiveConfig, vhost: EffectiveSection | null, keys: string[], inherited: boolean): LogTarget[] {
  return serverDirectives(config, vhost, ...keys).flatMap((entry) => {
    const value = entry.directive.args[0];
    if (value === undefined) return [];
    // slice, not a rest element: the rest's array keeps room for 17, one per log line of 10,000 vhosts.
    const format = entry.directive.args.slice(1);
    const directive = ({ errorlog: "ErrorLog", customlog: "CustomLog", transferlog: "TransferLog", globallog: "GlobalLog" } as const)[
      entry.directive.key as "errorlog" | "customlog" | "transferlog" | "globallog"
    ];
    return [{ directive, value, ...classifyLogTarget(config, directive, value), format, inherited, span: entry.directive.span }];
  });
}

export function hostLogTargets(config: EffectiveConfig, vhost: EffectiveSection | null): HostLogTargets {
  const ownError = targets(config, vhost, ["errorlog"], false).at(-1) ?? null;
  const errorLog = ownError ?? (vhost === null ? null : (targets(config, null, ["errorlog"], true).at(-1) ?? null));
  const own = targets(config, vhost, ["customlog", "transferlog", "globallog"], false);
  if (vhost === null) return { vhost, errorLog, accessLogs: own };
  // mod_log_config.c: a vhost logs through its own lines, then the main server's that are GlobalLog (inherit
  // flag) or, when it has none of its own, all of the main server's, in their order.
  const main = targets(config, null, ["customlog", "transferlog", "globallog"], true);
  const inheritedLogs = own.length > 0 ? main.filter((target) => target.directive === "GlobalLog") : main;
  return { vhost, errorLog, accessLogs: [...own, ...inheritedLogs] };
}

/** The main server's, then each virtual host's. */
export function logTargets(config: EffectiveConfig): HostLogTargets[] {
  return [null, ...virtualHostSections(config)].map((vhost) => hostLogTargets(config, vhost));
}
