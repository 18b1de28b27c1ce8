// `run --engines`: a list that is not one is a usage error before anything is read or asked; an engine of the list
// that does not answer is the environment's fault, named, and the run never falls back to another engine.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.ts";

const SCENARIO = fileURLToPath(new URL("../../../scenarios/catalogue/defaults/etag-default-without-inode.scenario.yaml", import.meta.url));

describe("run --engines", { timeout: 60_000 }, () => {
  it("refuses a list that names no engine the way DOCKER_HOST would: exit 2, with the form to use", async () => {
    const result = await runCli(["run", SCENARIO, "--engines", "unix:///var/run/docker.sock,ftp://build-2"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--engines "unix:///var/run/docker.sock,ftp://build-2": "ftp://build-2" is not an engine address');
    expect(result.stderr).toContain("--engines unix:///var/run/docker.sock=2,ssh://ops@build-2=4");
  });

  it("names the engine of the list that does not answer, exit 3, and uses neither it nor DOCKER_HOST's", async () => {
    const result = await runCli(["run", SCENARIO, "--engines", "unix:///nonexistent/one.sock=2,unix:///nonexistent/two.sock"], {
      env: { DOCKER_HOST: "unix:///nonexistent/docker-host.sock" },
    });
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/HARNESS_ENGINE_UNAVAILABLE.*unix:\/\/\/nonexistent\/(one|two)\.sock \(--engines\) does not answer/);
    expect(result.stderr).not.toContain("docker-host.sock");
  });
});
