// One run spread over two real engines (`run --engines`): the first engine of this test run and a second dockerd
// in a network namespace of its own (scripts/ensure-extra-engine.sh), reached over tcp:// as a remote engine is.
// The same work (catalogue scenarios and config trees with generated probes, whose outsider client sits at a fixed
// subnet on whichever engine runs it, at once on both) is run on one engine and on two, and judged alike; the
// images reach the second engine as copies of the first's; an engine killed mid-run loses no scenario; nothing of
// the runs is left on either engine.
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { copyImage, imageId } from "../../../harness/engine/copy-image.ts";
import { connectEngine, type Engine, namedEngineTarget } from "../../../harness/engine/engine.ts";
import { LABEL_RUN_ID, LABEL_SESSION, LABEL_ROLE, LABEL_SCENARIO } from "../../../harness/engine/labels.ts";
import { sweepAbandoned } from "../../../harness/engine/sweep.ts";
import type { Report } from "../../../harness/report/report-model.ts";
import { type ExtraEngine, extraEngineUnavailable, startExtraEngine } from "../../helpers/extra-engine.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";
import type { EngineEvent } from "../../helpers/engine-events.ts";
import { judgedReport } from "../../helpers/judged-report.ts";
import { type CliResult, runCli } from "../../helpers/run-cli.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SCENARIOS = [
  "authz/server-status-directory-deny", // a request from the host, allowed by the network's gateway address
  "authz/require-ip-host-all-unchanged", // client containers
  "authz/authz-host-ip-host-checks", // client containers by address and by name
  "ssl-proxy/proxy-valid-backend-all-checks", // a TLS backend and certificates
  "defaults/etag-default-without-inode",
  "defaults/ssi-legacy-if-expr", // differs between 2.4.67 and 2.4.68: findings to compare
].map((id) => join(ROOT, "scenarios/catalogue", `${id}.scenario.yaml`));
// Trees without a server-status page (its body changes with every answer); each probe set has an outsider
// client at a fixed address.
const TREES = ["app-htaccess", "staging-lock", "queuewatch-cgi"].flatMap((tree) => ["--config", join(ROOT, "configs", tree)]);
const WORK = SCENARIOS.length + 3;
// Not the global set-up's session: this file's runs, and only they, are looked for afterwards.
const SESSION = `engines-${randomBytes(4).toString("hex")}`;

const unavailable = extraEngineUnavailable();

interface Ran {
  cli: CliResult;
  report: Report;
  ms: number;
}

/** The run command on this file's work, with one report file; DEBUG=harness:docker tells the copies' durations. */
async function runOn(engines: string | null, env: Record<string, string> = {}, background?: (done: Promise<unknown>) => Promise<void>): Promise<Ran> {
  const images = inject("images");
  const out = join(await mkdtemp(join(tmpdir(), "harness-engines-")), "report.json");
  const args = ["run", ...SCENARIOS, ...TREES, "--probes", "--baseline", images.olderCandidate, "--candidate", images.candidate, "--concurrency", "2", "--report", `json:${out}`];
  if (engines !== null) args.push("--engines", engines);
  const started = Date.now();
  const running = runCli(args, { env: { HARNESS_SESSION: SESSION, DEBUG: "harness:docker", ...env } });
  await background?.(running);
  const cli = await running;
  const ms = Date.now() - started;
  if (cli.status !== 0 && cli.status !== 1) {
    // What the run printed (its summary names each error), and what it said besides the engine's debug log (with
    // the indented error objects of the connections a killed engine refused).
    const said = cli.stderr.split("\n").filter((l) => l !== "" && !l.includes("harness:docker") && !/^(\s|[{}])/.test(l));
    throw new Error(`run exited ${cli.status}:\n${cli.stdout.split("\n").slice(-30).join("\n")}\n${said.join("\n")}`);
  }
  return { cli, report: JSON.parse(readFileSync(out, "utf8")) as Report, ms };
}

/** What this file's runs left on an engine: containers, networks and lease volumes of its session (or of any run,
 * on the second engine, which only this file uses). */
async function leftOn(engine: Engine, which: "session" | "any"): Promise<string[]> {
  const resources = await listHarnessResources(engine, which === "session" ? { session: SESSION } : undefined);
  const { Volumes } = await engine.docker.listVolumes({ filters: { label: [which === "session" ? `${LABEL_SESSION}=${SESSION}` : LABEL_RUN_ID] } });
  return [...resources.containers, ...resources.networks, ...(Volumes ?? []).map((v) => v.Name)];
}

/** The first server container of this file's session that `engine` makes from now on, by the engine's event; `stop`
 * ends the listening. */
