// A server host: one container on a lane's seat (server/server-seat.ts) that runs the servers of config after
// config, instead of one container per config. A container costs the engine several times what an exec does, and an
// exec still costs it some 75 ms of CPU (docs/scaling.md); so a host's own process is a command loop (hostLoop) that
// the harness writes to over the container's attach stream: per config, one command stages the config and runs its
// start script (the same script a fresh container runs, start-script.ts), and one wipes what the config left; prove's
// mutants are loaded into the running config by a third (`l`, load). Their
// output comes back on the host's own stdout and stderr, one command at a time: a run's until the wipe is sent, the
// wipe's up to its end line.
//
// Isolation. No config may see another's files, users, processes or IPC objects. The host's own script records, when
// it starts, a manifest of the image's file system (every path with its type, mode and owner) and keeps a pristine
// copy of what configs usually change (/etc: users and groups; the server root's conf, htdocs, cgi-bin and logs;
// /var/www); a config's start script first copies every path of its bundle that the image has into that copy too.
// After the config, the wipe kills every process but the host's own (httpd, its children, the log followers,
// whatever a prepare step left running), removes SysV IPC objects and /dev/shm's files, then compares the file
// system with the manifest: a path the image lacks goes; an image path whose content, type, mode or owner changed,
// or that is gone, comes back from the pristine copy; a directory gets its mode and owner back. An image file that
// changed with no pristine copy cannot be put back: the host is then *tainted* and removed, and the lane's next
// config gets a fresh one. So a host is either as the image made it, or gone. A command's script and its bundle are
// read into the loop's memory and their files removed before the command runs: nothing of one config stays in the
// host's directory for the next.
//
// httpd is not PID 1 in a host (the host's loop is): the start script runs in a subshell whose pid, httpd's once
// it execs, is written to HOST_PID_FILE for a reload (start-script.ts reloadScript), and the wrapper prints the
// subshell's exit status as HOST_EXITED, which ends the server's stderr as a container's end would.
import { StringDecoder } from "node:string_decoder";
import { Writable } from "node:stream";
import { HarnessError } from "../errors.ts";
import { type ContainerSpec, HarnessContainer } from "../engine/container.ts";
import { LineStream } from "../engine/line-stream.ts";
import { log } from "../engine/log.ts";
import type { RunScope } from "../engine/run-scope.ts";
import type { HttpdProfile } from "./httpd-profile.ts";
import { LoopLines } from "./loop-lines.ts";
import { SEAT_PORTS, type ServerSeat } from "./server-seat.ts";
import { MARKER, shellQuote } from "./start-script.ts";

/** Where a host keeps its manifest, its pristine copy and the server's pid; no config's path lies under it. */
export const HOST_DIR = "/run/httpd-upgrade-harness-host";
export const HOST_PID_FILE = `${HOST_DIR}/httpd.pid`;
/** How many configs the host has run so far, the running one included: what shows a config that it shares a host. */
export const HOST_RUNS_FILE = `${HOST_DIR}/runs`;
export const HOST_READY = `${MARKER} host-ready`;
export const HOST_UNSUPPORTED = `${MARKER} host-unsupported`;
/** The wrapper's last line: `@@harness host-exited N`. */
export const HOST_EXITED = `${MARKER} host-exited `;
/** What the host's loop prints once a wipe's script has ended: `@@harness wipe-end STATUS`. */
export const HOST_WIPE_END = `${MARKER} wipe-end `;
/** What the loop's lines after a load (`l`) begin with: `@@harness load-out BASE64`, one per 3,000 characters of
 * the script's output, then `@@harness load-end STATUS`. */
export const HOST_LOAD_PREFIX = `${MARKER} load-`;
export const HOST_LOAD_OUT = `${HOST_LOAD_PREFIX}out `;
export const HOST_LOAD_END = `${HOST_LOAD_PREFIX}end `;
/** The wipe's last line: `@@harness host-clean` or `@@harness host-tainted PATH`. */
export const HOST_CLEAN = `${MARKER} host-clean`;
export const HOST_TAINTED = `${MARKER} host-tainted `;

const EXCLUDED = `\\( -path /proc -o -path /sys -o -path ${HOST_DIR} -o -path /dev/shm -o -path /dev/mqueue -o -path /dev/pts \\) -prune`;

