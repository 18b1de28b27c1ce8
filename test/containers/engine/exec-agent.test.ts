// The exec agent against the engine's own exec: a client container runs the commands the harness sends over its
// attach stream, and each gives what `docker exec` gives for it in a container of the same image (stdout, stderr,
// the exit status, stdin), while no exec reaches the engine. A command that outlives its time is killed with its
// children, which an engine exec cannot do.
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { HarnessContainer } from "../../../harness/engine/container.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";
import { type BatchItem, type BatchRecord, sendBatchFromContainer } from "../../../harness/clients/client-batch.ts";
import type { ContainerHttpPlan } from "../../../harness/clients/client-container.ts";

const COMMANDS: Array<{ name: string; command: string[]; stdin?: Buffer }> = [
  { name: "output on both streams and a status", command: ["sh", "-c", "printf 'out\\n'; printf 'err\\n' >&2; printf more; exit 3"] },
  { name: "stdin passed through", command: ["sh", "-c", "wc -c; cat >/dev/null"], stdin: Buffer.alloc(300_000, 0x61) },
  { name: "binary output", command: ["sh", "-c", "head -c 200000 /dev/zero | tr '\\0' '\\377'; printf '\\000\\n\\001'"] },
  { name: "ended by a signal", command: ["sh", "-c", "kill -9 $$"] },
  { name: "empty output", command: ["true"] },
];

/** The command lines of a container's processes, one a line, as the engine lists them (docker top): not through
 * the agent, whose own commands would be in the list. */
async function processes(container: HarnessContainer): Promise<string> {
  const engine = await connectEngine();
  const top = (await engine.docker.getContainer(container.id).top({ ps_args: "-o pid,args" })) as { Processes?: string[][] };
  // Each row: the pid, then the command line.
  return (top.Processes ?? []).map((row) => row.slice(1).join(" ")).join("\n");
}

describe("exec agent", () => {
  let scope: RunScope;
  let agent: HarnessContainer;
  let plain: HarnessContainer;

  beforeAll(async () => {
    scope = new RunScope(await connectEngine());
    const image = inject("images").tools;
    [agent, plain] = await Promise.all([
      HarnessContainer.create(scope, { image, role: "client", scenario: "exec-agent", agent: true }),
      HarnessContainer.create(scope, { image, role: "client", scenario: "exec-agent", command: ["sleep", "infinity"] }),
    ]);
    await Promise.all([agent.start(), plain.start()]);
  }, 60_000);

  afterAll(async () => {
    await scope?.[Symbol.asyncDispose]();
  }, 60_000);

  for (const { name, command, stdin } of COMMANDS) {
    it(`gives what docker exec gives: ${name}`, async () => {
      const [viaAgent, viaEngine] = await Promise.all([agent.exec(command, stdin ? { stdin } : {}), plain.exec(command, stdin ? { stdin } : {})]);
      expect(viaAgent.exitCode).toBe(viaEngine.exitCode);
      expect(viaAgent.stdoutBytes.equals(viaEngine.stdoutBytes)).toBe(true);
      expect(viaAgent.stderr).toBe(viaEngine.stderr);
    });
  }

  it("runs commands at once, each with its own output, and no exec reaches the engine", async () => {
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => agent.exec(["sh", "-c", `for n in 1 2 3 4 5; do printf '${i}-%s ' $n; sleep 0.0${i}; done; printf '${i}' >&2; exit ${i}`])),
    );
    runs.forEach((run, i) => {
      expect(run.stdout).toBe([1, 2, 3, 4, 5].map((n) => `${i}-${n} `).join(""));
      expect(run.stderr).toBe(String(i));
      expect(run.exitCode).toBe(i);
    });
    const info = await agent.container.inspect();
    expect(info.ExecIDs ?? []).toEqual([]);
  });

  it("names a command that is not there with status 127", async () => {
    const run = await agent.exec(["/no/such/command"]);
    expect(run.exitCode).toBe(127);
    expect(run.stderr).toContain("/no/such/command");
  });

  it("kills a command that outlives its time, with its children", async () => {
    await expect(agent.exec(["sh", "-c", "sleep 30 & sleep 31; wait"], { timeoutMs: 500 })).rejects.toThrow(/timed out/);
    // The kill is sent at the timeout; the processes go once the kernel has delivered it: looked for until they are
    // gone (well before the sleeps' own 30 s would end them), not after a fixed pause.
    await vi.waitFor(
      async () => {
        const listing = await processes(agent);
        expect(listing).toContain("exec-agent.py");
        expect(listing).not.toMatch(/^sleep 3[01]/m);
      },
      { timeout: 20_000, interval: 100 },
    );
  });

  it("fails a command once the container is gone, naming the agent", async () => {
    const image = inject("images").tools;
    const doomed = await HarnessContainer.create(scope, { image, role: "client", scenario: "exec-agent", agent: true });
    await doomed.start();
    const running = doomed.exec(["sleep", "30"], { timeoutMs: 20_000 }).then(
      () => null,
      (error: Error) => error,
    );
    // Removed while the command runs: once its process is there.
    await vi.waitFor(async () => expect(await processes(doomed)).toMatch(/^sleep 30$/m), { timeout: 20_000, interval: 50 });
    await doomed.remove();
    expect((await running)?.message).toMatch(/exec agent .* is gone/);
    await expect(doomed.exec(["true"])).rejects.toThrow(/exec agent .* is gone/);
  });
});

