// Pure: the shell script a server container runs. It keeps the three phases apart on stderr with marker
// lines, so one container yields the prepare output, the config test and then the error log proper.
import type { HttpdProfile } from "./httpd-profile.ts";

export const MARKER = "@@harness";

/** What a configuration tree adds to the image's way of starting httpd. */
export interface StartExtras {
  /** Arguments for both the config test and the start (-d, -f, -D, -C). */
  args: readonly string[];
  /** Exported before anything runs (a Debian tree's envvars, as the model evaluated them). */
  environment: Readonly<Record<string, string>>;
  /** Shell lines run before prepare (the harness's stubs). */
  setup: readonly string[];
}

const NO_EXTRAS: StartExtras = { args: [], environment: {}, setup: [] };

/** Single-quoted for sh. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** The exit status of a start script whose image cannot extract a bundle itself (no base64 or tar, or no gzip for
 * a gzipped one): the server is started again with its bundle copied in by the engine (or sent plain). */
export const STAGE_UNSUPPORTED_EXIT = 98;

/** Lines that extract the bundle passed as the script's first argument (base64 of a tar archive, gzipped when
 * `gzip`) at `root` (/ but in tests), as the engine's archive copy would: owners and modes from the archive,
 * parents made 0755. Nothing else may see the argument: `set --` drops it before prepare and httpd run. */
export function stagingLines(root = "/", gzip = false): string[] {
  const tools = ["base64", "tar", ...(gzip ? ["gzip"] : [])].map((tool) => `! command -v ${tool} >/dev/null 2>&1`).join(" || ");
  return [
    `if ${tools}; then echo "${MARKER} stage-unsupported" >&2; exit ${STAGE_UNSUPPORTED_EXIT}; fi`,
    `printf '%s' "$1" | base64 -d |${gzip ? " gzip -dc |" : ""} tar -xf - -C ${shellQuote(root)} || { echo "${MARKER} stage-failed" >&2; exit ${STAGE_UNSUPPORTED_EXIT + 1}; }`,
    "set --",
  ];
}

/** Pure: whether the staging lines stopped the script (from its stderr lines so far). */
export function stagingFailure(stderr: readonly string[]): "unsupported" | "failed" | null {
  if (stderr.includes(`${MARKER} stage-unsupported`)) return "unsupported";
  if (stderr.includes(`${MARKER} stage-failed`)) return "failed";
  return null;
}

/** `staged`: whether the script extracts the bundle itself (its first argument) before anything else, and whether
 * that is gzipped; `follow`: lines run just before httpd starts (log-targets.ts scriptFollowLines). */
export function startScript(
  profile: HttpdProfile,
  prepare: string[],
  extras: StartExtras = NO_EXTRAS,
  staged: { gzip: boolean } | null = null,
  follow: readonly string[] = [],
  /** Redirections of httpd's stdout and stderr into files its follower reads (log-targets.ts streamRedirect),
   * made when the follower started. */
  redirect = "",
): string {
  const exports = Object.entries(extras.environment).map(([name, value]) => `export ${name}=${shellQuote(value)}`);
  const args = extras.args.map(shellQuote).join(" ");
  const binary = args ? `${profile.binary} ${args}` : profile.binary;
  const lines = [...(staged ? stagingLines("/", staged.gzip) : []), ...(profile.environment ? [profile.environment] : []), ...exports, profile.preStart, ...extras.setup, `cd ${profile.serverRoot}`];
  prepare.forEach((command, index) => {
    lines.push(
      `echo "${MARKER} prepare-begin ${index}" >&2`,
      // The newline before the marker keeps it at a line start after output that lacks a final newline.
      `( ${command} ) >&2 2>&1; printf '\\n%s\\n' "${MARKER} prepare-end ${index} exit=$?" >&2`,
    );
  });
  lines.push(
    `${binary} -t >&2 2>&1; rc=$?`,
    `printf '\\n%s\\n' "${MARKER} config-test exit=$rc" >&2`,
    `[ "$rc" = 0 ] || exit "$rc"`,
    ...follow,
    ...(redirect ? [`[ -n "\${harness_streams:-}" ] && exec ${binary} -DFOREGROUND${redirect}`] : []),
    `exec ${binary} -DFOREGROUND`,
  );
  return lines.join("\n");
}

