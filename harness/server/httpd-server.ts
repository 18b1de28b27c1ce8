// One httpd under test: staged, config-tested, started, observed, removed. A config that will not load is an
// observation (ServerBoot.started === false with its messages), never an exception.
import { connect } from "node:net";
import { HarnessContainer } from "../engine/container.ts";
import { HarnessError } from "../errors.ts";
import { LineStream } from "../engine/line-stream.ts";
import { log } from "../engine/log.ts";
import { accessFormatsOfText, accessLineTest } from "../logs/access-line-shape.ts";
import type { RunScope } from "../engine/run-scope.ts";
import { FAMILY_TRAITS } from "./family-traits.ts";
import type { ImageInspection } from "./inspect-image.ts";
import {
  FOLLOW_STARTED,
  FOLLOW_UNSUPPORTED,
  FOLLOWED_ACCESS_TAG,
  FOLLOWED_ERROR_TAG,
  followPairScript,
  followScript,
  logTargets,
  scriptFollowLines,
  scriptMergedFollowLines,
  ERROR_LINE,
  MERGED_LOG,
  STREAM_DIR,
  streamFiles,
  streamRedirect,
} from "./log-targets.ts";
import { HOST_PID_FILE, type ServerHost } from "./server-host.ts";
import type { ServerSeat } from "./server-seat.ts";
import { type BundleFile, inlineBundle, packBundle, STAGED_MTIME } from "./site-bundle.ts";
import { RELOAD_TEST, reloadScript, type StartExtras, splitStartPhases, stagingFailure, startScript, type StartPhases } from "./start-script.ts";

/** What the engine writes into an exec's stream when the container stopped under it (the exec followers of an
 * image whose script cannot follow, after a failed config test): the engine's words, not httpd's. */
const ENGINE_EXEC_FAILURE = /^OCI runtime exec failed:|cannot exec in a (?:stopped|deleted) state|^task [0-9a-f]{64} not found/;

/** How long a send waits for its access line when one follower carries both logs (StartedHttpd.oneFollower):
 * that line is then a barrier (every error line httpd wrote before it came before it), and the next send must not
 * begin before httpd wrote it, or the next request's first lines precede it. Under load 1.5 s was too short for a
 * 2.2 line's stream. A response the config does not log (CustomLog ... env=) waits this long once. */
const ORDERED_ACCESS_WAIT_MS = 5_000;

/** How long the error log must stay quiet after a request was logged before its lines are taken. */
const ATTRIBUTION_QUIET_MS = 120;

export interface ServerLaunch {
  inspection: ImageInspection;
  scenario: string;
  /** The main config: where it is staged and its text. */
  config: { path: string; text: string };
  /** Further files, absolute paths. */
  files: BundleFile[];
  prepare: string[];
  network: { name: string; aliases: string[] };
  /** The clients' fixed-address and named networks, joined before httpd starts (so `Listen 80` sees their
   * IPv6 addresses too). */
  extraNetworks?: string[];
  listenTls: boolean;
  /** Container ports to publish; default 80, and 443 with listenTls. The first is checked for readiness. */
  ports?: readonly number[];
  /** How a configuration tree starts httpd (arguments, environment, the harness's stub steps). */
  extras?: StartExtras;
  /** Log files a tree writes to, followed inside the container; absent: where the config's first ErrorLog and
   * CustomLog point. An empty list means the container's stream. */
  logs?: { error: readonly string[]; access: readonly string[]; accessLogged: boolean; mergeable?: boolean; formats?: readonly string[]; streams?: { error: boolean; access: boolean } };
  /** IPv6 in the server's network namespace (see ContainerSpec.ipv6), for the local client's requests to ::1. */
  ipv6?: boolean;
  startupTimeoutMs?: number;
  /** Join this seat's network namespace (server-seat.ts) instead of `network` and publishing ports of its own;
   * only for a server without extra networks, IPv6 or ports the seat does not publish. */
  seat?: ServerSeat;
  /** Run in this host on the seat (server-host.ts) instead of a container of its own; a bundle too large for the
   * command line still gets a container of its own. */
  host?: ServerHost;
}

/** Where a server's own output comes from: its container's streams, or the exec that runs it in a host. */
interface ServerOutput {
  stdout: LineStream;
  stderr: LineStream;
  exited: () => Promise<number | null>;
}

