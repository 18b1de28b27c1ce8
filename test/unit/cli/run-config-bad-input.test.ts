// `run --config` with a tree the harness cannot read as given stops before any engine or container is asked
// for anything: exit 2, every reason at file:line:col, no report file written, nothing read outside the tree.
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.ts";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "bad-tree-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

// An engine that cannot answer: the run must not get as far as asking it.
const NO_ENGINE = { DOCKER_HOST: "unix:///nonexistent/docker.sock" };

describe("run --config with bad input", { timeout: 60_000 }, () => {
  it("names every unreadable line at once and writes no report", async () => {
    const root = tree({
      "conf/httpd.conf": 'ServerRoot "/usr/local/apache2"\nListen 80\nInclude conf/extra/missing.conf\n<Directory "/srv">\n  Require all granted\n',
    });
    const out = join(root, "report.json");
    const result = await runCli(["run", "--config", root, "--report", `json:${out}`], { env: NO_ENGINE });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("cannot be read as given (2 problems)");
    expect(result.stderr).toMatch(/conf\/httpd\.conf:3:1: .*missing\.conf/);
    expect(result.stderr).toMatch(/conf\/httpd\.conf:4:1: .*Directory/);
    expect(existsSync(out)).toBe(false);
  });

  it("refuses an Include of /etc/shadow and a link to / without reading either", async () => {
    const root = tree({ "conf/httpd.conf": "ServerRoot /usr/local/apache2\nListen 80\nInclude /etc/shadow\nInclude conf/root/etc/passwd\n" });
    symlinkSync("/", join(root, "conf", "root"));
    const result = await runCli(["run", "--config", root, "--report", `json:${join(root, "r.json")}`], { env: NO_ENGINE });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/conf\/httpd\.conf:3:1: .*\/etc\/shadow/);
    expect(result.stderr).toMatch(/conf\/httpd\.conf:4:1: /);
    expect(result.stderr).not.toMatch(/root:x:0:0/);
    expect(existsSync(join(root, "r.json"))).toBe(false);
  });

  it("says when the path is not there", async () => {
    const result = await runCli(["run", "--config", "/nonexistent/apache2"], { env: NO_ENGINE });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("/nonexistent/apache2");
  });
});
