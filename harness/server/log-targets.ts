// Pure: where a rendered httpd.conf sends its error log and its access log. A fleet's own config usually
// writes them to files (logs/error_log), not to the container's stderr and stdout; the harness then follows
// those files inside the container instead of waiting for lines that never reach the stream.

export interface LogTargets {
  /** A file path expression (may hold ${VAR} the server's environment expands), or null for the stream. */
  errorLog: string | null;
  accessLog: string | null;
}

const STREAMS = /^(?:\/proc\/self\/fd\/[12]|\/dev\/std(?:err|out))$/;

function fileTarget(value: string | undefined, serverRoot: string): string | null {
  if (value === undefined) return null;
  const target = value.replace(/^"(.*)"$/, "$1");
  // Pipes and syslog are not files the harness can follow; the standard streams it already reads.
  if (target.startsWith("|") || /^syslog(:|$)/i.test(target) || STREAMS.test(target)) return null;
  return target.startsWith("/") || target.startsWith("$") ? target : `${serverRoot}/${target}`;
}

/** The first ErrorLog and the first CustomLog/TransferLog outside comments (the main server's, normally). */
export function logTargets(config: string, serverRoot: string): LogTargets {
  const errorLog = /^\s*ErrorLog\s+("[^"]+"|\S+)/im.exec(config)?.[1];
  const accessLog = /^\s*(?:CustomLog|TransferLog)\s+("[^"]+"|\S+)/im.exec(config)?.[1];
  return { errorLog: fileTarget(errorLog, serverRoot), accessLog: fileTarget(accessLog, serverRoot) };
}

/** How often tail looks at a followed file when it cannot use inotify: well inside the attribution windows
 * (httpd-server.ts's quiet window, a batch's gap in observe-side.ts). */
export const POLL_SECONDS = 0.01;

/** The shell that follows log files from their first line, waiting briefly for httpd to create the first. The
 * paths go inside double quotes unescaped so that ${APACHE_LOG_DIR}-style variables expand as httpd expands
 * them. Several files (a tree's per-vhost logs) are followed as one stream of lines, without tail's headers. */
export function followScript(environment: string, paths: string | readonly string[]): string {
  const list = typeof paths === "string" ? [paths] : paths;
  return [...(environment ? [environment] : []), WAIT_FOR_FILE, POLL_IF_NEEDED, `wait_for "${list[0]}"`, `exec ${tailOf(list)}`].join("\n");
}

/** One shell that follows a server's error log on its stdout and its access log on its stderr: one exec per
 * server instead of two (an exec costs the engine tens of milliseconds of CPU; a fleet starts two servers per
 * config). Each file has a tail of its own, so each stream holds its own file's lines as they are written. */
export function followPairScript(environment: string, errorPaths: string | readonly string[], accessPaths: string | readonly string[]): string {
  const errors = typeof errorPaths === "string" ? [errorPaths] : errorPaths;
  const access = typeof accessPaths === "string" ? [accessPaths] : accessPaths;
  return [
    ...(environment ? [environment] : []),
    WAIT_FOR_FILE,
    POLL_IF_NEEDED,
    // The exec's stderr kept as fd 3 for the access tail, whose own errors go nowhere.
    "exec 3>&2",
    `( wait_for "${errors[0]}"; exec ${tailOf(errors)} ) &`,
    `wait_for "${access[0]}"`,
    `exec ${tailOf(access)} 1>&3`,
  ].join("\n");
}

const WAIT_FOR_REST = 'wait_rest() { i=0; for f; do while [ ! -f "$f" ] && [ "$i" -lt 20 ]; do sleep 0.05; i=$((i+1)); done; done; }';
const WAIT_FOR_FILE = 'wait_for() { i=0; while [ ! -f "$1" ] && [ "$i" -lt 200 ]; do sleep 0.05; i=$((i+1)); done; }';

// tail -F waits on inotify; when the engine host's inotify instances run out (128 per user by default, and every
// followed log of every container on the host takes one), coreutils' tail silently polls instead, once a second
// by default: a line then reached the harness after the request's attribution window and was lost. Poll every
// 10 ms in that case (-s is only used without inotify); busybox's -s takes whole seconds.
const POLL_IF_NEEDED = `s=""; tail -s ${POLL_SECONDS} -n 0 /dev/null >/dev/null 2>&1 && s="-s ${POLL_SECONDS}"`;

/** `headers`: tail's `==> file <==` before each file's lines (-v, even for one file); else none (-q). */
function tailOf(paths: readonly string[], headers = false): string {
  return `tail ${headers ? "-v" : "-q"} -n +1 -F $s ${paths.map((path) => `"${path}"`).join(" ")} 2>/dev/null`;
}

/** What a start script prints once it follows the log files itself, and when the image cannot (no tail, or a sed
 * other than GNU's): the server's logs are then followed by an exec of their own. */
