// Several harness processes on one engine: a run in another pid namespace, a user's own container from a harness
// image, and a run killed with SIGKILL. Clean-up goes by each run's lease (engine/lease.ts), and by whether the lease's
// holder lives where a sweep can see it (engine/lease-holder.ts: this kernel and pid namespace), never by a bare pid.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { pack } from "tar-stream";
import type { Engine } from "../../../harness/engine/engine.ts";
import { imageLabels, LABEL_APP, LABEL_IMAGE, LABEL_RUN_ID, LABEL_SESSION } from "../../../harness/engine/labels.ts";
import { engineNow, leaseGraceMs, listLeases } from "../../../harness/engine/lease.ts";
import { sweepAbandoned } from "../../../harness/engine/sweep.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";
import { scenarioDir, statusScenario } from "../../helpers/scenario-files.ts";
import type { CliResult } from "../../helpers/run-cli.ts";

const BIN = fileURLToPath(new URL("../../../bin/httpd-upgrade-harness.js", import.meta.url));

/** `count` small scenarios in a directory of their own. */
function scenarios(count: number): string {
  return scenarioDir(Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}.scenario.yaml`, statusScenario(200, `shared-${i}`)])), "harness-shared-");
}

interface Child {
  done: Promise<CliResult>;
  kill: (signal: NodeJS.Signals) => void;
  stderrSoFar: () => string;
}

/** The CLI in a child process, optionally under a command prefix (unshare ...). */
function startCli(args: string[], env: Record<string, string>, prefix: string[] = []): Child {
  const [command, ...rest] = [...prefix, process.execPath, BIN, ...args];
  const child = spawn(command!, rest, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { done, kill: (signal) => child.kill(signal), stderrSoFar: () => stderr };
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A copy of a harness image labelled as this version labels the images it builds (engine/images.ts). The local
 * images may come from a version before leases, whose images carried io.httpd-upgrade-harness=true; such versions,
 * still running elsewhere on a shared engine, sweep every container with that label and a dead (or absent) owner
 * pid: exactly the bug this test is about, in them, so the copy clears it. */
async function imageAsBuiltNow(engine: Engine, base: string): Promise<string> {
  const tag = `harness-test-user-image:${randomBytes(3).toString("hex")}`;
  const archive = pack();
  archive.entry({ name: "Dockerfile" }, `FROM ${base}\nLABEL ${LABEL_APP}=""\n`);
  archive.finalize();
  const stream = await engine.docker.buildImage(archive as unknown as NodeJS.ReadableStream, { t: tag, labels: imageLabels(tag), rm: true });
  await new Promise<void>((resolve, reject) =>
    engine.docker.modem.followProgress(stream, (error: Error | null, output: Array<{ error?: string }>) => {
      const failed = error ?? output.find((event) => event.error)?.error;
      if (failed) reject(new Error(String(failed)));
      else resolve();
    }),
  );
  return tag;
}

const sessionName = (what: string): string => `test-${what}-${randomBytes(3).toString("hex")}`;

describe("one engine shared by several harness processes", { timeout: 240_000 }, () => {
  const image = (): string => inject("images").candidate;

  it("runs two harness processes in different pid namespaces to a clean finish, neither sweeping the other", async () => {
    const engine = await connectEngine();
    const [sessionA, sessionB] = [sessionName("ns-a"), sessionName("ns-b")];
    const args = ["run", scenarios(4), "--baseline", image(), "--candidate", image(), "--concurrency", "1"];
    // A's lease outlasts its pause below by far: what B may not sweep is a live run's, not one whose lease expired.
    const a = startCli(args, { HARNESS_SESSION: sessionA, HARNESS_LEASE_SECONDS: "600" });
    // B starts (and sweeps) once A has containers on the engine, from a pid namespace of its own. A is paused
    // meanwhile, so that it cannot finish (or remove anything) before B's sweep, however fast or slow the machine:
    // the two runs overlap by construction, not by luck.
    await waitFor("run A's first container", async () => (await listHarnessResources(engine, { session: sessionA })).containers.length > 0);
    a.kill("SIGSTOP");
    const beforeB = await listHarnessResources(engine, { session: sessionA });
    const b = startCli(args, { HARNESS_SESSION: sessionB }, ["unshare", "--pid", "--fork", "--mount-proc"]);
    try {
      // A run sweeps before it makes its first container.
      await waitFor("run B's first container", async () => (await listHarnessResources(engine, { session: sessionB })).containers.length > 0, 120_000);
      // B's sweep left every one of A's containers and networks.
      expect(await listHarnessResources(engine, { session: sessionA })).toEqual(beforeB);
    } finally {
      a.kill("SIGCONT");
    }
    const [resultA, resultB] = await Promise.all([a.done, b.done]);
    for (const result of [resultA, resultB]) {
      expect(result.stderr).not.toMatch(/error|removed \d+ containers/i);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/4 scenarios in .*: 0 regression, 0 error/);
    }
    for (const session of [sessionA, sessionB]) expect(await listHarnessResources(engine, { session })).toEqual({ containers: [], networks: [] });
  });

  it("leaves alone a container a user starts from a harness image, which inherits the image's labels", async () => {
    const engine = await connectEngine();
    const userImage = await imageAsBuiltNow(engine, image());
    const user = await engine.docker.createContainer({ Image: userImage, Cmd: ["sleep", "600"], Entrypoint: [] });
    try {
      await user.start();
      const labels = (await user.inspect()).Config.Labels;
      // Docker copies the image's labels to the container; the sweep selects by one no image carries.
      expect(labels).toMatchObject(imageLabels(userImage));
      expect(labels[LABEL_IMAGE]).toBe("true");
      expect(labels[LABEL_RUN_ID]).toBeUndefined();

      const result = startCli(["run", scenarios(1), "--baseline", image(), "--candidate", image()], { HARNESS_LEASE_SECONDS: "1" });
      expect((await result.done).status).toBe(0);
      expect((await user.inspect()).State.Running).toBe(true);
    } finally {
      await user.remove({ force: true });
      await engine.docker.getImage(userImage).remove();
    }
  });

  /** A run in a child process (under `prefix`), killed with SIGKILL once its first server was made: the session
   * its resources carry and what it left. */
  async function killedRun(what: string, leaseSeconds: number, prefix: string[] = []): Promise<{ session: string; left: Awaited<ReturnType<typeof listHarnessResources>> }> {
    const engine = await connectEngine();
    const session = sessionName(what);
    const victim = startCli(
      ["run", scenarios(3), "--baseline", image(), "--candidate", image(), "--concurrency", "1"],
      { HARNESS_SESSION: session, HARNESS_LEASE_SECONDS: String(leaseSeconds), DEBUG: "harness:docker" },
      prefix,
    );
    await waitFor(`${what}'s first server`, () => /created from .* \(server\)/.test(victim.stderrSoFar()));
    victim.kill("SIGKILL");
    expect((await victim.done).signal).toBe("SIGKILL");
    const left = await listHarnessResources(engine, { session });
    expect(left.containers.length).toBeGreaterThan(0);
    expect(await leaseVolumes(engine, session)).toBeGreaterThan(0);
    return { session, left };
  }

  const leaseVolumes = async (engine: Engine, session: string): Promise<number> =>
    ((await engine.docker.listVolumes({ filters: { label: [`${LABEL_SESSION}=${session}`] } })).Volumes ?? []).length;

  /** The next run on the engine, or any other that starts first (other test files run the harness at the same time,
   * and every run's start sweeps), reaps what the killed run left; a run that reaps says so in its own words. */
  async function reapedByNextRun(engine: Engine, session: string): Promise<void> {
    const next = await startCli(["run", scenarios(1), "--baseline", image(), "--candidate", image()], {}).done;
    expect(next.status).toBe(0);
    if (/removed \d+ container/.test(next.stderr)) expect(next.stderr).toMatch(/removed \d+ containers and \d+ networks left by runs? [\w.-]+(, [\w.-]+)*, whose lease expired or whose process is gone/);
    expect(await listHarnessResources(engine, { session })).toEqual({ containers: [], networks: [] });
    expect(await leaseVolumes(engine, session)).toBe(0);
  }

  it("reaps a run killed with SIGKILL at once, its process known gone, though its lease has ten minutes to run", async () => {
    const engine = await connectEngine();
    // The run is this machine's process, in this pid namespace: its lease names it (engine/lease-holder.ts).
    const { session } = await killedRun("killed", 600);
    const leases = (await listLeases(engine)).filter((lease) => lease.session === session);
    expect(leases.length).toBeGreaterThan(0);
    expect(leases.every((lease) => lease.holderGone === true)).toBe(true);
    await reapedByNextRun(engine, session);
  });

  it("keeps a killed run's resources while its lease holds where its process cannot be seen, and reaps them once it expired", async () => {
    const engine = await connectEngine();
    // In a pid namespace of its own (unshare kills it with itself): no sweep here can tell whether it lives.
    const unseen = ["unshare", "--pid", "--fork", "--kill-child", "--mount-proc"];
    const held = await killedRun("killed-unseen", 600, unseen);
    try {
      expect((await listLeases(engine)).filter((lease) => lease.session === held.session).some((lease) => lease.holderGone === true)).toBe(false);
      // Its lease runs ten minutes from its last renewal: a sweep now leaves everything, on any machine.
      await sweepAbandoned(engine);
      expect(await listHarnessResources(engine, { session: held.session })).toEqual(held.left);
    } finally {
      for (const runId of new Set((await listLeases(engine)).filter((lease) => lease.session === held.session).map((lease) => lease.runId))) await sweepAbandoned(engine, { runId });
    }
    expect(await listHarnessResources(engine, { session: held.session })).toEqual({ containers: [], networks: [] });

    // With a lease of 2 s, a run unseen is reaped once the lease has expired past its grace on the engine's clock: a
    // state, however long the machine takes to get there.
    const short = await killedRun("killed-short", 2, unseen);
    await waitFor("the killed run's lease to expire", async () => {
      const [all, now] = await Promise.all([listLeases(engine), engineNow(engine)]);
      return all.filter((lease) => lease.session === short.session).every((lease) => now > lease.expires + leaseGraceMs(lease.seconds));
    });
    await reapedByNextRun(engine, short.session);
  });
});
