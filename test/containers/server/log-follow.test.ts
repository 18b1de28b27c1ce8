// Following a tree's log file when the engine host has no inotify instances left. Every followed log of every
// container takes one, 128 per user by default: under a suite's or a fleet's load they run out, and tail -F then
// polls once a second, silently. A line reaching the harness up to a second after it was written misses its
// request's attribution window (120 ms of quiet): a CI run once lost a baseline's four AH01797 lines that way and
// called the config a regression. The follower must poll fast enough when that happens.
//
// Instances are counted per user, so the test runs its tails as an unused uid: the host's root keeps its own.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { HarnessContainer } from "../../../harness/engine/container.ts";
import { connectEngine } from "../../../harness/engine/engine.ts";
import type { LineStream } from "../../../harness/engine/line-stream.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import { followPairScript, followScript, POLL_SECONDS } from "../../../harness/server/log-targets.ts";

const UID = "4242";
const asUser = (script: string): string[] => ["setpriv", `--reuid=${UID}`, `--regid=${UID}`, "--clear-groups", "/bin/sh", "-c", script];
const LOG = "/tmp/follow/error_log";
const ACCESS = "/tmp/follow/access_log";

/** Writes five numbered lines to `file` and gives what the stream read of them once the fifth has come (a stream
 * that never gets it fails the test at its time limit, however slow the machine). */
async function writeFive(container: HarnessContainer, stream: LineStream, file: string, tag: string): Promise<string[]> {
  const from = stream.count;
  await container.exec(asUser(`for i in 1 2 3 4 5; do echo "${tag} $i" >> ${file}; done`));
  expect(await stream.waitForLine((line) => line === `${tag} 5`, { from, timeoutMs: 60_000 })).toBeGreaterThanOrEqual(0);
  return stream.since(from);
}

/** The uid's tail processes that follow `file`: each one's command line, and whether it holds an inotify instance
 * (without one, tail polls the file). */
async function tailsOf(container: HarnessContainer, file: string): Promise<Array<{ command: string; inotify: boolean }>> {
  const script = `for p in /proc/[0-9]*; do [ "$(stat -c %u $p 2>/dev/null)" = ${UID} ] || continue; c=$(tr '\\0' ' ' < $p/cmdline 2>/dev/null); echo "$(ls -l $p/fd 2>/dev/null | grep -c inotify) $c"; done`;
  const listing = await container.exec(["sh", "-c", script]);
  return listing.stdout
    .split("\n")
    .map((line) => /^(\d+) (.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && /^tail /.test(match[2]!) && match[2]!.includes(file))
    .map((match) => ({ command: match[2]!.trimEnd(), inotify: match[1] !== "0" }));
}

/** Waits until the stream has read every line the file already holds (a follower starts at its first line). */
async function caughtUp(container: HarnessContainer, stream: LineStream, file: string): Promise<void> {
  const result = await container.exec(["sh", "-c", `wc -l < ${file}`]);
  const lines = Number(result.stdout.trim());
  if (lines > 0) expect(await stream.waitForLine(() => true, { from: lines - 1, timeoutMs: 60_000 })).toBeGreaterThanOrEqual(0);
}

// What is asserted is state, not latency (issue 33: no container test depends on timing): that the uid has no
// inotify instance left, so its tails hold none and poll, and that the follower's tails then poll every
// POLL_SECONDS, which keeps a line inside its request's attribution window; and that every line arrives, in order,
// in its own file's stream.
describe("following a log file without inotify", { timeout: 120_000 }, () => {
  let scope: RunScope;
  let container: HarnessContainer;

  beforeAll(async () => {
    scope = new RunScope(await connectEngine());
    container = await HarnessContainer.create(scope, { image: inject("images").candidate, role: "server", scenario: "log-follow", entrypoint: ["sleep"], command: ["infinity"] });
    await container.start();
    await container.exec(["sh", "-c", `mkdir -p /tmp/follow && touch ${LOG} ${ACCESS} && chown -R ${UID} /tmp/follow`]);
    // Take every inotify instance this uid may have: idle followers of another file, waited for until the uid holds
    // as many as it may (max_user_instances), not for a while.
    const held = `c=0; for p in /proc/[0-9]*; do [ "$(stat -c %u $p 2>/dev/null)" = ${UID} ] && c=$((c + $(ls -l $p/fd 2>/dev/null | grep -c inotify))); done; echo $c`;
    const taken = await container.exec(
      asUser(`for i in $(seq 200); do tail -F /etc/hostname >/dev/null 2>&1 & done; limit=$(cat /proc/sys/fs/inotify/max_user_instances); until [ "$(${held})" -ge "$limit" ]; do sleep 0.05; done; echo taken`),
      { timeoutMs: 60_000 },
    );
    expect(taken.stdout.trim()).toBe("taken");
  });

  afterAll(async () => {
    await scope?.[Symbol.asyncDispose]();
  });

  it("has tail poll every POLL_SECONDS, where plain tail -F falls back to polling once a second", async () => {
    // The ground: with the uid's instances gone (here or in another container: they are counted per user on the
    // engine's host), a tail -F started now holds none and polls, by default once a second (up to a second late
    // for a line: past a request's 120 ms attribution window), and says nothing. This fails if it got one.
    const plain = await container.follow(asUser(`exec tail -n +1 -F ${LOG}`));
    await caughtUp(container, plain, LOG);
    const plainTails = await tailsOf(container, LOG);
    expect(plainTails).toEqual([{ command: `tail -n +1 -F ${LOG}`, inotify: false }]);

    const followed = await container.follow(asUser(followScript("", LOG)));
    await caughtUp(container, followed, LOG);
    expect(await writeFive(container, followed, LOG, "single")).toEqual([1, 2, 3, 4, 5].map((i) => `single ${i}`));
    // The follower's own tail, beside the plain one: polling too, every POLL_SECONDS.
    const tails = (await tailsOf(container, LOG)).filter((tail) => tail.command !== plainTails[0]!.command);
    expect(tails).toEqual([{ command: `tail -q -n +1 -F -s ${POLL_SECONDS} ${LOG}`, inotify: false }]);
  });

  it("follows an error log and an access log in one exec, each file's lines in a stream of its own, each polled every POLL_SECONDS", async () => {
    const { stdout: errors, stderr: access } = await container.followPair(asUser(followPairScript("", LOG, ACCESS)));
    await Promise.all([caughtUp(container, errors, LOG), caughtUp(container, access, ACCESS)]);
    // Each stream got its own file's five lines, in order, and none of the other's.
    expect(await writeFive(container, errors, LOG, "error")).toEqual([1, 2, 3, 4, 5].map((i) => `error ${i}`));
    expect(await writeFive(container, access, ACCESS, "access")).toEqual([1, 2, 3, 4, 5].map((i) => `access ${i}`));
    expect(await tailsOf(container, ACCESS)).toEqual([{ command: `tail -q -n +1 -F -s ${POLL_SECONDS} ${ACCESS}`, inotify: false }]);
    expect(await tailsOf(container, LOG)).toContainEqual({ command: `tail -q -n +1 -F -s ${POLL_SECONDS} ${LOG}`, inotify: false });
  });
});