export interface ServerBoot {
  started: boolean;
  phases: StartPhases;
  exitCode: number | null;
  /** Error-log lines from the start up to readiness (or up to exit). */
  startupLines: string[];
}

export class StartedHttpd implements AsyncDisposable {
  constructor(
    readonly container: HarnessContainer,
    readonly inspection: ImageInspection,
    readonly boot: ServerBoot,
    readonly ports: { http: number | null; https: number | null },
    /** Container port → the host port it is published on, for every published port (empty when not started). */
    readonly publishedPorts: ReadonlyMap<number, number>,
    readonly networkAddress: string | null,
    readonly host: string,
    /** Where the error log and the access log are read: the container's stderr and stdout, or the files the
     * config names, followed inside the container. */
    readonly logs: { error: LineStream; access: LineStream },
    /** Whether the config writes an access log at all: requests are attributed by their access line only then. */
    readonly accessLogged: boolean = true,
    /** httpd's own stdout and stderr (the start script's phases): the container's, or the host exec's. */
    readonly output: { stdout: LineStream; stderr: LineStream } = container,
    /** The host it runs in, given back (wiped) when it stops; null: a container of its own. */
    readonly serverHost: ServerHost | null = null,
  ) {}

  /** Marks the log positions before a request, for attribution afterwards. */
  logMark(): { err: number; out: number } {
    return { err: this.logs.error.count, out: this.logs.access.count };
  }

  /** The error-log lines written since `mark`, once the request has been logged: its access-log line has
   * appeared (httpd writes error lines before the access line, but the two logs reach us apart, so a line
   * can trail), and then the error log has stayed quiet for a window counted from that moment. */
  async errorLinesSince(mark: { err: number; out: number }, options: { expectAccessLine: boolean; answered?: boolean }): Promise<string[]> {
    const { access, error } = this.logs;
    const timeoutMs = options.answered === true && this.oneFollower ? ORDERED_ACCESS_WAIT_MS : 1_500;
    if (options.expectAccessLine && this.accessLogged) await access.waitForLine(() => true, { from: mark.out, timeoutMs });
    await error.waitForQuiet(ATTRIBUTION_QUIET_MS, 2_000, Date.now());
    return error.since(mark.err);
  }

  /** The error-log lines since `mark`, with when each arrived, once the access log has `accessLines` more
   * lines (a batch's requests, observe/batch-attribution.ts) and the error log has then stayed quiet. */
  async errorLinesArrivedSince(mark: { err: number; out: number }, options: { accessLines: number }): Promise<Array<{ text: string; arrivedAt: number; order?: number }>> {
    const { access, error } = this.logs;
    if (options.accessLines > 0 && this.accessLogged) {
      await access.waitForLine(() => true, { from: mark.out + options.accessLines - 1, timeoutMs: 1_500 });
    }
    await error.waitForQuiet(ATTRIBUTION_QUIET_MS, 2_000, Date.now());
    return this.errorLinesArrivedFrom(mark);
  }

  /** The error-log lines since `mark` as they are now, with when each arrived (errorLinesArrivedSince, without its
   * wait): taken after every wait of a batch, so that no line falls between them and the next mark. */
  errorLinesArrivedFrom(mark: { err: number; out: number }): Array<{ text: string; arrivedAt: number; order?: number }> {
    const { error } = this.logs;
    const ordered = this.orderedLogs;
    return error.lines.slice(mark.err).map((text, index) => {
      const order = ordered ? error.orders[mark.err + index] : undefined;
      return { text, arrivedAt: error.arrivals[mark.err + index] ?? Date.now(), ...(order === undefined ? {} : { order }) };
    });
  }

  /** Each error-log line's place among the follower's lines from index `from`, `count` of them; null when the two
   * logs do not come from one follower (observe/send-attribution.ts places by them). */
  errorLineOrders(from: number, count: number): number[] | null {
    if (!this.orderedLogs) return null;
    const orders = this.logs.error.orders.slice(from, from + count);
    return orders.length === count ? orders : null;
  }

  /** Waits, bounded, until the access log has `count` lines since `mark`. With both logs from one follower that
   * is a barrier: every error line httpd wrote before those access lines has then reached the harness, however
   * late the follower's stream came (a send's own wait for its access line, errorLinesSince, is short). Without
   * one follower, or without an access log, it waits for nothing. */
  async accessLinesCaughtUp(mark: { err: number; out: number }, count: number, timeoutMs = ORDERED_ACCESS_WAIT_MS): Promise<void> {
    if (count <= 0 || !this.accessLogged || !this.oneFollower) return;
    const { access } = this.logs;
    await access.waitForLine(() => true, { from: mark.out + count - 1, timeoutMs });
  }

