// The engine the environment names, and no other: a dead one is exit 3 naming it, with nothing started on the
// engine that does answer here.
import { createHash, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { connectEngine } from "../../../harness/engine/engine.ts";
import { listHarnessResources } from "../../helpers/harness-resources.ts";
import { runCli } from "../../helpers/run-cli.ts";

const ENSURE_ENGINE = fileURLToPath(new URL("../../../scripts/ensure-engine.sh", import.meta.url));

function scenarioDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "harness-named-"));
  writeFileSync(
    join(dir, "ok.scenario.yaml"),
    `id: named-engine
title: GET / answers 200
seed: [U1]
server:
  files: { htdocs/index.html: "hello\\n" }
requests:
  - { name: index, path: /, expect: { both: { status: 200 } } }
`,
  );
  return dir;
}

/** A DOCKER_CONFIG whose current context points at a dead socket. */
function deadContext(): { dir: string; socket: string } {
  const dir = mkdtempSync(join(tmpdir(), "harness-docker-config-"));
  const socket = join(dir, "dead.sock");
  const meta = join(dir, "contexts", "meta", createHash("sha256").update("dead").digest("hex"));
  mkdirSync(meta, { recursive: true });
  writeFileSync(join(meta, "meta.json"), JSON.stringify({ Name: "dead", Metadata: {}, Endpoints: { docker: { Host: `unix://${socket}`, SkipTLSVerify: false } } }));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ currentContext: "dead" }));
  return { dir, socket };
}

describe("the engine the environment names", { timeout: 120_000 }, () => {
  const image = (): string => inject("images").candidate;
  const home = mkdtempSync(join(tmpdir(), "harness-home-"));
  const context = deadContext();

  const cases: Array<{ what: string; env: Record<string, string>; names: RegExp }> = [
    { what: "a dead unix socket in DOCKER_HOST", env: { DOCKER_HOST: "unix:///no/such/engine.sock" }, names: /unix:\/\/\/no\/such\/engine\.sock \(DOCKER_HOST\)/ },
    { what: "a dead tcp port in DOCKER_HOST", env: { DOCKER_HOST: "tcp://127.0.0.1:1" }, names: /tcp:\/\/127\.0\.0\.1:1 \(DOCKER_HOST\)/ },
    {
      what: "a docker context pointing at a dead socket",
      env: { DOCKER_HOST: "", HOME: home, DOCKER_CONFIG: context.dir },
      names: new RegExp(`unix://${context.socket.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} \\(docker context dead \\(currentContext in `),
    },
  ];

  for (const { what, env, names } of cases) {
    it(`exits 3 naming ${what}, and starts nothing on another engine`, async () => {
      const session = `test-named-${randomBytes(3).toString("hex")}`;
      const result = await runCli(["run", scenarioDir(), "--baseline", image(), "--candidate", image()], {
        env: { ...env, HARNESS_SESSION: session, DEBUG: "harness:docker" },
      });
      expect(result.status).toBe(3);
      expect(result.stderr).toMatch(/HARNESS_ENGINE_UNAVAILABLE: The Docker engine /);
      expect(result.stderr).toMatch(names);
      expect(result.stderr).toMatch(/never falls back to another engine/);
      expect(result.stderr).not.toMatch(/created from|lease of .* renewed/);
      expect(await listHarnessResources(await connectEngine(), { session })).toEqual({ containers: [], networks: [] });

      // Setup agrees: ensure-engine.sh says exit 3 for the same setting, and starts no engine.
      const ensure = spawnSync("bash", [ENSURE_ENGINE], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
      expect(ensure.status).toBe(3);
      expect(ensure.stderr).toMatch(names);
      expect(ensure.stderr).not.toMatch(/starting dockerd|installing/);
    });
  }

  it("says which engine the environment names with `engine`", async () => {
    const result = await runCli(["engine"], { env: { DOCKER_HOST: "", HOME: home, DOCKER_CONFIG: context.dir } });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`url=unix://${context.socket}\n`);
    expect(result.stdout).toContain("named=true\n");
  });
});
