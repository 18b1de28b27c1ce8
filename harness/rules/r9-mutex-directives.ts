// R9: 2.2's lock and mutex directives are gone; 2.4 configures every mutex with `Mutex`.
import { candidateLogs } from "./evidence.ts";
import type { Rule } from "./rule.ts";

// Which mutex each old directive configured (2.4's Mutex names them), and whether its argument is a lock file's
// path (2.4 takes the directory the file goes in) or a mechanism.
const REPLACED: Readonly<Record<string, { mutex: string; argument: "path" | "mechanism" }>> = {
  acceptmutex: { mutex: "mpm-accept", argument: "mechanism" },
  lockfile: { mutex: "mpm-accept", argument: "path" },
  rewritelock: { mutex: "rewrite-map", argument: "path" },
  sslmutex: { mutex: "ssl-cache", argument: "mechanism" },
};

function directoryOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut > 0 ? path.slice(0, cut) : cut === 0 ? "/" : ".";
}

/** The Mutex line that replaces an old directive written with `raw` (its argument as written, ${VAR} kept). */
export function mutexLine(key: string, raw: string): string | null {
  const replaced = REPLACED[key.toLowerCase()];
  if (!replaced) return null;
  if (replaced.argument === "path") return `Mutex file:${directoryOf(raw)} ${replaced.mutex}`;
  // SSLMutex file:/path/x and SSLMutex fcntl:/path/x name a lock file after the mechanism.
  const [mechanism, path] = raw.split(/:(.*)/s);
  if (path !== undefined && path !== "") return `Mutex ${mechanism!.toLowerCase()}:${directoryOf(path)} ${replaced.mutex}`;
  const name = raw.toLowerCase();
  // "none"/"no" (SSLMutex): no mutex; 2.4's ssl-cache mutex default is right then.
  return name === "none" || name === "no" ? null : `Mutex ${name} ${replaced.mutex}`;
}

export const R9: Rule = {
  id: "R9",
  seed: ["R9"],
  title: "mutex and lock directives (AcceptMutex, LockFile, RewriteLock, SSLMutex) are replaced by Mutex",
  severity: "blocking",
  owns: { directives: ["AcceptMutex", "LockFile", "RewriteLock", "SSLMutex"] },
  ownedLine: (node) => {
    // The argument as written keeps ${VAR} unexpanded; its quotes are not part of the path.
    const raw = (node.node.args[0]?.raw ?? "").replace(/^(["'])(.*)\1$/s, "$2");
    const line = mutexLine(node.key, raw);
    return {
      message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 configures this lock with Mutex`,
      fix: line ?? `remove ${node.name}: 2.4's default mutex does its job`,
    };
  },
  recognise: (evidence) => {
    if (evidence.field !== "configTest" && evidence.field !== "started") return null;
    const refused = candidateLogs(evidence, /Invalid command '(AcceptMutex|LockFile|RewriteLock|SSLMutex)'/i);
    return refused.length > 0 ? { summary: `2.4 refuses ${/'([^']+)'/.exec(refused[0]!.message)?.[1] ?? "a lock directive"}: use Mutex` } : null;
  },
  fix: "Replace with Mutex: LockFile DIR/x → Mutex file:DIR mpm-accept; SSLMutex sem → Mutex sem ssl-cache; RewriteLock → Mutex file:DIR rewrite-map",
  help: "Guide, removed directives: AcceptMutex, LockFile, RewriteLock, SSLMutex, SSLStaplingMutex and WatchdogMutexPath are replaced by the single Mutex directive.",
  sample: { config: "LockFile logs/accept.lock", on24: "refuses" },
};