/** What the manifest walks: the container's root file system and /dev, not the kernel's views or the host's own
 * directory. One `path<TAB>type mode uid:gid` line each, in find's order (a directory before what is in it). */
function manifestListing(out: string): string {
  return `LC_ALL=C find / /dev -xdev ${EXCLUDED} -o -printf '%p\\t%y %m %U:%G\\n' > ${out}`;
}

/** What a wipe walks: `KIND<TAB>path<TAB>type mode uid:gid<TAB>ctime` lines, first the host's epoch file (the last
 * wipe's end), then the mount points the engine made of files (/etc/hosts...: written in place, so seen whatever
 * their directory is), then the file system as the manifest has it, but for the directories that are still the
 * image's own. Those are listed as `p` and not entered: on the overlay file system a container's root is, a change
 * anywhere below a directory first copies that directory up into the container's layer, which gives it a new status
 * change time; a directory whose status has not changed since the host began (HOST_DIR/since, two seconds before
 * it: the kernel stamps times with a coarser clock than `date` reads) was never copied up, so nothing below it can
 * differ from the image. So a wipe walks what configs touched (/, /etc, /run, /tmp, the server root...), not the
 * image's thousands of untouched paths. /dev is a tmpfs, not layered: always walked. */
function wipeListing(out: string): string {
  return [
    `harness_since=-1; read -r harness_since < ${HOST_DIR}/since`,
    `harness_mounts=''; while read -r m; do harness_mounts="$harness_mounts $m"; done < ${HOST_DIR}/mounts`,
    `LC_ALL=C find ${HOST_DIR}/epoch $harness_mounts / /dev -xdev ${EXCLUDED} -o -type d ! -newerct "@$harness_since" ! -path / ! -path /dev ! -path '/dev/*' -printf 'p\\t%p\\t%y %m %U:%G\\t%C@\\n' -prune -o -printf 'v\\t%p\\t%y %m %U:%G\\t%C@\\n' > ${out}`,
  ].join("\n");
}

/** Pure: the directories a host copies whole before its first config (those that exist in the image). */
export function pristineRoots(profile: HttpdProfile): string[] {
  const root = profile.serverRoot;
  return [...new Set(["/etc", `${root}/conf`, `${root}/htdocs`, `${root}/cgi-bin`, `${root}/logs`, "/var/www"])];
}

/** Pure: the host's own command. It needs GNU find, sort, comm-free awk and cp -a; where the image lacks them it
 * says HOST_UNSUPPORTED and the image's servers get a container each. Then it reaps orphans (processes whose
 * parent was a config's exec) for good. */
export function hostScript(profile: HttpdProfile): string {
  const roots = pristineRoots(profile).map(shellQuote).join(" ");
  return [
    `if ! find / -maxdepth 0 -newerct @0 -printf '' >/dev/null 2>&1 || ! command -v awk >/dev/null 2>&1 || ! command -v sort >/dev/null 2>&1 || ! cp --version >/dev/null 2>&1 || ! head --version >/dev/null 2>&1 || ! xargs -d '\\n' true </dev/null >/dev/null 2>&1; then echo "${HOST_UNSUPPORTED}"; exec sleep 3600; fi`,
    // Before the host writes anything (its own directory copies / and /run up): what a wipe's listing takes for the
    // image's own directories (wipeListing). No date: nothing is taken for the image's own, every directory walked.
    "harness_since=$(( $(date +%s 2>/dev/null || echo 1) - 2 ))",
    `mkdir -p ${HOST_DIR}/pristine`,
    `echo "$harness_since" > ${HOST_DIR}/since`,
    // The engine's file mounts (its /etc/hosts, /etc/resolv.conf, /etc/hostname), for every wipe's listing.
    `awk '$5 != "/" && $5 !~ /^\\/(proc|sys|dev)(\\/|$)/ && $5 !~ /\\\\/ { print $5 }' /proc/self/mountinfo | while read -r m; do [ -d "$m" ] || echo "$m"; done > ${HOST_DIR}/mounts`,
    manifestListing(`${HOST_DIR}/manifest`),
    // (GNU cp 9.1 may say it could not set a parent's attributes in the copy: the copy is made all the same.)
    `for d in ${roots}; do [ -d "$d" ] && cp -a --parents "$d" ${HOST_DIR}/pristine 2>/dev/null; done`,
    `echo > ${HOST_DIR}/epoch`,
    `echo "${HOST_READY}"`,
    // TERM from the engine's stop is not waited for: the host holds nothing worth a graceful end.
    "trap 'exit 0' TERM",
    hostLoop(),
  ].join("\n");
}

