// The process that holds a run's lease (engine/lease.ts), named where another process can tell whether it still
// lives: the kernel's boot id, the pid namespace, the pid and the process's start time (clock ticks since boot, so a
// pid used again by another process is not taken for it). A run killed with SIGKILL stops renewing its lease, and a
// sweep would wait out the lease and its grace before it removed what the run left; a sweep on the same kernel and in
// the same pid namespace sees at once that the holder is gone, and removes it then. Anywhere else (another machine,
// container or pid namespace, no /proc) the holder cannot be seen, and the lease decides as before.
import { readFileSync, readlinkSync } from "node:fs";

export interface LeaseHolder {
  boot: string;
  pidNamespace: string;
  pid: number;
  /** Field 22 of /proc/<pid>/stat. */
  started: string;
}

/** Pure: the state, start time and pid of /proc/<pid>/stat's text (its comm may hold spaces and parentheses). */
export function parseProcStat(text: string): { pid: number; state: string; started: string } | null {
  const close = text.lastIndexOf(")");
  if (close < 0) return null;
  const pid = Number(text.slice(0, text.indexOf(" ")));
  const fields = text.slice(close + 2).trim().split(/\s+/);
  // Fields from the third (state) on; the start time is the 22nd.
  const state = fields[0];
  const started = fields[19];
  if (!Number.isInteger(pid) || state === undefined || started === undefined) return null;
  return { pid, state, started };
}

/** Pure: a holder as its label writes it (`boot/pidns/pid/started`), and back. */
export function formatHolder(holder: LeaseHolder): string {
  return `${holder.boot}/${holder.pidNamespace}/${holder.pid}/${holder.started}`;
}

export function parseHolder(label: string | undefined): LeaseHolder | null {
  const parts = (label ?? "").split("/");
  if (parts.length !== 4 || parts.some((part) => part === "")) return null;
  const pid = Number(parts[2]);
  return Number.isInteger(pid) && pid > 0 ? { boot: parts[0]!, pidNamespace: parts[1]!, pid, started: parts[3]! } : null;
}

/** Pure: whether `holder` is known gone, seen from `here` (this process, as a holder), given the text of
 * /proc/<holder pid>/stat here (null: no such process). Only a holder on this kernel and in this pid namespace can
 * be known gone: no process with its pid, another process under its pid (another start time), or a zombie. */
export function holderGone(holder: LeaseHolder, here: LeaseHolder | null, stat: string | null): boolean {
  if (here === null || holder.boot !== here.boot || holder.pidNamespace !== here.pidNamespace) return false;
  if (stat === null) return true;
  const seen = parseProcStat(stat);
  if (seen === null) return false;
  return seen.started !== holder.started || seen.state === "Z" || seen.state === "X";
}

let self: LeaseHolder | null | undefined;

/** This process as a lease holder; null where it cannot be named (no /proc, or a /proc of another pid namespace
 * than this process's, whose pids would not be this namespace's). */
export function thisHolder(): LeaseHolder | null {
  if (self !== undefined) return self;
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const pidNamespace = /\[(\d+)\]/.exec(readlinkSync("/proc/self/ns/pid"))?.[1];
    const stat = parseProcStat(readFileSync("/proc/self/stat", "utf8"));
    self = boot !== "" && pidNamespace !== undefined && stat !== null && stat.pid === process.pid ? { boot, pidNamespace, pid: process.pid, started: stat.started } : null;
  } catch {
    self = null;
  }
  return self;
}

/** Whether the holder a lease label names is known gone, from here (see holderGone). Whether a process has the pid
 * is asked with signal 0, which answers for every user's processes (a /proc mounted with hidepid shows only one's
 * own): ESRCH, none; its start time is then read where /proc shows it, else it counts as alive. */
export function leaseHolderGone(label: string | undefined): boolean {
  const holder = parseHolder(label);
  const here = thisHolder();
  if (holder === null || here === null) return false;
  if (holder.boot !== here.boot || holder.pidNamespace !== here.pidNamespace) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return holderGone(holder, here, null);
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${holder.pid}/stat`, "utf8");
  } catch {
    return false;
  }
  return holderGone(holder, here, stat);
}