describe("exec agent batches", () => {
  // The agent's own batch runner against the batch's sh script through the engine's exec (clients/client-batch.ts):
  // the same records, item by item: an answer, a body sent, a refused connection, a timeout and the repeat it skips.
  it("give the records the batch script gives", async () => {
    await using scope = new RunScope(await connectEngine());
    const image = inject("images").tools;
    const [agent, plain] = await Promise.all([
      HarnessContainer.create(scope, { image, role: "client", scenario: "exec-agent-batch", agent: true }),
      HarnessContainer.create(scope, { image, role: "client", scenario: "exec-agent-batch", command: ["sleep", "infinity"] }),
    ]);
    await Promise.all([agent.start(), plain.start()]);
    // In each container: a file server on 8080 that notes when it handled each request (a monotonic clock, in
    // /tmp/times), and a listener on 8081 that never answers.
    const fileServer = [
      "import http.server, time",
      "class H(http.server.SimpleHTTPRequestHandler):",
      "    def log_message(self, *args):",
      "        open('/tmp/times', 'a').write('%f %s\\n' % (time.monotonic(), self.requestline))",
      "http.server.ThreadingHTTPServer(('127.0.0.1', 8080), H).serve_forever()",
    ].join("\n");
    // Started, then waited for until both listen (state 0A in /proc/net/tcp, ports 0x1F90 and 0x1F91): a look at the
    // sockets, not a connection, which would take nc's only one.
    const listening = (port: string) => `grep -q ':${port} 00000000:0000 0A' /proc/net/tcp`;
    const servers = `cd /usr/local/bin && (python3 -c "${fileServer}" >/dev/null 2>&1 &) && (nc -l -p 8081 -s 127.0.0.1 >/dev/null 2>&1 &) && until ${listening("1F90")} && ${listening("1F91")}; do sleep 0.05; done`;
    await Promise.all([agent.exec(["sh", "-c", servers]), plain.exec(["sh", "-c", servers])]);
    const plan = (path: string, port: number, extra: Partial<ContainerHttpPlan> = {}): ContainerHttpPlan => ({
      method: "GET", path, hostHeader: null, headers: [], body: null, auth: null, httpVersion: "1.1", timeoutMs: 3_000, keepAliveRequests: 1,
      serverIp: "127.0.0.1", port, tls: false, clientCertificate: null, ...extra,
    });
    const items: BatchItem[] = [
      { plan: plan("/raw-client.py", 8080), skipAfterTimeout: false },
      { plan: plan("/", 8080, { method: "POST", body: "a=1&b='2'" }), skipAfterTimeout: false },
      { plan: plan("/", 9), skipAfterTimeout: false },
      { plan: plan("/", 8081, { timeoutMs: 1_000 }), skipAfterTimeout: false },
      { plan: plan("/", 8081, { timeoutMs: 1_000 }), skipAfterTimeout: true },
      { plan: plan("/missing", 8080, { headers: [["X-Odd", "$HOME `id` \"q\""]] }), skipAfterTimeout: false },
    ];
    expect(agent.agent).not.toBeNull();
    expect(plain.agent).toBeNull();
    const [viaAgent, viaScript] = await Promise.all([sendBatchFromContainer({ container: agent }, items, { gapMs: 30 }), sendBatchFromContainer({ container: plain }, items, { gapMs: 30 })]);
    const essence = (record: BatchRecord) => {
      const outcome = record.outcome;
      if (outcome === null) return { index: record.index, skipped: true };
      if (outcome.kind !== "response") return { index: record.index, code: outcome.code, port: record.localPort !== null };
      return { index: record.index, status: outcome.status, names: outcome.headers.map(([name]) => name), body: outcome.bodySha256, port: record.localPort !== null };
    };
    expect(viaAgent.map(essence)).toEqual(viaScript.map(essence));
    expect(viaAgent.map(essence)).toMatchObject([{ status: 200 }, { status: 501 }, { code: "ECONNREFUSED" }, { code: "TIMEOUT" }, { skipped: true }, { status: 404 }]);
    // A request went `gapMs` after the one before it ended (the server's log lines are told apart by that), as the
    // file server's own clock shows: the first two requests (quick answers) are at least a gap apart. The records'
    // arrival here cannot show it: under a busy suite the attach stream brought two records in one chunk.
    // An error answer is noted twice (send_error logs, then logs the request): each request's first note.
    const handledAt = async (container: HarnessContainer) => {
      const notes = (await container.exec(["cat", "/tmp/times"])).stdout.trim().split("\n").map((line) => ({ at: Number(line.split(" ")[0]) * 1000, request: line.slice(line.indexOf(" ") + 1) }));
      return notes.filter((note, i) => notes.findIndex((n) => n.request === note.request) === i).map((note) => note.at);
    };
    for (const container of [agent, plain]) {
      const handled = await handledAt(container);
      expect(handled).toHaveLength(3);
      expect(handled[1]! - handled[0]!).toBeGreaterThanOrEqual(30);
    }
    expect(viaAgent.every((record, i) => i === 0 || record.receivedAt >= viaAgent[i - 1]!.receivedAt)).toBe(true);
  });
});
