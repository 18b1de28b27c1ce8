// R9: 2.2's lock and mutex directives are gone; 2.4 configures every mutex with `Mutex`.
import { candidateLogs } from "./evidence.ts";
import type { Rule } from "./rule.ts";

const REPLACED: Readonly<Record<string, string>> = {
  acceptmutex: "Mutex MECH mpm-accept",
  lockfile: "Mutex file:DIR mpm-accept",
  rewritelock: "Mutex file:DIR rewrite-map",
  sslmutex: "Mutex MECH ssl-cache",
};

export const R9: Rule = {
  id: "R9",
  seed: ["R9"],
  title: "mutex and lock directives (AcceptMutex, LockFile, RewriteLock, SSLMutex) are replaced by Mutex",
  severity: "blocking",
  owns: { directives: ["AcceptMutex", "LockFile", "RewriteLock", "SSLMutex"] },
  recognise: (evidence) => {
    if (evidence.field !== "configTest" && evidence.field !== "started") return null;
    const refused = candidateLogs(evidence, /Invalid command '(AcceptMutex|LockFile|RewriteLock|SSLMutex)'/i);
    return refused.length > 0 ? { summary: `2.4 refuses ${/'([^']+)'/.exec(refused[0]!.message)?.[1] ?? "a lock directive"}: use Mutex` } : null;
  },
  fix: "Replace with Mutex: LockFile DIR/x → Mutex file:DIR mpm-accept; SSLMutex sem → Mutex sem ssl-cache; RewriteLock → Mutex file:DIR rewrite-map",
  help: "Guide, removed directives: AcceptMutex, LockFile, RewriteLock, SSLMutex, SSLStaplingMutex and WatchdogMutexPath are replaced by the single Mutex directive.",
  sample: { config: "LockFile logs/accept.lock", on24: "refuses" },
};

/** The Mutex line that replaces one of R9's directives, for fix hints. */
export function mutexReplacement(key: string): string | undefined {
  return REPLACED[key.toLowerCase()];
}