/** Pure: the host's command loop, reading the harness's commands from its stdin (the attach stream), one at a time:
 *
 *     r SCRIPT_BYTES ARG_BYTES\n<script><arg>   run the script in the background, with the arg as $1 (none: -1)
 *     w SCRIPT_BYTES\n<script>                  run the script to its end, then print HOST_WIPE_END and its status
 *     l SCRIPT_BYTES\n<script>                  run the script to its end beside the running config (a mutant's
 *                                               reload), its output to a file; then print that output and its status
 *                                               as HOST_LOAD_OUT and HOST_LOAD_END lines
 *
 * `read` (a byte at a time) takes the header, GNU `head -c` exactly the payload's bytes. The script and its arg are
 * read into the loop's variables and their files removed before the command starts (the config must not find its
 * own command, nor the next config the last one's bundle). A run's stdin is /dev/null: the stream is the loop's.
 * Signals httpd sends its process group reach this loop too; as PID 1 it has no handler for them, so the kernel
 * drops them. Orphans it adopts are taken when it next waits for a command.
 *
 * A load runs while the config's processes write to the same stdout, so its output does not go there as it comes:
 * the loop prints it afterwards in lines that begin with HOST_LOAD_PREFIX, base64 in pieces of 3,000 characters, each
 * line one printf of the shell (one write, below the pipe's atomic size), so no other writer's bytes can come into
 * one (server/loop-lines.ts takes them out of the config's stdout). The load's processes ignore HUP, USR1 and WINCH:
 * a reload's restart makes httpd signal its whole process group, the host's included, and a signal must not end the
 * load before it has said how it ended. */
export function hostLoop(dir = HOST_DIR): string {
  return [
    "while read -r harness_cmd harness_a harness_b; do",
    '  case "$harness_cmd" in',
    `    r) head -c "$harness_a" > ${dir}/job; harness_job=$(cat ${dir}/job); rm -f ${dir}/job`,
    `       if [ "$harness_b" -ge 0 ]; then head -c "$harness_b" > ${dir}/arg; harness_arg=$(cat ${dir}/arg); rm -f ${dir}/arg`,
    '         sh -c "$harness_job" httpd-upgrade-harness "$harness_arg" </dev/null &',
    '       else sh -c "$harness_job" httpd-upgrade-harness </dev/null &',
    "       fi",
    "       harness_job=''; harness_arg='' ;;",
    `    w) head -c "$harness_a" > ${dir}/job; harness_job=$(cat ${dir}/job); rm -f ${dir}/job`,
    '       sh -c "$harness_job" </dev/null; harness_rc=$?; harness_job=\'\'',
    `       printf '\\n%s%s\\n' "${HOST_WIPE_END}" "$harness_rc" ;;`,
    // (No file for a load's script: read straight into the variable, a cat and an rm fewer per mutant.)
    '    l) harness_job=$(head -c "$harness_a")',
    `       ( trap '' HUP USR1 WINCH; sh -c "$harness_job" </dev/null >${dir}/load 2>&1; harness_rc=$?`,
    `         base64 -w 3000 ${dir}/load | while read -r harness_l; do printf '%s%s\\n' "${HOST_LOAD_OUT}" "$harness_l"; done; rm -f ${dir}/load`,
    `         printf '%s%s\\n' "${HOST_LOAD_END}" "$harness_rc" ); harness_job='' ;;`,
    `    *) printf '\\n%s\\n' "${MARKER} host-unknown-command" >&2 ;;`,
    "  esac",
    "done",
  ].join("\n");
}

/** Pure: lines a config's run starts with: a pristine copy of each path of its bundle the image has (an image file
 * the bundle replaces, such as the stock httpd.conf), unless one is kept already. */
export function backupLines(paths: readonly string[], dir = HOST_DIR): string[] {
  if (paths.length === 0) return [];
  return [
    `for p in ${paths.map(shellQuote).join(" ")}; do if { [ -e "$p" ] || [ -L "$p" ]; } && ! { [ -e "${dir}/pristine$p" ] || [ -L "${dir}/pristine$p" ]; }; then cp -a --parents "$p" ${dir}/pristine 2>/dev/null; fi; done`,
  ];
}

