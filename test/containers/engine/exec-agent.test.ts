// The exec agent against the engine's own exec: a client container runs the commands the harness sends over its
// attach stream, and each gives what `docker exec` gives for it in a container of the same image (stdout, stderr,
// the exit status, stdin), while no exec reaches the engine. A command that outlives its time is killed with its
// children, which an engine exec cannot do.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { HarnessContainer } from "../../../harness/engine/container.ts";
import { RunScope } from "../../../harness/engine/run-scope.ts";

const COMMANDS: Array<{ name: string; command: string[]; stdin?: Buffer }> = [
  { name: "output on both streams and a status", command: ["sh", "-c", "printf 'out\\n'; printf 'err\\n' >&2; printf more; exit 3"] },
  { name: "stdin passed through", command: ["sh", "-c", "wc -c; cat >/dev/null"], stdin: Buffer.alloc(300_000, 0x61) },
  { name: "binary output", command: ["sh", "-c", "head -c 200000 /dev/zero | tr '\\0' '\\377'; printf '\\000\\n\\001'"] },
  { name: "ended by a signal", command: ["sh", "-c", "kill -9 $$"] },
  { name: "empty output", command: ["true"] },
];

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
    // The kill is sent at the timeout; the processes are gone right after.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The tools image has no ps: the processes' command lines from /proc.
    const listing = await agent.exec(["sh", "-c", "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done"]);
    expect(listing.stdout).toContain("exec-agent.py");
    expect(listing.stdout).not.toMatch(/^sleep 3[01]/m);
  });

  it("fails a command once the container is gone, naming the agent", async () => {
    const image = inject("images").tools;
    const doomed = await HarnessContainer.create(scope, { image, role: "client", scenario: "exec-agent", agent: true });
    await doomed.start();
    const running = doomed.exec(["sleep", "30"], { timeoutMs: 20_000 }).then(
      () => null,
      (error: Error) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await doomed.remove();
    expect((await running)?.message).toMatch(/exec agent .* is gone/);
    await expect(doomed.exec(["true"])).rejects.toThrow(/exec agent .* is gone/);
  });
});