/** The line a reload script ends its config test with: `@@harness reload-test exit=N`. */
export const RELOAD_TEST = `${MARKER} reload-test exit=`;

/** The shell that loads a variant of the config into a running server: its changed files written (base64, as given
 * on stdin's script itself), the files it lacks removed, the config test run as the start script runs it, and when
 * it passes, httpd (PID 1) restarted on it with SIGHUP: children stopped, the config read again, listeners kept. A
 * failing config test leaves the server as it was. */
export function reloadScript(
  profile: HttpdProfile,
  extras: StartExtras,
  files: ReadonlyArray<{ path: string; base64: string; mode: number }>,
  removed: readonly string[],
  mtime: Date,
  /** httpd's pid as shell: PID 1 in a container of its own, the pid file in a host (server-host.ts). */
  pid = "1",
): string {
  const exports = Object.entries(extras.environment).map(([name, value]) => `export ${name}=${shellQuote(value)}`);
  const args = extras.args.map(shellQuote).join(" ");
  const binary = args ? `${profile.binary} ${args}` : profile.binary;
  const lines = [
    ...files.flatMap((file) => [
      `[ -d ${shellQuote(file.path.replace(/\/[^/]*$/, "") || "/")} ] || mkdir -p ${shellQuote(file.path.replace(/\/[^/]*$/, "") || "/")}`,
      `printf '%s' ${shellQuote(file.base64)} | base64 -d > ${shellQuote(file.path)} && chmod ${file.mode.toString(8)} ${shellQuote(file.path)}`,
      // The staged files' one mtime, as the bundle gives them (Last-Modified and ETags stay the same).
      `touch -d @${Math.floor(mtime.getTime() / 1000)} ${shellQuote(file.path)} 2>/dev/null || true`,
    ]),
    ...(removed.length > 0 ? [`rm -f ${removed.map(shellQuote).join(" ")}`] : []),
    ...(profile.environment ? [profile.environment] : []),
    ...exports,
    `cd ${profile.serverRoot}`,
    `${binary} -t 2>&1; rc=$?`,
    `printf '\\n%s%s\\n' '${RELOAD_TEST}' "$rc"`,
    `[ "$rc" = 0 ] && kill -HUP ${pid}`,
  ];
  return lines.join("\n");
}

export interface StartPhases {
  /** What the setup said of the probe world (`@@harness world-...` lines: a planted object missing, a DBM store
   * htdbm could not fill), kept apart from the config test's output. */
  world: string[];
  prepare: Array<{ exitCode: number; output: string[] }>;
  configTest: { exitCode: number; output: string[] } | null;
  /** Index in the stderr lines where the error log proper begins. */
  errorLogStart: number;
}

/** Pure: splits the stderr lines written so far into the phases. */
export function splitStartPhases(stderr: readonly string[]): StartPhases {
  const prepare: StartPhases["prepare"] = [];
  const world: string[] = [];
  let current: string[] | null = null;
  let configOutput: string[] = [];
  for (let i = 0; i < stderr.length; i++) {
    const line = stderr[i]!;
    if (line.startsWith(`${MARKER} world-`)) {
      world.push(line);
      continue;
    }
    if (line.startsWith(`${MARKER} prepare-begin`)) {
      current = [];
      continue;
    }
    const end = new RegExp(`^${MARKER} prepare-end \\d+ exit=(\\d+)`).exec(line);
    if (end) {
      prepare.push({ exitCode: Number(end[1]), output: withoutMarkerNewline(current ?? []) });
      current = null;
      configOutput = [];
      continue;
    }
    const test = new RegExp(`^${MARKER} config-test exit=(\\d+)`).exec(line);
    if (test) return { world, prepare, configTest: { exitCode: Number(test[1]), output: withoutMarkerNewline(configOutput) }, errorLogStart: i + 1 };
    (current ?? configOutput).push(line);
  }
  return { world, prepare, configTest: null, errorLogStart: stderr.length };
}

/** Drops the empty line the script's newline-before-marker adds after output that ended with a newline. */
function withoutMarkerNewline(lines: string[]): string[] {
  return lines.length > 0 && lines[lines.length - 1] === "" ? lines.slice(0, -1) : lines;
}