/** Pure: the shell an exec runs for one config in a host: the backups, then the start script in a subshell (its
 * own `exec` makes the subshell httpd), the pid recorded, and its exit status printed when it ends. Signals httpd
 * sends its process group on a restart are caught (not ignored, so that httpd does not inherit them ignored). */
export function hostRunScript(backups: readonly string[], script: string, dir = HOST_DIR): string {
  return [
    ...backupLines(backups, dir),
    // How many configs the host has run, this one included (HOST_RUNS_FILE).
    `harness_runs=0; [ -s ${dir}/runs ] && read -r harness_runs < ${dir}/runs; echo $((harness_runs + 1)) > ${dir}/runs`,
    `(\n${script}\n) &`,
    "harness_pid=$!",
    `echo "$harness_pid" > ${dir}/httpd.pid`,
    "trap 'true' HUP USR1 WINCH",
    // A caught signal interrupts wait; a process that ended is a zombie until waited for, so kill -0 still finds it.
    'while :; do wait "$harness_pid"; harness_rc=$?; kill -0 "$harness_pid" 2>/dev/null || break; done',
    `echo "${HOST_EXITED}$harness_rc" >&2`,
  ].join("\n");
}

/** Pure: the wipe (see the header). Prints HOST_CLEAN, or HOST_TAINTED with the first path it could not put back. */
export function wipeScript(): string {
  const h = HOST_DIR;
  // Actions by path, from the manifest (M), the pristine copy (B), the listing now (N) and the paths whose status
  // changed since the last wipe (C, from the listing's ctimes): rm (not the image's), dir (a directory's mode and
  // owner), restore (from the pristine copy), taint (an image path changed with no copy). The manifest's paths below
  // a directory the listing did not enter (PR: the image's own, wipeListing) are as the image has them, and are
  // not looked at: find's order puts a directory's paths right after it.
  const awk = [
    "BEGIN { FS = \"\\t\" }",
    // Mount points (the engine's /etc/hosts, /etc/resolv.conf and /etc/hostname): not removable, so a changed one is
    // written over in place.
    'FILENAME == ARGV[1] { split($0, f, " "); MP[f[5]] = 1; next }',
    // A path whose status changed after the epoch (the last wipe's end): its content may differ. Directories change
    // with their entries (those are looked at one by one), and device nodes with their use.
    'FILENAME == ARGV[2] && FNR == 1 { E = $4; next }',
    'FILENAME == ARGV[2] { if ($1 == "p") PR[$2] = 1; N[$2] = $3; if ($4 > E && $3 !~ /^[dcb] /) C[$2] = 1; next }',
    'FILENAME == ARGV[3] { B[$1] = 1; next }',
    'FILENAME == ARGV[4] && skip != "" && index($1, skip) == 1 { if ($1 in MP) M[$1] = $2; next }',
    'FILENAME == ARGV[4] { skip = ($1 in PR) ? $1 "/" : ""; M[$1] = $2; next }',
    "END {",
    '  for (p in N) if (!(p in M)) print "rm\\t" p',
    "  for (p in M) {",
    "    split(M[p], m, \" \")",
    '    if ((p in N) && N[p] == M[p] && !(p in C)) continue',
    '    if (m[1] == "d") { print "dir\\t" p "\\t" m[2] "\\t" m[3]; continue }',
    // A directory in the way of a restored path goes first (with the rest of the rm lines).
    '    if ((p in B) && (p in MP)) { print "overwrite\\t" p; continue }',
    '    if (p in B) { if ((p in N) && N[p] ~ /^d /) print "rm\\t" p; print "restore\\t" p; continue }',
    '    print "taint\\t" p',
    "  }",
    "}",
  ].join("\n");
  return [
    // (Builtins only where it can: a process costs the container a fork and an exec, and a wipe runs after every config.)
    // When each step ended, in ms since the wipe began, for the log: the kernel's uptime, in hundredths.
    'harness_now() { read -r harness_u _ < /proc/uptime; harness_u=${harness_u%.*}${harness_u#*.}; }',
    "harness_now; harness_t0=$harness_u",
    // Every process but the host's reaper (1) and this shell; then wait for them to be gone (zombies are the
    // reaper's to take).
    // The processes there are now (the reaper's own sleep is made again as soon as it is killed: not waited for).
    'before=""; for p in /proc/[0-9]*; do n=${p#/proc/}; [ "$n" = 1 ] || [ "$n" = $$ ] || before="$before $n"; done',
    "kill -KILL -1 2>/dev/null",
    'i=0; while [ $i -lt 250 ]; do alive=0; for n in $before; do { read -r s < "/proc/$n/stat"; } 2>/dev/null || continue; s=${s##*) }; [ "${s%% *}" = Z ] || alive=1; done; [ $alive = 0 ] && break; sleep 0.02; i=$((i+1)); done',
    `[ $alive = 0 ] || { echo "${HOST_TAINTED}processes"; exit 1; }`,
    "harness_now; harness_killed=$(( (harness_u - harness_t0) * 10 ))",
    "command -v ipcrm >/dev/null 2>&1 && ipcrm -a 2>/dev/null",
    "rm -rf /dev/shm/* /dev/shm/.[!.]* /dev/mqueue/* 2>/dev/null",
    "cd /",
    wipeListing(`${h}/now`),
    `(cd ${h}/pristine && LC_ALL=C find . -mindepth 1 -printf '/%P\\n') > ${h}/kept`,
    `awk ${shellQuote(awk)} /proc/self/mountinfo ${h}/now ${h}/kept ${h}/manifest | LC_ALL=C sort -t "$(printf '\\t')" -k2,2 > ${h}/actions`,
    "harness_now; harness_listed=$(( (harness_u - harness_t0) * 10 ))",
    "tainted=''",
    // One rm and one cp for all the paths (a process each was most of a wipe's time on a busy machine): what goes,
    // then directories (sorted by path: a directory before what is in it) get their mode and owner back, then the
    // pristine copies come back, each with the parents it needs.
    `harness_actions=$(awk -F '\\t' -v h=${h} 'END { print NR } $1 == "rm" { print $2 > (h "/rm") } $1 == "dir" { print > (h "/dirs") } $1 == "restore" { print substr($2, 2) > (h "/restore") } $1 == "overwrite" { print $2 > (h "/overwrite") } $1 == "taint" { print $2 > (h "/taint") }' ${h}/actions)`,
    `[ -s ${h}/rm ] && xargs -d '\\n' rm -rf -- < ${h}/rm`,
    `if [ -s ${h}/dirs ]; then tab="$(printf '\\t')"; while IFS="$tab" read -r what p mode owner; do`,
    '  if [ -L "$p" ] || { [ -e "$p" ] && [ ! -d "$p" ]; }; then rm -rf -- "$p"; fi; mkdir -p -- "$p" && chmod "$mode" -- "$p" && chown "$owner" -- "$p" || tainted="${tainted:-$p}"',
    `done < ${h}/dirs; fi`,
    `if [ -s ${h}/restore ]; then (cd ${h}/pristine && xargs -d '\\n' cp -a --parents --remove-destination -t / -- < ${h}/restore) || tainted="\${tainted:-$(head -n 1 ${h}/restore)}"; fi`,
    `if [ -s ${h}/overwrite ]; then while read -r p; do cp -a -- "${h}/pristine$p" "$p" || tainted="\${tainted:-$p}"; done < ${h}/overwrite; fi`,
    `[ -s ${h}/taint ] && tainted="\${tainted:-$(head -n 1 ${h}/taint)}"`,
    // Nothing of this config's stays in the host's own directory either (the lists name its paths).
    `rm -f ${h}/now ${h}/kept ${h}/actions ${h}/rm ${h}/dirs ${h}/restore ${h}/overwrite ${h}/taint ${HOST_PID_FILE}`,
    // The epoch: what the next wipe's listing compares status change times with (written, so its times move). The
    // kernel stamps times by its tick (up to 10 ms): a change in the tick of the epoch's write would look as old as
    // the epoch, so the next config waits for the tick to pass.
    `echo > ${h}/epoch`,
    "sleep 0.02",
    "harness_now",
    `echo "${MARKER} wipe-ms killed=$harness_killed listed=$harness_listed done=$(( (harness_u - harness_t0) * 10 )) actions=$harness_actions"`,
    `if [ -n "$tainted" ]; then echo "${HOST_TAINTED}$tainted"; else echo "${HOST_CLEAN}"; fi`,
  ].join("\n");
}

