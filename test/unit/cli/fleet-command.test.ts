// `fleet` and `merge-reports` refuse bad input before any engine is asked for anything (an engine that cannot
// answer is named, and the run never gets that far), and `merge-reports` writes a fleet's reports from its blobs
// with no engine at all.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";
import { fleetFixture, tempDir, writeShardBlobs } from "../fleet/fleet-blobs.ts";
import { runCli } from "./config-command-output.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

beforeEach(() => {
  // Were a refusal missed, the run would find no engine rather than a real one.
  vi.stubEnv("DOCKER_HOST", "unix:///nonexistent/docker.sock");
  vi.spyOn(process, "cwd").mockReturnValue(REPO);
});

/** `fleet` with a state directory of its own, so nothing is written in the repository. */
function fleet(...args: string[]) {
  return runCli("fleet", ...args, "--state", join(tempDir("fleet-state-"), "state"));
}

describe("fleet refuses bad input with status 2 before it runs anything", () => {
  it.each([
    [[], "HARNESS_USAGE: fleet takes one directory or more (the trees under them are the fleet), or a fleet.yaml."],
    [["configs", "--shard", "0/3"], 'HARNESS_USAGE: --shard "0/3": k must be from 1 to n.'],
    [["configs", "--shard", "4/3"], 'HARNESS_USAGE: --shard "4/3": k must be from 1 to n.'],
    [["configs", "--shard", "two"], 'HARNESS_USAGE: --shard "two" is not k/n'],
    [["configs", "--requests", "x"], 'HARNESS_USAGE: --requests "x": use probes or smoke.'],
    [["configs", "--max-probes", "0"], 'HARNESS_USAGE: --max-probes "0" is not a positive whole number.'],
    [["configs", "--concurrency", "1.5"], 'HARNESS_USAGE: --concurrency "1.5" is not a positive whole number.'],
    [["configs", "--report", "sarif"], 'HARNESS_USAGE: --report "sarif" is not FORMAT:PATH.'],
    [["configs", "--report", "pdf:x"], 'HARNESS_USAGE: --report "pdf:x" is not FORMAT:PATH.'],
    [["configs", "--layout", "suse"], 'HARNESS_USAGE: --layout "suse" is not a layout the harness knows'],
    [["configs", "--colour"], "HARNESS_USAGE: Unknown option '--colour'"],
    [["no-such-dir"], `HARNESS_USAGE: fleet: ${join(REPO, "no-such-dir")} does not exist.`],
    [["configs", "--time-limit", "0"], 'HARNESS_USAGE: --time-limit "0" is not a positive number of seconds.'],
    [["configs", "--shard-durations", "/nonexistent/durations.json"], "HARNESS_USAGE: --shard-durations /nonexistent/durations.json: ENOENT"],
    [["configs", "--shard-durations", join(REPO, "README.md")], "is neither a JSON report nor a fleet blob."],
    [["configs", "--candidate", "recipe:httpd-9.9"], "HARNESS_USAGE: --candidate: "],
    [["configs", "--candidate", "a", "--matrix", "m.yaml"], "HARNESS_USAGE: --matrix and --candidate both name the candidates: give one of them."],
    [["configs", "--matrix", "/nonexistent/matrix.yaml"], "HARNESS_MATRIX_FILE: /nonexistent/matrix.yaml: no such file"],
  ])("%j", async (argv, message) => {
    const { status, stdout, stderr } = await fleet(...argv);
    expect(status).toBe(2);
    expect(stderr).toContain(message);
    expect(stdout).toBe("");
  });

  it("says which formats --report takes", async () => {
    const { stderr } = await fleet("configs", "--report", "pdf:x");
    expect(stderr).toContain("FORMAT is one of json, junit, markdown, html, sarif, blob");
  });

  it("names the fleet.yaml line that is wrong as file:line:column", async () => {
    const dir = tempDir("fleet-yaml-");
    mkdirSync(join(dir, "web", "conf"), { recursive: true });
    writeFileSync(join(dir, "web", "conf", "httpd.conf"), "ServerRoot /usr/local/apache2\nListen 80\n");
    const file = join(dir, "fleet.yaml");
    writeFileSync(file, "configs:\n  - path: web\n    layuot: official\n");
    for (const given of [file, dir]) {
      const { status, stderr } = await fleet(given);
      expect(status).toBe(2);
      expect(stderr).toContain(`HARNESS_FLEET_FILE: ${file}:3:5: unknown key "layuot"`);
    }
  });

  it("names a fleet.yaml entry whose tree is not there, at the entry", async () => {
    const dir = tempDir("fleet-yaml-");
    writeFileSync(join(dir, "fleet.yaml"), "configs:\n  - discover: sites\n  - path: web-01/apache2\n");
    mkdirSync(join(dir, "sites"));
    const { status, stderr } = await fleet(join(dir, "fleet.yaml"));
    expect(status).toBe(2);
    expect(stderr).toContain(`HARNESS_FLEET_FILE: ${join(dir, "fleet.yaml")}:3:5: ${join(dir, "web-01/apache2")} does not exist`);
  });

  it("refuses a directory that holds no configuration tree", async () => {
    const dir = tempDir("fleet-empty-");
    mkdirSync(join(dir, "htdocs"));
    writeFileSync(join(dir, "htdocs", "index.html"), "<p>hello</p>\n");
    const { status, stderr } = await fleet(dir);
    expect(status).toBe(2);
    expect(stderr).toContain(`HARNESS_USAGE: no configuration tree found under ${dir}`);
  });
});