async function serverCreated(engine: Engine): Promise<{ first: Promise<EngineEvent>; stop: () => void }> {
  const filters = { type: ["container"], event: ["create"], label: [`${LABEL_SESSION}=${SESSION}`, `${LABEL_ROLE}=server`] };
  const stream = (await engine.docker.getEvents({ filters: JSON.stringify(filters) })) as NodeJS.ReadableStream & { destroy: () => void };
  const first = new Promise<EngineEvent>((resolve) => {
    let pending = "";
    stream.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop()!;
      const event = lines.filter(Boolean).map((line) => JSON.parse(line) as EngineEvent)[0];
      if (event !== undefined) resolve(event);
    });
  });
  // The engine killed under it ends the stream with an error: nothing to wait for then.
  stream.on("error", () => undefined);
  return { first, stop: () => stream.destroy() };
}

/** The progress lines (and notes) a run wrote, without the debug log. */
function progress(cli: CliResult): string[] {
  return cli.stderr.split("\n").filter((line) => line !== "" && !/ harness:docker /.test(line));
}

describe.skipIf(unavailable !== null)(`a run over two engines${unavailable ? ` (skipped: ${unavailable})` : ""}`, { timeout: 900_000 }, () => {
  let extra: ExtraEngine;
  let first: Engine;
  let firstUrl: string;
  let one: Ran;
  let firstCopies = "";

  beforeAll(async () => {
    first = await connectEngine();
    firstUrl = namedEngineTarget().url;
    extra = await startExtraEngine("vitest-engines");
    // The first copy of the images to a new engine takes its time (three images of 260-280 MB: about 25 s here).
    // Done once, up front, so that the second engine is ready soon enough in the runs below to take its share;
    // each run then copies the one image the test removes from it.
    const images = inject("images");
    const copied: string[] = [];
    for (const image of [images.candidate, images.tools]) {
      if ((await imageId(extra.engine, image)) !== null) continue;
      const started = Date.now();
      await copyImage(first, extra.engine, image);
      copied.push(`${image} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    firstCopies = copied.length > 0 ? `; first copies to the new engine: ${copied.join(", ")}` : "";
    one = await runOn(null);
  }, 600_000);

  afterAll(async () => {
    // Whatever happened: the second engine goes (its data root, with the images copied to it, stays for the next run).
    await extra?.stop();
  }, 180_000);

  it("gives the judged report of one engine, with each scenario's engine named, and copies the images to the second", async ({ annotate }) => {
    const images = inject("images");
    // The baseline image leaves the second engine, so this run must copy it there (the others too on a fresh engine).
    await extra.engine.docker.getImage(images.olderCandidate).remove({ force: true }).catch(() => undefined);
    // The first engine one scenario at a time, so that the second does a fair part of the work once its copy is
    // made (8-25 s, longer beside another file's fleet; the first engine alone runs it all in 14-30 s). That it
    // takes part at all does not depend on those times: the first engine leaves it a scenario while it has taken
    // none (observe/engine-share.ts).
    const two = await runOn(`${firstUrl}=1,${extra.url}`);

    expect(two.cli.status).toBe(one.cli.status);
    expect(judgedReport(two.report)).toEqual(judgedReport(one.report));
    expect([one.report.engines, one.report.scenarios.every((s) => s.engine === null)]).toEqual([null, true]);

    // Which engine ran what: in the report, per scenario and per engine, and on the progress lines.
    const engines = two.report.engines ?? [];
    expect(engines.map((e) => [e.name, e.concurrency, e.lost])).toEqual([
      [firstUrl, 1, null],
      [extra.url, 2, null],
    ]);
    const copies = [...two.cli.stderr.matchAll(/copied (\S+) to \S+ in (\d+) ms/g)].map(([, image, ms]) => `${image} ${(Number(ms) / 1000).toFixed(1)} s`);
    const timing = `one engine ${(one.ms / 1000).toFixed(0)} s, two engines ${(two.ms / 1000).toFixed(0)} s; copied to the second engine: ${copies.join(", ")}${firstCopies}`;
    for (const engine of engines) {
      expect(engine.scenarios, `${engine.name} ran nothing (${timing})`).toBeGreaterThan(0);
      expect(two.report.scenarios.filter((s) => s.engine === engine.name)).toHaveLength(engine.scenarios);
    }
    expect(engines[0]!.scenarios + engines[1]!.scenarios).toBe(WORK);
    const lines = progress(two.cli).filter((line) => /^\[\s*\d+\/\d+\]/.test(line));
    expect(lines).toHaveLength(WORK);
    for (const scenario of two.report.scenarios) expect(lines.find((line) => line.includes(` ${scenario.id} `))).toMatch(new RegExp(`  on ${scenario.engine!.replace(/[./]/g, "\\$&")}$`));

    // The images came from the first engine: the same image ids on both, the baseline copied by this run.
    expect(progress(two.cli)).toContain(`copying ${images.olderCandidate} from ${firstUrl} to ${extra.url}`);
    for (const image of [images.olderCandidate, images.candidate, images.tools]) {
      expect(await imageId(extra.engine, image), image).toBe(await imageId(first, image));
    }
    await annotate(timing);

    expect(await leftOn(first, "session")).toEqual([]);
    expect(await leftOn(extra.engine, "any")).toEqual([]);
  });

  it("stops before anything runs when the second engine holds another image under a run image's name", async () => {
    const images = inject("images");
    const [repo, tag] = images.olderCandidate.split(":");
    // The tools image under the baseline's name: same name, another id.
    await extra.engine.docker.getImage(images.olderCandidate).remove({ force: true }).catch(() => undefined);
    await extra.engine.docker.getImage(images.tools).tag({ repo: repo!, tag: tag! });
    try {
      const args = ["run", SCENARIOS[0]!, "--baseline", images.olderCandidate, "--candidate", images.candidate, "--engines", `${firstUrl},${extra.url}`];
      const cli = await runCli(args, { env: { HARNESS_SESSION: SESSION } });
      expect(cli.status).toBe(3);
      expect(cli.stderr).toContain("HARNESS_ENGINE_MISMATCH");
      expect(cli.stderr).toContain(`${images.olderCandidate} is ${await imageId(first, images.olderCandidate)} on ${firstUrl} but ${await imageId(extra.engine, images.tools)} on ${extra.url}`);
      expect(cli.stderr).not.toMatch(/^\[\s*\d+\/\d+\]/m);
    } finally {
      await extra.engine.docker.getImage(images.olderCandidate).remove({ force: true }).catch(() => undefined);
    }
    expect(await leftOn(first, "session")).toEqual([]);
    expect(await leftOn(extra.engine, "any")).toEqual([]);
  });

  it("loses no scenario when the second engine dies mid-run: its scenarios finish on the first, and the report says it was lost", async () => {
    let killedWhile: string[] = [];
    // Killed as soon as the second engine makes a server of this run: told by its event, listened for before the run
    // begins, so no server can come and go unseen between two looks.
    const servers = await serverCreated(extra.engine);
    const lost = await runOn(`${firstUrl},${extra.url}`, {}, async (done) => {
      const first = await Promise.race([servers.first, done.then(() => null)]);
      servers.stop();
      if (first === null) return;
      killedWhile = [first.Actor.Attributes[LABEL_SCENARIO] ?? "?"];
      extra.kill();
    });
    expect(killedWhile.length, "the second engine was never seen running a server of the run").toBeGreaterThan(0);

    expect(lost.cli.status).toBe(one.cli.status);
    expect(lost.report.scenarios).toHaveLength(WORK);
    expect(judgedReport(lost.report)).toEqual(judgedReport(one.report));
    const [onFirst, onSecond] = lost.report.engines ?? [];
    expect(onFirst).toMatchObject({ name: firstUrl, lost: null });
    expect(onSecond).toMatchObject({ name: extra.url, lost: expect.stringMatching(/^stopped answering during \S+/) });
    // What the second engine finished before it died stays its own; everything else ran on the first.
    expect(lost.report.scenarios.filter((s) => s.engine === extra.url)).toHaveLength(onSecond!.scenarios);
    expect(lost.report.scenarios.filter((s) => s.engine === firstUrl)).toHaveLength(WORK - onSecond!.scenarios);
    // The scenarios the dead engine was running are named by its notes (a server host runs config after config and
    // is labelled with its lane, so the containers seen at the kill need not name them): each finished on the first.
    const moved = progress(lost.cli).flatMap((line) => {
      const match = line.startsWith(`engine ${extra.url} stopped answering during `) ? /stopped answering during (\S+?)[;:,]/.exec(line) : null;
      return match ? [match[1]!] : [];
    });
    expect(moved.length, `no note of the scenarios the second engine was running (seen there: ${killedWhile.join(", ")})`).toBeGreaterThan(0);
    for (const scenario of moved) expect(lost.report.scenarios.find((s) => s.id === scenario)?.engine, scenario).toBe(firstUrl);

    // Nothing left: the first engine's share went with the run; what the dead engine held is reaped by the first
    // sweep once it answers again: the run's process has ended, and its lease names it (engine/lease-holder.ts), so
    // the sweep does not wait for the lease to run out.
    expect(await leftOn(first, "session")).toEqual([]);
    await extra.restart();
    await sweepAbandoned(extra.engine);
    expect(await leftOn(extra.engine, "any")).toEqual([]);
  });
});
