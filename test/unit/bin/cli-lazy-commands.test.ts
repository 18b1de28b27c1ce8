// The CLI loads what a command needs (harness/cli/main.ts imports each command's module when it runs it; the bundle
// is split along the same lines): the offline commands never load the engine's packages, the HTTP client or the
// scenario schema's validator. Each command runs as an operator runs it (bin/httpd-upgrade-harness.js, from the
// bundle), with a preloaded resolve hook that writes down every module the process loads.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = join(ROOT, "bin/httpd-upgrade-harness.js");
const HOOK = join(ROOT, "test/unit/bin/loaded-packages.mjs");
const HEAVY = ["dockerode", "testcontainers", "undici", "zod"];
const SAMPLE = join(ROOT, "configs/name-vhosts");

/** The packages under node_modules a CLI run loaded (from what the hook wrote), with its exit status. */
function packagesLoaded(args: string[], env: Record<string, string> = {}): { status: number | null; packages: string[]; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "cli-lazy-"));
  try {
    const log = join(dir, "loaded.txt");
    const run = spawnSync(process.execPath, ["--import", HOOK, BIN, ...args.map((arg) => arg.replace("$OUT", join(dir, "out")))], {
      env: { ...process.env, NO_COLOR: "1", LOADED_PACKAGES_LOG: log, ...env },
      encoding: "utf8",
    });
    const loaded = readFileSync(log, "utf8");
    const packages = [...new Set([...loaded.matchAll(/node_modules\/((?:@[^/]+\/)?[^/.][^/]*)\//g)].map((match) => match[1]!))].sort();
    return { status: run.status, packages, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the CLI's offline commands", { timeout: 120_000 }, () => {
  it.each([
    ["lint", ["lint", SAMPLE, "--format", "json"]],
    ["lint --format sarif to a file", ["lint", SAMPLE, "--format", "sarif", "--output", "$OUT"]],
    ["plan --config", ["plan", "--config", SAMPLE]],
    ["config", ["config", SAMPLE, "--for", "2.4"]],
    ["migrate", ["migrate", SAMPLE, "--out", "$OUT"]],
  ])("%s loads none of dockerode, testcontainers, undici, zod", (_name, args) => {
    const { status, packages, stderr } = packagesLoaded(args);
    expect(status, stderr).toBeLessThanOrEqual(1);
    // The hook saw the run: the command's own packages are in the list.
    expect(packages).toContain("picocolors");
    expect(packages.filter((name) => HEAVY.includes(name))).toEqual([]);
  });

  it("fleet loads the engine's client but not the scenario schema's validator, the HTTP client or the YAML parser", () => {
    // A fleet with neither fleet.yaml nor --matrix: its requests go from the seats' agents, its certificates need only
    // their kinds' list. The engine does not answer, so the run stops once its modules are loaded.
    const { packages, stderr } = packagesLoaded(["fleet", SAMPLE, "--state", "$OUT"], { DOCKER_HOST: "tcp://127.0.0.1:9" });
    expect(packages, stderr).toContain("dockerode");
    expect(packages.filter((name) => ["undici", "zod", "yaml", "testcontainers"].includes(name))).toEqual([]);
  });

  it("a command that needs the engine still loads it (the hook would see it)", () => {
    // `engine` asks the engine; whatever it answers, it has loaded dockerode to ask.
    const { packages } = packagesLoaded(["engine"], { DOCKER_HOST: "tcp://127.0.0.1:9" });
    expect(packages).toContain("dockerode");
  });
});