export const FOLLOW_STARTED = "@@harness follow-started";
export const FOLLOW_UNSUPPORTED = "@@harness follow-unsupported";
/** The start of each line a start script's follower writes: error-log lines and access-log lines, both on stderr
 * in the order tail read them, apart from httpd's own output on the same stream. */
export const FOLLOWED_ERROR_TAG = "@@harness-log-e ";
export const FOLLOWED_ACCESS_TAG = "@@harness-log-a ";

/** Where httpd's own stderr and stdout go while the start script follows them, for a config that logs to the
 * container's streams (the official images' stock `ErrorLog /proc/self/fd/2` and `CustomLog /proc/self/fd/1`): as
 * files they are followed by the script's one tail with the other logs, so their lines reach the harness in the
 * order httpd wrote them. The engine's two stream copies keep no order between them: under load a request's 2.2
 * error line (no client port, no sub-second time) came more than a quiet window after its access line, and was lost
 * to the request. httpd writes what it wrote before; only where it lands differs (opened for appending, as httpd
 * opens a log named /proc/self/fd/2 again). */
export const STREAM_DIR = "/run/httpd-upgrade-harness";
export interface StreamFiles {
  stderr: string | null;
  stdout: string | null;
}
const NO_STREAM_FILES: StreamFiles = { stderr: null, stdout: null };

/** The files for the streams a config logs to (null: the target is a file, or nothing: that stream stays).
 * `also`: a stream that is a log besides the files (a virtual host's file beside the main server's stream). */
export function streamFiles(targets: { errorLog: unknown; accessLog: unknown }, dir = STREAM_DIR, also?: { error: boolean; access: boolean }): StreamFiles {
  return {
    stderr: targets.errorLog === null || also?.error === true ? `${dir}/stderr` : null,
    stdout: targets.accessLog === null || also?.access === true ? `${dir}/stdout` : null,
  };
}

/** The redirections of httpd's final exec into the stream files, when the script follows them (its follower
 * started: `harness_streams` is set); "" when no stream is a log. Merged, both go to the one file. */
export function streamRedirect(streams: StreamFiles, merged: boolean | string = false): string {
  const to = (file: string) => (merged === false ? file : merged === true ? MERGED_LOG : merged);
  return [streams.stdout === null ? "" : ` >>${to(streams.stdout)}`, streams.stderr === null ? "" : ` 2>>${to(streams.stderr)}`].join("");
}

/** The one file every log goes to when the server's error and access lines can be told apart by their form
 * (scriptMergedFollowLines). */
export const MERGED_LOG = `${STREAM_DIR}/all.log`;

/** The start of an error-log line in 2.2's format and 2.4's default one ("[Mon Dec 07 10:50:10.665538 2026] ["), as
 * a GNU sed basic regular expression. An access line never starts so: its time, if first, is %t's
 * "[07/Dec/2026:10:50:10 +0000]" (a format that starts with a time of its own is not merged: log-capture.ts). */
export const ERROR_LINE_SED = String.raw`^\[\(Mon\|Tue\|Wed\|Thu\|Fri\|Sat\|Sun\) \(Jan\|Feb\|Mar\|Apr\|May\|Jun\|Jul\|Aug\|Sep\|Oct\|Nov\|Dec\) [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\(\.[0-9]*\)\? [0-9]\{4\}\] `;

/** ERROR_LINE_SED as a JavaScript regular expression, for the merged file read after httpd exited. */
export const ERROR_LINE = /^\[(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 0-9][0-9] \d\d:\d\d:\d\d(\.\d*)? \d{4}\] /;

/** Lines for a server's start script that send every log it writes to one file and follow that one: each followed
 * path a link to MERGED_LOG (made before httpd opens it; httpd opens logs for appending, so every line lands in the
 * order it was written, whatever file the config names), httpd's own streams appended to it too, and each line
 * tagged as an error or an access line by its form. Two files read by one tail keep their order only while tail
 * wakes within a batch's gap: on a busy machine it read one file to its end, then the other, and a 2.2 line (no
 * client port) went to the request before its own. One file keeps httpd's order whenever it is read. */