describe("merge-reports", () => {
  it("refuses no blob, and a blob that is not there, with status 2", async () => {
    const none = await runCli("merge-reports");
    expect([none.status, none.stderr]).toEqual([2, expect.stringContaining("HARNESS_USAGE: merge-reports takes the blob of every shard of one fleet run.")]);
    const missing = await runCli("merge-reports", "/nonexistent/shard-1.blob");
    expect([missing.status, missing.stderr]).toEqual([2, expect.stringContaining("HARNESS_BLOB: /nonexistent/shard-1.blob: no such file")]);
  });

  it("refuses a blob as a report format: a merge writes reports, not blobs", async () => {
    const [blob] = writeShardBlobs(fleetFixture(sampleReport.scenarios, 1));
    const { status, stderr } = await runCli("merge-reports", blob!, "--report", `blob:${join(tempDir(), "x.blob")}`);
    expect(status).toBe(2);
    expect(stderr).toContain("FORMAT is one of json, junit, markdown, html, sarif;");
  });

  it("refuses shards of which one is missing, naming it, and writes no report", async () => {
    const [one, , three] = writeShardBlobs(fleetFixture(sampleReport.scenarios, 3));
    const out = join(tempDir(), "fleet.json");
    const { status, stderr } = await runCli("merge-reports", one!, three!, "--report", `json:${out}`);
    expect(status).toBe(2);
    expect(stderr).toContain("HARNESS_BLOB: merge-reports refuses these blobs (1 problem):\n  shard 2/3 is missing\n");
    expect(existsSync(out)).toBe(false);
  });

  it("writes the fleet's reports from every shard's blob, prints its causes, and exits as the run would", async () => {
    const blobs = writeShardBlobs(fleetFixture(sampleReport.scenarios, 3));
    const dir = tempDir();
    const { status, stdout, stderr } = await runCli("merge-reports", ...blobs, "--report", `json:${join(dir, "fleet.json")}`, "--report", `sarif:${join(dir, "fleet.sarif")}`);
    // The sample's error scenario is the environment's (HARNESS_CONTAINER): status 3, as the run's would be.
    expect(status).toBe(3);
    expect(stdout.split("\n")[0]).toBe("fleet: 6 configs, 42.0 s");
    expect(stderr).toBe(`merged 3 shards of 6 configs (inputs ${JSON.parse(readFileSync(blobs[0]!, "utf8").split("\n")[0]!).inputsHash.slice(0, 16)})\nwrote json report: ${join(dir, "fleet.json")}\nwrote sarif report: ${join(dir, "fleet.sarif")}\n`);
    const report = JSON.parse(readFileSync(join(dir, "fleet.json"), "utf8")) as { fleet: { configs: Array<{ path: string }> } };
    expect([report.fleet.configs.map((c) => c.path)]).toEqual([["fleet/site-1", "fleet/site-2", "fleet/site-3", "fleet/site-4", "fleet/site-5", "fleet/site-6"]]);
    expect((JSON.parse(readFileSync(join(dir, "fleet.sarif"), "utf8")) as { version: string }).version).toBe("2.1.0");
  });
});

describe("the usage text", () => {
  it("lists fleet and merge-reports", async () => {
    const { status, stdout } = await runCli("--help");
    expect(status).toBe(0);
    expect(stdout).toMatch(/^ {2}httpd-upgrade-harness fleet DIR_OR_FLEET_YAML\.\.\. /m);
    expect(stdout).toMatch(/^ {2}httpd-upgrade-harness merge-reports BLOB\.\.\. /m);
  });
});