/** A config's server running in a host: its output as a container's would be, and its end. */
export interface HostProcess {
  stdout: LineStream;
  /** Ends when the start script ended (HOST_EXITED), as a container's stderr ends with its main process. */
  stderr: LineStream;
  exited: Promise<number | null>;
}

export class ServerHost {
  /** Taken by a config: claimed for it, running it, or wiping after it. */
  #busy = false;
  #gone = false;
  /** The wipe after the last config, running in the background (release). */
  #wiping: Promise<boolean> | null = null;
  /** Ends the running config's output streams (its command's output ends where the wipe's begins). */
  #endRun: (() => void) | null = null;
  /** The load (`l`) the loop is running beside the config, waiting for its lines. */
  #load: { pieces: string[]; done: (outcome: { status: number; output: Buffer } | Error) => void } | null = null;

  private constructor(
    readonly container: HarnessContainer,
    readonly image: string,
    /** The seat's holder whose namespace the host joined. */
    readonly seatId: string,
  ) {}

  /** A host on a seat, ready for its first config; null where the image cannot be a host (no GNU find, awk, sort
   * or cp). */
  static async open(scope: RunScope, spec: { image: string; profile: HttpdProfile; seatId: string; label: string }): Promise<ServerHost | null> {
    const container = await HarnessContainer.create(scope, { ...ServerHost.#spec(spec), joinNetworkOf: spec.seatId });
    try {
      if (!(await ServerHost.#started(container, spec.image))) return null;
    } catch (error) {
      await container.remove();
      throw error;
    }
    return new ServerHost(container, spec.image, spec.seatId);
  }

  /** A host that is its own seat (server-seat.ts): on the lane's network itself, with the seat's ports, instead of a
   * seat's holder and a host that joins it, two containers. Only for a seat without IPv6, whose holder sends
   * nothing (a local client's requests need the tools image's agent); null where the image cannot be a host. */
  static async openSeat(scope: RunScope, spec: { image: string; profile: HttpdProfile; network: string; label: string; publish: boolean }): Promise<{ seat: ServerSeat; host: ServerHost } | null> {
    const publishes = spec.publish ? SEAT_PORTS : [];
    const container = await HarnessContainer.create(scope, { ...ServerHost.#spec(spec), publish: [...publishes], network: { name: spec.network, aliases: [] }, ipv6: false });
    try {
      if (!(await ServerHost.#started(container, spec.image))) return null;
      const address = await container.ipAddress(spec.network).catch(() => null);
      const published = publishes.length > 0 ? await container.mappedPorts(publishes) : new Map<number, number>();
      const seat: ServerSeat = { containerId: container.id, holder: container, publishes, published, address };
      return { seat, host: new ServerHost(container, spec.image, container.id) };
    } catch (error) {
      await container.remove();
      throw error;
    }
  }

  /** What every host's container is, wherever its network comes from: the image's shell running the host's script,
   * its stdin open to the harness (hostLoop). */
  static #spec(spec: { image: string; profile: HttpdProfile; label: string }): ContainerSpec {
    return { image: spec.image, role: "server", scenario: spec.label, entrypoint: ["/bin/sh", "-c"], command: [hostScript(spec.profile)], attached: true };
  }

  /** Starts a host's container; whether its script said it is ready (a container that cannot host is removed). */
  static async #started(container: HarnessContainer, image: string): Promise<boolean> {
    await container.start();
    const said = await container.stdout.waitForLine((line) => line === HOST_READY || line === HOST_UNSUPPORTED, { timeoutMs: 60_000 });
    if (said >= 0 && container.stdout.lines[said] === HOST_READY) return true;
    log("[%s] %s cannot host servers: %s", container.shortId, image, said < 0 ? "no answer" : "no GNU find, awk, sort, xargs or cp");
    await container.remove();
    return false;
  }

  /** Whether it is its seat's holder (openSeat): removing it removes the seat. */
  get isSeat(): boolean {
    return this.container.id === this.seatId;
  }

  /** Waits for the last config's wipe, if one runs (whether the host is still there is `gone`). */
  async settled(): Promise<void> {
    if (this.#wiping !== null) await this.#wiping;
  }

  get busy(): boolean {
    return this.#busy;
  }

  get gone(): boolean {
    return this.#gone;
  }

  /** Takes the host for a config once the last config's wipe (if one runs) is done: true when it is the caller's
   * now; false when another took it, or it could not be put back (then it is gone). */
  async take(): Promise<boolean> {
    if (this.#wiping !== null) await this.#wiping;
    if (this.#gone || this.#busy) return false;
    this.#busy = true;
    return true;
  }

  /** Gives back a host taken for a config that then ran elsewhere (a bundle too large for the command line). */
  giveBack(): void {
    if (this.#wiping === null) this.#busy = false;
  }

  /** Ends the config's processes and wipes what it left, in the background: the config's result does not wait for
   * it, and the next config on the host (take) does, while it is planned and its networks and clients are made.
   * A host that cannot be put back is removed (wipe). */
  release(): void {
    if (this.#gone || this.#wiping !== null) return;
    this.#wiping = this.wipe().finally(() => {
      this.#wiping = null;
    });
  }

  /** Runs one config's start script (hostRunScript) with its bundle as $1, as a fresh container would run it: sent
   * to the host's loop (hostLoop), its output the host's until the wipe. */
  async run(script: string, backups: readonly string[], bundle: string | null): Promise<HostProcess> {
    this.#busy = true;
    const stdout = new LineStream();
    const stderr = new LineStream();
    let resolveExit: (code: number | null) => void = () => undefined;
    const exited = new Promise<number | null>((resolve) => {
      resolveExit = resolve;
    });
    // Lines pass on as they come until the wrapper's last one; the log followers may outlive httpd and write on
    // until the wipe, so the end of httpd is the wrapper's word, not the end of the host's output.
    const decoder = new StringDecoder("utf8");
    let partial = "";
    let done = false;
    const finish = (code: number | null): void => {
      if (done) return;
      done = true;
      stderr.end();
      resolveExit(code);
    };
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        if (!done) {
          const text = partial + decoder.write(chunk);
          const at = text.indexOf(HOST_EXITED);
          const lineStart = at < 0 ? -1 : at === 0 || text[at - 1] === "\n" ? at : -1;
          const close = lineStart < 0 ? -1 : text.indexOf("\n", lineStart);
          if (close >= 0) {
            stderr.push(text.slice(0, lineStart));
            finish(Number(text.slice(lineStart + HOST_EXITED.length, close)));
          } else {
            // Held back only while a line might still turn out to be the wrapper's last one.
            const cut = text.lastIndexOf("\n") + 1;
            partial = text.slice(cut);
            stderr.push(text.slice(0, cut));
          }
        }
        callback();
      },
      final: (callback) => {
        if (!done) stderr.push(partial);
        finish(null);
        callback();
      },
    });
    let ended = false;
    // The loop's answers to a load take no part in the config's stdout.
    const loopLines = new LoopLines(HOST_LOAD_PREFIX, (line) => this.#loadLine(line));
    const end = (): void => {
      if (ended) return;
      ended = true;
      const held = loopLines.end();
      if (held.length > 0) stdout.sink.write(held);
      stdout.sink.end();
      sink.end();
      this.#load?.done(new HarnessError("HARNESS_CONTAINER", `Server host ${this.container.shortId} ended its config's output during a load.`));
    };
    this.#endRun = end;
    this.container.routeOutput({
      stdout: (chunk) => {
        if (ended) return;
        const passed = loopLines.push(chunk);
        if (passed.length > 0) stdout.sink.write(Buffer.from(passed));
      },
      stderr: (chunk) => {
        if (!ended) sink.write(Buffer.from(chunk));
      },
      end,
    });
    const job = Buffer.from(hostRunScript(backups, script), "utf8");
    const arg = bundle === null ? null : Buffer.from(bundle, "utf8");
    // A host whose stream is gone has ended the route: the server "exited" without a word, as a dead container's.
    this.container.write(Buffer.concat([Buffer.from(`r ${job.length} ${arg === null ? -1 : arg.length}\n`), job, ...(arg === null ? [] : [arg])]));
    return { stdout, stderr, exited };
  }

  /** Runs a script beside the running config (the loop's `l`: a mutant's reload, start-script.ts reloadScript), to
   * its end: its exit status and its output, stdout and stderr together, kept apart from the config's own streams.
   * No `docker exec`: one costs the engine some 75 ms of CPU. Only while a config runs (after run, before the wipe);
   * one load at a time. */
  load(script: string, timeoutMs: number): Promise<{ status: number; output: Buffer }> {
    if (this.#gone || this.#endRun === null) return Promise.reject(new HarnessError("HARNESS_INTERNAL", `Server host ${this.container.shortId} runs no config to load into.`));
    if (this.#load !== null) return Promise.reject(new HarnessError("HARNESS_INTERNAL", `Server host ${this.container.shortId} is already loading.`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new HarnessError("HARNESS_CONTAINER", `A load into server host ${this.container.shortId} did not end within ${timeoutMs / 1000} s.`)), timeoutMs);
      const done = (outcome: { status: number; output: Buffer } | Error): void => {
        if (this.#load?.done !== done) return;
        this.#load = null;
        clearTimeout(timer);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      this.#load = { pieces: [], done };
      const job = Buffer.from(script, "utf8");
      this.container.write(Buffer.concat([Buffer.from(`l ${job.length}\n`), job]));
    });
  }

  /** One of the loop's lines after a load: a piece of its output, or its end with the status. */
  #loadLine(line: string): void {
    const load = this.#load;
    if (load === null) {
      log("[%s] host: a load line with no load waiting: %s", this.container.shortId, line.slice(0, 120));
      return;
    }
    if (line.startsWith(HOST_LOAD_OUT)) load.pieces.push(line.slice(HOST_LOAD_OUT.length));
    else if (line.startsWith(HOST_LOAD_END)) load.done({ status: Number(line.slice(HOST_LOAD_END.length)), output: Buffer.from(load.pieces.join(""), "base64") });
  }

  /** Ends the config's processes and wipes what it left; false (and the host removed) when it cannot be put back. */
  async wipe(): Promise<boolean> {
    if (this.#gone) return false;
    try {
      const started = Date.now();
      const result = await this.#sendWipe(60_000);
      const said = result.lines.filter((line) => line.trim() !== "");
      const last = said.at(-1) ?? "";
      if (result.status === 0 && last === HOST_CLEAN) {
        log("[%s] host wiped in %d ms (%s)", this.container.shortId, Date.now() - started, said.find((line) => line.startsWith(`${MARKER} wipe-ms`))?.slice(MARKER.length + 1) ?? "");
        this.#busy = false;
        return true;
      }
      log("[%s] host not reusable: %s", this.container.shortId, last.startsWith(HOST_TAINTED) ? last : `wipe exited ${result.status}: ${said.slice(-3).join(" | ")}`);
    } catch (error) {
      log("[%s] host wipe failed: %s", this.container.shortId, error);
    }
    await this.remove().catch((error: unknown) => log("[%s] host not removed: %s", this.container.shortId, error));
    return false;
  }

  /** Sends the wipe to the host's loop and collects its stdout up to the loop's HOST_WIPE_END line: the last
   * config's output ends here (what its log followers still wrote comes first, and is not the wipe's word). */
  #sendWipe(timeoutMs: number): Promise<{ lines: string[]; status: number }> {
    this.#endRun?.();
    this.#endRun = null;
    return new Promise((resolve, reject) => {
      const decoder = new StringDecoder("utf8");
      const lines: string[] = [];
      let text = "";
      let settled = false;
      const settle = (outcome: { status: number } | Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Until the next config, what the host says goes nowhere (it says nothing).
        this.container.routeOutput({ stdout: () => undefined, stderr: () => undefined, end: () => undefined });
        if (outcome instanceof Error) reject(outcome);
        else resolve({ lines, status: outcome.status });
      };
      const timer = setTimeout(() => settle(new HarnessError("HARNESS_CONTAINER", `The wipe of server host ${this.container.shortId} did not end within ${timeoutMs / 1000} s.`)), timeoutMs);
      this.container.routeOutput({
        stdout: (chunk) => {
          text += decoder.write(chunk);
          for (let nl = text.indexOf("\n"); nl >= 0 && !settled; nl = text.indexOf("\n")) {
            const line = text.slice(0, nl);
            text = text.slice(nl + 1);
            if (line.startsWith(HOST_WIPE_END)) settle({ status: Number(line.slice(HOST_WIPE_END.length)) });
            else lines.push(line);
          }
        },
        stderr: () => undefined,
        end: () => settle(new HarnessError("HARNESS_CONTAINER", `Server host ${this.container.shortId} ended during its wipe.`)),
      });
      const job = Buffer.from(wipeScript(), "utf8");
      this.container.write(Buffer.concat([Buffer.from(`w ${job.length}\n`), job]));
    });
  }

  async remove(): Promise<void> {
    if (this.#gone) return;
    this.#gone = true;
    await this.container.remove();
  }
}