export function scriptMergedFollowLines(errorPaths: readonly string[] | null, accessPaths: readonly string[] | null, streams: StreamFiles = NO_STREAM_FILES, merged = MERGED_LOG): string[] {
  const made = new Set([streams.stderr, streams.stdout].filter((path): path is string => path !== null));
  const paths = [...new Set([...(errorPaths ?? []), ...(accessPaths ?? [])])];
  if (paths.length === 0) return [];
  const linked = paths.filter((path) => !made.has(path));
  const sed = [`-e '/${ERROR_LINE_SED}/{s/^/${FOLLOWED_ERROR_TAG}/p;d;}'`, `-e 's/^/${FOLLOWED_ACCESS_TAG}/p'`].join(" ");
  return [
    "if command -v tail >/dev/null 2>&1 && sed --version 2>/dev/null | grep -q 'GNU sed'; then",
    `  mkdir -p ${merged.slice(0, merged.lastIndexOf("/"))} && : >>${merged}${made.size > 0 ? " && harness_streams=1" : ""}`,
    // The paths go inside double quotes unescaped, so that ${APACHE_LOG_DIR}-style variables expand as httpd's do.
    ...linked.map((path) => `  mkdir -p "$(dirname "${path}")" && rm -f "${path}" && ln -s ${merged} "${path}"`),
    `  ${POLL_IF_NEEDED}`,
    // As scriptFollowLines: httpd signals its process group to restart; the follower ignores it.
    `  ( trap '' HUP USR1 WINCH; tail -q -n +1 -F $s ${merged} 2>/dev/null | sed -u -n ${sed} >&2 ) &`,
    `  echo "${FOLLOW_STARTED}" >&2`,
    "else",
    `  echo "${FOLLOW_UNSUPPORTED}" >&2`,
    "fi",
  ];
}

/** A path in a sed address between `\|` delimiters, inside shell double quotes: regular-expression characters of
 * its literal parts escaped, its ${VAR} parts left for the shell to expand as it does for tail's arguments. */
function sedAddressPath(path: string): string {
  return path
    .split(/(\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/[.[\]*^|]/g, "\\$&")))
    .join("");
}

/** Lines for a server's start script, run just before httpd: every followed file by one tail (in the order
 * inotify reports their writes, which is the order httpd wrote them: a request's error lines before its access
 * line), each line tagged by its kind of log from tail's `==> file <==` headers (sed -u writes each line as it
 * comes), all on stderr. One stream keeps that order to the harness, which places a batch's 2.2 lines, which carry
 * no client port, by the access lines around them (observe/batch-attribution.ts); and no exec per server is needed
 * (an exec costs the engine tens of milliseconds of CPU; a fleet starts two servers per config). */
export function scriptFollowLines(errorPaths: readonly string[] | null, accessPaths: readonly string[] | null, streams: StreamFiles = NO_STREAM_FILES): string[] {
  const errors = errorPaths ?? [];
  const paths = [...errors, ...(accessPaths ?? [])];
  if (paths.length === 0) return [];
  const made = [streams.stderr, streams.stdout].filter((path): path is string => path !== null);
  // -n: only what the last command prints. A header names an error file (E) or not (A), kept in the hold space;
  // the blank line tail writes before each header goes; every other line gets its kind's tag.
  const sed = [
    "-e '/^==> .* <==$/{'",
    ...errors.map((path) => `-e "\\|^==> ${sedAddressPath(path)} <==\\$|{s/.*/E/;h;d;}"`),
    "-e 's/.*/A/;h;d;}'",
    "-e '/^$/d'",
    `-e 'G;s/^\\(.*\\)\\nE$/${FOLLOWED_ERROR_TAG}\\1/p;s/^\\(.*\\)\\nA$/${FOLLOWED_ACCESS_TAG}\\1/p'`,
  ].join(" ");
  return [
    // GNU sed only: its -u writes each line at once; another sed may take -u and still hold lines back.
    "if command -v tail >/dev/null 2>&1 && sed --version 2>/dev/null | grep -q 'GNU sed'; then",
    // The files httpd's own stderr and stdout go to (streamRedirect), made before tail starts on them.
    ...(made.length > 0 ? [`  mkdir -p ${[...new Set(made.map((path) => path.slice(0, path.lastIndexOf("/"))))].join(" ")} && : >>${made.join(" && : >>")} && harness_streams=1`] : []),
    `  ${WAIT_FOR_FILE}`,
    `  ${WAIT_FOR_REST}`,
    `  ${POLL_IF_NEEDED}`,
    // -v: a header even for a single file, so that its first lines have a kind too.
    // The rest waited for too, a second at most in all (httpd opens every log before it serves): tail writes no
    // header before the first lines of a file that appears after it started.
    // httpd signals its whole process group to restart (SIGHUP), restart gracefully (SIGUSR1) or stop gracefully
    // (SIGWINCH): the follower, in that group once httpd is PID 1, ignores them, or a reload (prove's mutants)
    // would end it. Ignored signals stay ignored across exec.
    `  ( trap '' HUP USR1 WINCH; ( wait_for "${paths[0]}"; ${paths.length > 1 ? `wait_rest ${paths.slice(1).map((path) => `"${path}"`).join(" ")}; ` : ""}exec ${tailOf(paths, true)} ) | sed -u -n ${sed} >&2 ) &`,
    `  echo "${FOLLOW_STARTED}" >&2`,
    "else",
    `  echo "${FOLLOW_UNSUPPORTED}" >&2`,
    "fi",
  ];
}
