// PidFile: where httpd writes its process id, made absolute against the final ServerRoot when it is written
// (mpm_common.c ap_mpm_dump_pidfile / log.c ap_log_pid). Without the directive, the official build writes
// DEFAULT_PIDLOG, "logs/httpd.pid" (httpd -V of 2.2.34 and 2.4.62), and so does a fragment, which the harness
// runs in the official images; Debian's and RHEL's builds differ, so no default is claimed for them.
import type { EffectiveConfig } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { resolveServerPath } from "./server-root.ts";
import { serverDirectives } from "./walk-config.ts";

export const OFFICIAL_DEFAULT_PIDLOG = "logs/httpd.pid";

export interface PidFile {
  value: string;
  path: string;
  /** null when it is the build's default. */
  span: Span | null;
}

export function pidFile(config: EffectiveConfig): PidFile | null {
  const entry = serverDirectives(config, null, "pidfile").at(-1);
  const value = entry?.directive.args[0];
  if (entry !== undefined && value !== undefined) {
    return { value, path: resolveServerPath(config, value, "final"), span: entry.directive.span };
  }
  if (config.layout !== "official" && config.layout !== "fragment") return null;
  return { value: OFFICIAL_DEFAULT_PIDLOG, path: resolveServerPath(config, OFFICIAL_DEFAULT_PIDLOG, "final"), span: null };
}
