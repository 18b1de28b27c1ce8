// Faults on purpose, through the real CLI: an image that is not httpd, a config that passes the config test but
// exits at start, and an engine that stops answering mid-run. Each keeps the contract: the right exit status,
// a clear message, and no report that claims what was not observed.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { sweepAbandoned } from "../../../harness/engine/sweep.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";
import { runYamlScenarios } from "../../helpers/run-yaml-scenarios.ts";
import { runCli } from "../../helpers/run-cli.ts";
import { scenarioDir, statusScenario } from "../../helpers/scenario-files.ts";

/** The engine's own socket, as the tests' environment names it. */
function engineSocket(): string {
  const host = process.env.DOCKER_HOST ?? "";
  return host.startsWith("unix://") ? host.slice("unix://".length) : "/var/run/docker.sock";
}

/** A unix socket that forwards to the engine until `stop()`: then the engine, as the harness sees it, is gone. */
async function engineProxy(path: string): Promise<{ stop: () => void }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(engineSocket());
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const close = (): void => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) socket.on("error", close).on("close", close);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    stop: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

describe("faults", { timeout: 240_000 }, () => {
  const image = (): string => inject("images").candidate;

  it("refuses an image that is not httpd with exit 3, naming it, and writes no report", async () => {
    const dir = scenarioDir({ "a.scenario.yaml": statusScenario(200, "not-httpd") });
    const out = mkdtempSync(join(tmpdir(), "harness-reports-"));
    const tools = inject("images").tools;
    const result = await runCli(["run", dir, "--baseline", tools, "--candidate", image(), "--report", `json:${out}/r.json`]);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain(`HARNESS_IMAGE_UNSUPPORTED: The image ${tools} has no httpd where the harness looks for one.`);
    expect(existsSync(`${out}/r.json`)).toBe(false);
  });

  it("records a config that passes the config test but exits at start, on both sides alike, as broken-on-both", async () => {
    const { runs, reports } = await runYamlScenarios([
      `
id: exits-at-start
title: a PidFile in a directory that does not exist passes httpd -t and stops the start
server:
  config: |
    PidFile /no/such/directory/httpd.pid
requests:
  - { name: index, path: / }
`,
    ]);
    for (const observation of runs[0]!.observations) {
      expect(observation.configTest.ok).toBe(true);
      expect(observation.started).toBe(false);
      expect(observation.startFailure?.logTail.join("\n")).toMatch(/no\/such\/directory/);
    }
    expect(reports[0]!.verdict).toBe("broken-on-both");
    expect(reports[0]!.servers.candidate!.startFailure).not.toBeNull();
  });

  it("stops with exit 3 and no report when the engine stops answering mid-run", async () => {
    const dir = scenarioDir(Object.fromEntries(["one", "two", "three"].map((id) => [`${id}.scenario.yaml`, statusScenario(200, `engine-gone-${id}`)])));
    const out = mkdtempSync(join(tmpdir(), "harness-reports-"));
    const socket = join(mkdtempSync(join(tmpdir(), "harness-engine-")), "engine.sock");
    const proxy = await engineProxy(socket);
    const session = `engine-gone-${process.pid}`;
    let child: ChildProcess | undefined;
    const result = await new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
      child = spawn(process.execPath, ["bin/httpd-upgrade-harness.js", "run", dir, "--baseline", image(), "--candidate", image(), "--concurrency", "1", "--report", `json:${out}/r.json`], {
        // A session of its own: what the lost run leaves is the next sweep's, its process being gone by then.
        env: { ...process.env, DOCKER_HOST: `unix://${socket}`, HARNESS_SESSION: session },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        // The first scenario is done: the engine goes away while the run goes on.
        if (/\[1\/3\]/.test(stderr)) proxy.stop();
      });
      child.on("error", reject);
      child.on("close", (status) => resolve({ status, stderr }));
    });
    proxy.stop();
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/HARNESS_ENGINE_UNAVAILABLE: The Docker engine \(unix:\/\/.*engine\.sock\) stopped answering during the run; no report was written\./);
    expect(existsSync(`${out}/r.json`)).toBe(false);
    // What the lost run left on the real engine is the next sweep's to remove: the run's process has ended, and its
    // lease names it (engine/lease-holder.ts), so the sweep does not wait for the lease to run out.
    const engine = await connectEngine();
    await sweepAbandoned(engine);
    expect(await listHarnessResources(engine, { session })).toEqual({ containers: [], networks: [] });
  });
});
