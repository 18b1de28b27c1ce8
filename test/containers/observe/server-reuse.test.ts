// Servers reused across scenarios (server/server-host.ts): a lane's seat keeps one host container per image, and the
// scenarios that take the seat run their servers in it one after another. No scenario may see what another left:
// config A plants a page in the docroot, a file and directory of its own, a user and a process that outlives its
// start (a sleep whose argument no other process has); config B, run next in the same host (its host's run count says 2), finds none of them. A config whose test
// passes but whose start fails, followed by a good one on the same lane, answers as it does with a container each.
import { describe, expect, inject, it } from "vitest";
import type { ExecOutcome, SideObservation } from "../../../harness/observe/observation.ts";
import { HOST_RUNS_FILE } from "../../../harness/server/server-host.ts";
import { comparableScenario } from "../../helpers/comparable-report.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";

/** What a config sees of the deep plants: how many of the new paths, whether the removed file is there, the changed
 * file's planted lines, the directory's mode. */
const DEEP = "ls -d /usr/share/doc/planted-deep.txt /var/lib/planted 2>/dev/null | wc -l; [ -f /etc/skel/.bashrc ] && echo bashrc || echo no-bashrc; grep -c planted /etc/security/limits.conf; stat -c %a /etc/ld.so.conf.d";

const PLANTS = `
id: reuse-a-plants
title: a config that plants a page, a file, a user and a process
server:
  config: |
    # the image's own config, and nothing of its own
  prepare:
    - "echo planted-by-a > {{server.docroot}}/planted.txt"
    - "mkdir -p /srv/planted && echo secret-of-a > /srv/planted/secret.txt && chmod 700 /srv/planted"
    - "echo 'planter:x:4242:4242::/nonexistent:/bin/false' >> /etc/passwd"
    - "(sleep 617 >/dev/null 2>&1 &)"
    # Below directories no config had touched before: a new file and tree, a deep file of the image removed, one
    # changed, a directory's mode changed (a wipe walks only what configs touched: server/server-host.ts).
    - "echo planted-deep > /usr/share/doc/planted-deep.txt && mkdir -p /var/lib/planted/x && echo a > /var/lib/planted/x/y"
    - "rm /etc/skel/.bashrc && echo '# planted' >> /etc/security/limits.conf && chmod 700 /etc/ld.so.conf.d"
requests:
  - name: planted-page
    path: /planted.txt
    repeat: false
  - name: what-it-sees
    exec: "cat /srv/planted/secret.txt; grep -c '^planter:' /etc/passwd; grep -qzx 617 /proc/[0-9]*/cmdline 2>/dev/null && echo running || echo not-running; cat ${HOST_RUNS_FILE} 2>/dev/null || echo none; ${DEEP}"
    repeat: false
`;

const READS = `
id: reuse-b-reads
title: the config after it, on the same seat
server:
  config: |
    # the image's own config, and nothing of its own
requests:
  - name: planted-page
    path: /planted.txt
    repeat: false
  - name: what-it-sees
    exec: "cat /srv/planted/secret.txt 2>/dev/null || echo no-file; grep -c '^planter:' /etc/passwd; grep -qzx 617 /proc/[0-9]*/cmdline 2>/dev/null && echo running || echo not-running; cat ${HOST_RUNS_FILE} 2>/dev/null || echo none; ${DEEP}"
    repeat: false
`;

/** Passes httpd -t on both versions, and fails at start: httpd cannot write its pid file there. */
const FAILS_TO_START = `
id: reuse-fails-to-start
title: a config whose test passes and whose start fails
server:
  config: |
    PidFile /proc/harness-cannot-write.pid
requests:
  - { name: root, path: /, repeat: false }
`;

const GOOD = `
id: reuse-good-after
title: a good config after it
server:
  config: |
    # the image's own config
  files: { htdocs/good.txt: "good\\n" }
requests:
  - { name: good, path: /good.txt, repeat: false }
`;

function status(side: SideObservation, name: string): number | string {
  const outcome = side.requests.find((request) => request.name === name)?.outcome;
  return outcome?.kind === "response" ? outcome.status : `${outcome?.kind}`;
}

function seen(side: SideObservation): string[] {
  const outcome = side.requests.find((request) => request.name === "what-it-sees")?.outcome as ExecOutcome | undefined;
  expect(outcome?.kind, JSON.stringify(outcome)).toBe("exec");
  return outcome!.stdout.trim().split("\n");
}

async function plantedThenRead(images: { baseline?: string; candidate: string }): Promise<void> {
  // One lane: the second scenario takes the seats (and hosts) the first left.
  const { runs } = await runYamlScenarios([PLANTS, READS], { ...images, concurrency: 1 });
  const [a, b] = runs;
  expect(a!.error, a!.error?.message).toBeNull();
  expect(b!.error, b!.error?.message).toBeNull();
  for (const [index, side] of a!.observations.entries()) {
    const other = b!.observations[index]!;
    expect(side.started && other.started, side.side.id).toBe(true);
    // A saw all it planted, as the first config of its host.
    expect(status(side, "planted-page"), side.side.id).toBe(200);
    expect(seen(side), side.side.id).toEqual(["secret-of-a", "1", "running", "1", "2", "no-bashrc", "1", "700"]);
    // B ran second in the same host, and none of it is there.
    expect(status(other, "planted-page"), other.side.id).toBe(404);
    expect(seen(other), other.side.id).toEqual(["no-file", "0", "not-running", "2", "0", "bashrc", "0", "755"]);
  }
}

describe("servers reused across scenarios", { timeout: 300_000 }, () => {
  it("keep no file, user or process of one config from the next in the same host (2.4)", async () => {
    await plantedThenRead({ candidate: inject("images").candidate });
  });

  it("keep no file, user or process of one config from the next in the same host (2.2 against 2.4)", async (context) => {
    const images = inject("images");
    if (!images.baseline) return context.skip(`no 2.2 image: ${images.baselineMissingReason}`);
    await plantedThenRead({ baseline: images.baseline, candidate: images.candidate });
  });

  it("give a config whose start fails, and the good one after it on the same lane, the answers of a container each", async () => {
    const images = inject("images");
    const sides = { ...(images.baseline ? { baseline: images.baseline } : {}), candidate: images.candidate };
    const reused = await runYamlScenarios([FAILS_TO_START, GOOD], { ...sides, concurrency: 1 });
    const fresh = await runYamlScenarios([FAILS_TO_START, GOOD], { ...sides, concurrency: 1, reuseServers: false });
    const [failed, good] = reused.runs;
    for (const side of failed!.observations) {
      expect(side.configTest.ok, side.side.id).toBe(true);
      expect(side.started, side.side.id).toBe(false);
      expect(side.startFailure?.exitCode, side.side.id).toBe(1);
    }
    for (const side of good!.observations) expect(status(side, "good"), side.side.id).toBe(200);
    expect(reused.reports.map(comparableScenario)).toEqual(fresh.reports.map(comparableScenario));
    // What httpd said as it failed, without its times and pids.
    const said = (result: typeof reused) =>
      result.runs.map((run) => run.observations.map((side) => side.startFailure && { exitCode: side.startFailure.exitCode, messages: side.startFailure.logTail.map((line) => line.replace(/^\[[^\]]*\] /, "").replace(/\[pid \d+(:tid \d+)?\] /, "").replace(/\.[A-Za-z0-9]{6}$/, "")) }));
    expect(said(reused)).toEqual(said(fresh));
  });
});
