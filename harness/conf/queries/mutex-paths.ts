// The lock files a config places: 2.4's Mutex, 2.2's LockFile, AcceptMutex and SSLMutex.
// - Mutex mechanism[:dir] [type ...] [OmitPID] (2.4 util_mutex.c ap_set_mutex/ap_parse_mutex): the directory is
//   made absolute against the ServerRoot as the line is read; with posixsem/sem the part after `:` is a name,
//   not a path; none/no turns the mutex off.
// - SSLMutex mechanism[:file] (2.2 ssl_engine_config.c ssl_cmd_SSLMutex): the same split, the file resolved as
//   the line is read.
// - LockFile path (2.2 mpm_common.c ap_mpm_set_lockfile): resolved when the MPM opens it (prefork.c), so
//   against the final ServerRoot; httpd appends ".<pid>".
// - AcceptMutex mechanism (2.2): a mechanism only, no path.
import type { EffectiveConfig } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { resolveServerPath } from "./server-root.ts";
import { serverDirectives } from "./walk-config.ts";

export interface MutexPath {
  directive: "Mutex" | "LockFile" | "AcceptMutex" | "SSLMutex";
  /** The mechanism as written (lower-cased); null for LockFile. */
  mechanism: string | null;
  /** Mutex: the mutex types it sets (["default"] when none is named). */
  types: string[];
  /** Mutex: a directory; LockFile/SSLMutex: a file; absolute inside the server. null when no path is given. */
  path: string | null;
  span: Span;
}

const SEMAPHORES = new Set(["posixsem", "sem"]);

function mechanismAndPath(config: EffectiveConfig, text: string, index: number): { mechanism: string; path: string | null } {
  const colon = text.indexOf(":");
  const mechanism = (colon < 0 ? text : text.slice(0, colon)).toLowerCase();
  const file = colon < 0 ? "" : text.slice(colon + 1);
  if (file === "" || SEMAPHORES.has(mechanism) || mechanism === "none" || mechanism === "no") return { mechanism, path: null };
  return { mechanism, path: resolveServerPath(config, file, { readAt: index }) };
}

export function mutexPaths(config: EffectiveConfig): MutexPath[] {
  return serverDirectives(config, null, "mutex", "lockfile", "acceptmutex", "sslmutex").flatMap((entry): MutexPath[] => {
    const [first, ...rest] = entry.directive.args;
    if (first === undefined) return [];
    const span = entry.directive.span;
    switch (entry.directive.key) {
      case "mutex": {
        const types = rest.filter((word) => word.toLowerCase() !== "omitpid");
        return [{ directive: "Mutex", ...mechanismAndPath(config, first, entry.index), types: types.length > 0 ? types : ["default"], span }];
      }
      case "sslmutex":
        return [{ directive: "SSLMutex", ...mechanismAndPath(config, first, entry.index), types: [], span }];
      case "lockfile":
        return [{ directive: "LockFile", mechanism: null, types: [], path: resolveServerPath(config, first, "final"), span }];
      default:
        return [{ directive: "AcceptMutex", mechanism: first.toLowerCase(), types: [], path: null, span }];
    }
  });
}