  /** Whether both logs come from the start script's one follower, whether or not an access line came yet. */
  private get oneFollower(): boolean {
    const { error, access } = this.logs;
    return error !== access && error.count > 0 && error.orders.length === error.count && access.orders.length === access.count;
  }

  /** Whether both logs come from the start script's one follower: their lines' orders then tell which came first. */
  private get orderedLogs(): boolean {
    const { error, access } = this.logs;
    return error !== access && error.orders.length === error.count && access.orders.length === access.count && access.count > 0;
  }

  /** The access-log lines since `mark`: when each arrived, and its order beside the error log's lines when the
   * two come from one follower; null when this server's requests reach no followed access log. */
  accessLinesSince(mark: { err: number; out: number }): Array<{ arrivedAt: number; order?: number }> | null {
    if (!this.accessLogged) return null;
    const { access } = this.logs;
    const ordered = this.orderedLogs;
    return access.arrivals.slice(mark.out).map((arrivedAt, index) => {
      const order = ordered ? access.orders[mark.out + index] : undefined;
      return { arrivedAt, ...(order === undefined ? {} : { order }) };
    });
  }

  /** Loads a variant of the config into this running server (start-script.ts reloadScript): its files written,
   * its config tested, httpd restarted on it. Whether it serves the variant now, with the config test's output;
   * a variant whose config test fails leaves the server serving what it did. */
  async reload(change: { files: readonly BundleFile[]; removed: readonly string[] }, extras: StartExtras, timeoutMs = 15_000): Promise<{ reloaded: boolean; configTest: { exitCode: number; output: string[] }; reason: string | null }> {
    const files = change.files.map((file) => ({ path: file.path, base64: Buffer.from(file.content).toString("base64"), mode: file.mode ?? 0o644 }));
    const mark = this.logs.error.count;
    const t0 = Date.now();
    const script = reloadScript(this.inspection.profile, extras, files, change.removed, STAGED_MTIME, this.serverHost === null ? "1" : `"$(cat ${HOST_PID_FILE})"`);
    // In a host, the host's loop runs it (no exec); its stderr comes with its stdout there.
    const result = this.serverHost !== null
      ? await this.serverHost.load(script, timeoutMs).then(({ status, output }) => ({ exitCode: status, stdout: output.toString("utf8"), stderr: "" }))
      : await this.container.exec(["/bin/sh", "-s"], { stdin: script, timeoutMs });
    const t1 = Date.now();
    const lines = result.stdout.split("\n");
    const at = lines.findIndex((line) => line.startsWith(RELOAD_TEST));
    const exitCode = at < 0 ? (result.exitCode === 0 ? -1 : result.exitCode) : Number(lines[at]!.slice(RELOAD_TEST.length));
    const output = (at < 0 ? lines : lines.slice(0, at)).filter((line, index, all) => line !== "" || index < all.length - 1);
    const configTest = { exitCode, output };
    if (exitCode !== 0) return { reloaded: false, configTest, reason: output.find((line) => line.trim() !== "" && !/^Syntax OK$/.test(line)) ?? `the config test exited ${exitCode}` };
    const traits = FAMILY_TRAITS[this.inspection.version.family];
    const ready = await this.logs.error.waitForLine((line) => traits.readyLog.test(line), { from: mark, timeoutMs });
    if (ready < 0) {
      log("[%s] reload: no ready line after the restart; the reload said %j", this.container.shortId, `${result.stdout.slice(-500)}${result.stderr.slice(-500)}`);
      return { reloaded: false, configTest, reason: "httpd did not come back after the restart" };
    }
    const t2 = Date.now();
    if (traits.afterReadyLog) await this.logs.error.waitForLine((line) => traits.afterReadyLog!.test(line), { from: ready, timeoutMs: 1_500 });
    log("[%s] reload (profile): load %d ms, ready %d ms, after-ready %d ms", this.container.shortId, t1 - t0, t2 - t1, Date.now() - t2);
    return { reloaded: true, configTest, reason: null };
  }

