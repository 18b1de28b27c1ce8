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
import { followPairScript, followScript } from "../../../harness/server/log-targets.ts";

const UID = "4242";
const asUser = (script: string): string[] => ["setpriv", `--reuid=${UID}`, `--regid=${UID}`, "--clear-groups", "/bin/sh", "-c", script];
const LOG = "/tmp/follow/error_log";
const ACCESS = "/tmp/follow/access_log";

/** Writes five lines 200 ms apart to `file`, each its write time in ms, and gives how late each reached the
 * harness. */
async function latencies(container: HarnessContainer, stream: LineStream, file = LOG): Promise<number[]> {
  const from = stream.count;
  await container.exec(asUser(`for i in 1 2 3 4 5; do echo "$(($(date +%s%N) / 1000000))" >> ${file}; sleep 0.2; done`));
  await stream.waitForLine(() => true, { from: from + 4, timeoutMs: 5_000 });
  return stream.lines.slice(from).map((line, index) => stream.arrivals[from + index]! - Number(line));
}

/** Waits until the stream has read every line the file already holds (a follower starts at its first line): a
 * quiet spell alone can pass before a slow start has printed anything. */
async function caughtUp(container: HarnessContainer, stream: LineStream, file: string): Promise<void> {
  const result = await container.exec(["sh", "-c", `wc -l < ${file}`]);
  const lines = Number(result.stdout.trim());
  if (lines > 0) await stream.waitForLine(() => true, { from: lines - 1, timeoutMs: 5_000 });
}

describe("following a log file without inotify", { timeout: 120_000 }, () => {
  let scope: RunScope;
  let container: HarnessContainer;

  beforeAll(async () => {
    scope = new RunScope(await connectEngine());
    container = await HarnessContainer.create(scope, { image: inject("images").candidate, role: "server", scenario: "log-follow", entrypoint: ["sleep"], command: ["infinity"] });
    await container.start();
    await container.exec(["sh", "-c", `mkdir -p /tmp/follow && touch ${LOG} ${ACCESS} && chown -R ${UID} /tmp/follow`]);
    // Take every inotify instance this uid may have: idle followers of another file.
    await container.exec(asUser("for i in $(seq 200); do tail -F /etc/hostname >/dev/null 2>&1 & done; sleep 0.5"));
  });

  afterAll(async () => {
    await scope?.[Symbol.asyncDispose]();
  });

  it("gets each line at once, where plain tail -F gets it up to a second late", async () => {
    // The ground: with the instances gone, tail -F polls once a second; five lines over 800 ms reach it in at most
    // two polls, so one of them is at least ~800 ms late (this fails if the uid still had inotify).
    const plain = await container.follow(asUser(`exec tail -q -n +1 -F ${LOG} 2>/dev/null`));
    await plain.waitForQuiet(300, 2_000);
    expect(Math.max(...(await latencies(container, plain)))).toBeGreaterThanOrEqual(600);

    const followed = await container.follow(asUser(followScript("", LOG)));
    await caughtUp(container, followed, LOG);
    const late = await latencies(container, followed);
    expect(late).toHaveLength(5);
    // A request's error lines are taken 120 ms after its access line, followed the same way: what matters is that
    // neither log waits for a poll of a second. The engine's stream latency is in this figure, hence the margin.
    expect(Math.max(...late), `latencies ${late.join(", ")} ms`).toBeLessThan(300);
  });

  it("follows an error log and an access log in one exec, each file's lines in a stream of its own, at once", async () => {
    const { stdout: errors, stderr: access } = await container.followPair(asUser(followPairScript("", LOG, ACCESS)));
    await Promise.all([caughtUp(container, errors, LOG), caughtUp(container, access, ACCESS)]);
    const [errorsBefore, accessBefore] = [errors.count, access.count];
    const lateErrors = await latencies(container, errors, LOG);
    const lateAccess = await latencies(container, access, ACCESS);
    // Each stream got its own file's five lines and none of the other's.
    expect(errors.count - errorsBefore).toBe(5);
    expect(access.count - accessBefore).toBe(5);
    // Polling once a second would make the latest of each file's five lines at least ~600 ms late (see above);
    // ten lines on a loaded machine get a wider margin than the single file's 300 ms.
    expect(Math.max(...lateErrors, ...lateAccess), `latencies ${[...lateErrors, ...lateAccess].join(", ")} ms`).toBeLessThan(500);
  });
});
