// Several harness processes on one engine: a run in another pid namespace, a user's own container from a harness
// image, and a run killed with SIGKILL. Clean-up goes by each run's lease (engine/lease.ts), never by pid.
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

  it("reaps a run killed with SIGKILL once its lease has expired: the next run, or any run that starts first", async () => {
    const engine = await connectEngine();
    const killed = sessionName("killed");
    const victim = startCli(["run", scenarios(3), "--baseline", image(), "--candidate", image(), "--concurrency", "1"], {
      HARNESS_SESSION: killed,
      // Long enough that the sweep below, a moment after the kill, meets a live lease on any machine (10 s + 5 s of
      // grace, for two engine calls); the wait for its expiry after that is a state, not a sleep.
      HARNESS_LEASE_SECONDS: "10",
      DEBUG: "harness:docker",
    });
    await waitFor("the victim's first server", () => /created from .* \(server\)/.test(victim.stderrSoFar()));
    victim.kill("SIGKILL");
    expect((await victim.done).signal).toBe("SIGKILL");
    const left = await listHarnessResources(engine, { session: killed });
    expect(left.containers.length).toBeGreaterThan(0);
    const leases = async (): Promise<number> => ((await engine.docker.listVolumes({ filters: { label: [`${LABEL_SESSION}=${killed}`] } })).Volumes ?? []).length;
    expect(await leases()).toBeGreaterThan(0);

    // While the lease holds, a sweep leaves the victim's resources alone.
    await sweepAbandoned(engine);
    expect(await listHarnessResources(engine, { session: killed })).toEqual(left);

    // Until the lease has expired past its grace on the engine's clock: a state, however long the machine takes.
    await waitFor("the victim's lease to expire", async () => {
      const [all, now] = await Promise.all([listLeases(engine), engineNow(engine)]);
      return all.filter((lease) => lease.session === killed).every((lease) => now > lease.expires + leaseGraceMs(lease.seconds));
    });
    // Other test files run the harness at the same time, and any run's start sweeps expired leases, so the
    // victim's resources may be reaped by one of them rather than by this next run. Whoever reaps them, they go,
    // and a run that reaps says so in its own words.
    const next = await startCli(["run", scenarios(1), "--baseline", image(), "--candidate", image()], {}).done;
    expect(next.status).toBe(0);
    if (/removed \d+ container/.test(next.stderr)) expect(next.stderr).toMatch(/removed \d+ containers and \d+ networks left by runs? [\w.-]+(, [\w.-]+)*, whose lease expired/);
    expect(await listHarnessResources(engine, { session: killed })).toEqual({ containers: [], networks: [] });
    expect(await leases()).toBe(0);
  });
});