  /** Removes its container, or ends it in its host and wipes what it left there, in the background: the host's
   * next config waits for that (a host that cannot be wiped is removed: server-host.ts). */
  async stop(): Promise<void> {
    if (this.serverHost !== null) this.serverHost.release();
    else await this.container.remove();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}

/** Images whose start script cannot extract a bundle (no base64 or tar): their servers get it by the engine's copy. */
const copiedOnly = new Set<string>();
/** Images without gzip: a bundle too large to travel plain goes by the engine's copy. */
const withoutGzip = new Set<string>();

export async function startHttpd(scope: RunScope, launch: ServerLaunch): Promise<StartedHttpd> {
  const { inspection } = launch;
  const t0 = Date.now();
  const marks: string[] = [];
  const mark = (what: string): void => {
    marks.push(`${what} ${Date.now() - t0}`);
  };
  const { profile } = inspection;
  const archive = await packBundle([{ path: launch.config.path, content: launch.config.text }, ...launch.files]);
  // The start script extracts the bundle itself where it can: the engine's copy costs it a dockerd of its own.
  const inline = copiedOnly.has(inspection.image) ? null : inlineBundle(archive, { gzip: !withoutGzip.has(inspection.image) });
  const publish = [...(launch.ports ?? (launch.listenTls ? [80, 443] : [80]))];
  const { seat } = launch;
  const targets = launch.logs
    ? { errorLog: launch.logs.error.length > 0 ? launch.logs.error : null, accessLog: launch.logs.access.length > 0 ? launch.logs.access : null }
    : logTargets(launch.config.text, profile.serverRoot);
  const pathsOf = (target: string | readonly string[] | null): readonly string[] | null => (target === null ? null : typeof target === "string" ? [target] : target);
  // The script follows the log files itself where the image lets it: no exec per server. A log on the container's
  // stderr or stdout goes to a file it follows with the others, in the order httpd wrote them (log-targets.ts).
  // httpd's own streams are followed too where they are a log beside the files (the plan's `streams`).
  const streams = streamFiles(targets, STREAM_DIR, launch.logs?.streams);
  const withStream = (files: string | readonly string[] | null, stream: string | null): string | readonly string[] | null =>
    files === null ? stream : stream === null ? files : [...(typeof files === "string" ? [files] : files), stream];
  const followTargets = { errorLog: withStream(targets.errorLog, streams.stderr), accessLog: withStream(targets.accessLog, streams.stdout) };
  // Every log to one file, when error and access lines can be told apart by their form: httpd's own order then
  // reaches the harness however late the follower reads (log-targets.ts scriptMergedFollowLines).
  const merged = launch.logs?.mergeable ?? !/^\s*ErrorLogFormat\b/im.test(launch.config.text);
  const follow = (merged ? scriptMergedFollowLines : scriptFollowLines)(pathsOf(followTargets.errorLog), pathsOf(followTargets.accessLog), streams);
  const script = startScript(profile, launch.prepare, launch.extras, inline === null ? null : { gzip: inline.gzip }, follow, streamRedirect(streams, merged));
  // In a host, the same script runs as an exec; its bundle must travel in the command line.
  const host = launch.host !== undefined && inline !== null ? launch.host : null;
  if (launch.host !== undefined && host === null) launch.host.giveBack();
  const container = host !== null ? host.container : await HarnessContainer.create(scope, {
    image: inspection.image,
    role: "server",
    scenario: launch.scenario,
    entrypoint: ["/bin/sh", "-c"],
    // With `sh -c`, the word after the script is its $0 and the next its $1.
    command: inline === null ? [script] : [script, "httpd-upgrade-harness", inline.base64],
    ...(seat
      ? { joinNetworkOf: seat.containerId }
      : { publish, network: launch.network, extraNetworks: launch.extraNetworks ?? [], ipv6: launch.ipv6 ?? false }),
    ...(inline === null ? { archive } : {}),
  });
  const mappedPort = (port: number): Promise<number> => (seat ? Promise.resolve(seat.published.get(port) ?? 0) : container.mappedPort(port));
  // The followed files' lines, tagged by the script, apart from httpd's own output on the same streams.
  const followed = { error: new LineStream(), access: new LineStream() };
  let output: ServerOutput;
  if (host !== null) {
    const run = await host.run(script, [launch.config.path, ...launch.files.map((file) => file.path)], inline!.base64);
    output = { stdout: run.stdout, stderr: run.stderr, exited: () => run.exited };
    mark("exec");
  } else output = { stdout: container.stdout, stderr: container.stderr, exited: () => container.waitForExit() };
  output.stderr.routeTagged(FOLLOWED_ERROR_TAG, followed.error);
  // Merged, an unbracketed line is an access line only if one of the server's access formats fits it: httpd's
  // start-up messages and its piped loggers' complaints are unbracketed error lines (logs/access-line-shape.ts).
  // Without the plan's formats (an inline config, a fragment on the stock config) they are read from the staged
  // config text: the main file and every file staged with it (a fragment's own site file).
  const stagedText = (): string => [launch.config.text, ...launch.files.map((f) => (typeof f.content === "string" ? f.content : f.content.length < 1_000_000 ? f.content.toString("latin1") : ""))].join("\n");
  const isAccessLine = merged ? accessLineTest(launch.logs?.formats ?? accessFormatsOfText(stagedText())) : null;
  output.stderr.routeTagged(FOLLOWED_ACCESS_TAG, followed.access, isAccessLine === null ? undefined : { test: (line) => !isAccessLine(line), to: followed.error });
  if (host === null) await container.start();
  mark("started");
  const logs = await logStreams(container, output, profile.environment, targets, followed);
  mark("following");
  // Where the logs are read from in the container: the stream files too, once the script follows them.
  const readTargets = logs.error === followed.error ? followTargets : targets;
  const readyLog = FAMILY_TRAITS[inspection.version.family].readyLog;
  const timeoutMs = launch.startupTimeoutMs ?? 30_000;
  // A followed log file does not end when httpd exits; the container's own stderr does.
  const exited = output.stderr.waitForLine(() => false, { timeoutMs });
  const ready = await Promise.race([logs.error.waitForLine((line) => readyLog.test(line), { timeoutMs }), exited.then(() => -1)]);
  let exitCode: number | null = null;
  const exitedLogLines: string[] = [];
  let readFromFiles = false;
  let started = ready >= 0;
  mark("ready");
  if (started) {
    // 2.4 logs AH00094 right after the ready line: let startup finish so it is not pinned on the first request
    // (a quiet window alone was too short on a busy machine).
    const afterReady = FAMILY_TRAITS[inspection.version.family].afterReadyLog;
    if (afterReady) await logs.error.waitForLine((line) => afterReady.test(line), { from: ready, timeoutMs: 1_500 });
    await logs.error.waitForQuiet(150, 1_000);
    // A server listening on loopback addresses only publishes nothing: its ready line is all there is to wait for;
    // so for one on a seat that publishes nothing (httpd opens its listeners before it logs that line).
    const checked = publish[0];
    if (checked !== undefined && (!seat || seat.published.has(checked))) started = await waitForPort(scope.engine.host, await mappedPort(checked), 5_000);
  } else {
    exitCode = await Promise.race([output.exited(), new Promise<null>((r) => setTimeout(() => r(null), 2_000))]);
    await output.stderr.waitForQuiet(50, 1_000);
    // httpd can exit before following its log files has caught up (mod_ssl refusing its ciphers at start): the
    // files in the exited container are complete, so they are what the startup log is read from.
    if (logs.error !== output.stderr) {
      // Merged, the followed paths are links to the one file (an archive of a link holds the link): that file's
      // error lines.
      const mergedFile = merged && logs.error === followed.error;
      for (const path of mergedFile ? [MERGED_LOG] : (pathsOf(readTargets.errorLog) ?? [])) {
        const text = await container.readTextFile(path);
        if (text !== null) {
          readFromFiles = true;
          exitedLogLines.push(...text.split("\n").filter((line) => line !== "" && (!mergedFile || ERROR_LINE.test(line) || isAccessLine?.(line) === false)));
        }
      }
    }
  }
  if (!started && inline !== null) {
    const staging = stagingFailure(output.stderr.lines);
    if (staging === "unsupported") {
      // An image without base64 or tar: from now on its servers get their bundle by the engine's copy; without gzip,
      // those whose bundle does not fit plain.
      (inline.gzip ? withoutGzip : copiedOnly).add(inspection.image);
      if (host !== null) await host.wipe();
      else await container.remove();
      return startHttpd(scope, launch);
    }
    if (staging === "failed") {
      if (host !== null) await host.remove();
      else await container.remove();
      throw new HarnessError("HARNESS_CONTAINER", `The server container of ${inspection.image} could not extract its staged files (tar failed).`, {
        hint: `What it said:\n${output.stderr.lines.slice(-10).join("\n")}`,
      });
    }
  }
  mark("settled");
  const phases = splitStartPhases(output.stderr.lines);
  // Following a log file in a container that has just exited makes the engine answer with its own error line
  // ("OCI runtime exec failed: ..."), which is the engine's, not httpd's.
  const fromFiles = logs.error === output.stderr || readFromFiles ? [] : logs.error.lines.filter((line) => !ENGINE_EXEC_FAILURE.test(line));
  const startupLines = [...ownLines(output.stderr.lines.slice(phases.errorLogStart)), ...fromFiles, ...exitedLogLines];
  log("[%s] %s %s: %s%s (ms: %s)", container.shortId, inspection.image, launch.scenario, started ? "ready" : `not started (exit ${exitCode})`, host === null ? "" : " (in a host)", marks.join(", "));
  const published = new Map<number, number>();
  if (started) for (const port of publish) if (!seat || seat.published.has(port)) published.set(port, await mappedPort(port));
  const ports = { http: published.get(80) ?? null, https: published.get(443) ?? null };
  const address = !started ? null : seat ? seat.address : await container.ipAddress(launch.network.name).catch(() => null);
  return new StartedHttpd(container, inspection, { started, phases, exitCode, startupLines }, ports, published, address, scope.engine.host, logs, launch.logs?.accessLogged ?? true, output, host);
}

/** httpd's own lines, without the start script's word on following. */
function ownLines(lines: readonly string[]): string[] {
  return lines.filter((line) => line !== FOLLOW_STARTED && line !== FOLLOW_UNSUPPORTED);
}

/** The server's error and access logs as streams of lines: the files the start script follows (its tagged lines),
 * or, where the image cannot, files followed by an exec; the container's own streams where the config logs to
 * them, or where the container ended before following began (a failed config test). */
async function logStreams(
  container: HarnessContainer,
  output: { stdout: LineStream; stderr: LineStream },
  environment: string,
  targets: { errorLog: string | readonly string[] | null; accessLog: string | readonly string[] | null },
  followed: { error: LineStream; access: LineStream },
): Promise<{ error: LineStream; access: LineStream }> {
  const said = await output.stderr.waitForLine((line) => line === FOLLOW_STARTED || line === FOLLOW_UNSUPPORTED, { timeoutMs: 60_000 });
  if (said < 0) return { error: output.stderr, access: output.stdout };
  // Where the script cannot follow, httpd's streams stay the container's, and log files get an exec each.
  if (output.stderr.lines[said] === FOLLOW_UNSUPPORTED) return followLogs(container, output, environment, targets);
  return followed;
}

/** The server's error and access logs as streams of lines: both files followed by one exec when the config
 * writes both to files, else each followed alone or read from the container's own stream. */
async function followLogs(
  container: HarnessContainer,
  output: { stdout: LineStream; stderr: LineStream },
  environment: string,
  targets: { errorLog: string | readonly string[] | null; accessLog: string | readonly string[] | null },
): Promise<{ error: LineStream; access: LineStream }> {
  if (targets.errorLog !== null && targets.accessLog !== null) {
    try {
      const { stdout, stderr } = await container.followPair(["/bin/sh", "-c", followPairScript(environment, targets.errorLog, targets.accessLog)]);
      return { error: stdout, access: stderr };
    } catch {
      // The container is already gone (a failed config test): its own streams hold what there is.
      return { error: output.stderr, access: output.stdout };
    }
  }
  return {
    error: await followOr(container, environment, targets.errorLog, output.stderr),
    access: await followOr(container, environment, targets.accessLog, output.stdout),
  };
}

/** Follows a log file inside the container, or keeps the given stream when the config logs to the streams
 * (or when the container is already gone, after a failed config test). */
async function followOr(container: HarnessContainer, environment: string, path: string | readonly string[] | null, stream: LineStream): Promise<LineStream> {
  if (path === null) return stream;
  try {
    return await container.follow(["/bin/sh", "-c", followScript(environment, path)]);
  } catch {
    return stream;
  }
}

async function waitForPort(host: string, port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
      socket.setTimeout(500, () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (open) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
