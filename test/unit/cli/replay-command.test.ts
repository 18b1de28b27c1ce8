// `replay` up to the point where an engine would be asked: usage errors, an unreadable or unusable log (exit 2,
// the bad lines shown with file:line), and --dry-run's requests, de-duplicated and limited. No engine answers
// here, so a test that got further would fail.
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.ts";

const NO_ENGINE = { DOCKER_HOST: "unix:///nonexistent/docker.sock" };
const STATUS_TREE = fileURLToPath(new URL("../../../configs/tool-status-alias", import.meta.url));

function files(entries: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "replay-cli-"));
  for (const [path, text] of Object.entries(entries)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const line = (host: string, request: string, user = "-", status = 200) => `${host} - ${user} [10/Oct/2024:13:55:36 +0000] "${request}" ${status} 5 "-" "curl/8.5.0"`;

describe("replay: usage", { timeout: 60_000 }, () => {
  it.each([
    [["replay", "--config", STATUS_TREE], "replay needs an access log"],
    [["replay", "a.log", "b.log", "--config", STATUS_TREE], "replay takes one access log, not 2"],
    [["replay", "a.log"], "replay needs --config PATH"],
    [["replay", "a.log", "--config", STATUS_TREE, "--limit", "0"], '--limit "0" is not a positive whole number'],
    [["replay", "a.log", "--config", STATUS_TREE, "--concurrency", "x"], '--concurrency "x" is not a positive whole number'],
    [["replay", "a.log", "--config", STATUS_TREE, "--probes"], "Unknown option '--probes'"],
  ])("%j exits 2: %s", async (args, message) => {
    const result = await runCli(args, { env: NO_ENGINE });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("HARNESS_USAGE");
    expect(result.stderr).toContain(message);
  });

  it("refuses a --log-format nickname neither the tree nor the stock config defines, and lists those that are", async () => {
    const dir = files({ "access.log": `${line("127.0.0.1", "GET / HTTP/1.1")}\n` });
    const result = await runCli(["replay", join(dir, "access.log"), "--config", STATUS_TREE, "--log-format", "combnied"], { env: NO_ENGINE });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--log-format "combnied" is neither a format string');
    expect(result.stderr).toContain("Nicknames: common, combined, vhost_combined, referer, agent.");
  });
});

describe("replay: the access log", { timeout: 60_000 }, () => {
  it("exits 2 with HARNESS_ACCESS_LOG when the log cannot be read", async () => {
    const result = await runCli(["replay", "/nonexistent/access.log", "--config", STATUS_TREE], { env: NO_ENGINE });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/HARNESS_ACCESS_LOG: the access log \/nonexistent\/access\.log cannot be read/);
  });

  it("exits 2 when not one line can be replayed, showing the bad lines with file:line and why", async () => {
    const dir = files({ "access.log": ["garbage", line("10.0.0.1", "CONNECT example.com:443 HTTP/1.1"), "", line("10.0.0.1", "-")].join("\n") });
    const log = join(dir, "access.log");
    const result = await runCli(["replay", log, "--config", STATUS_TREE], { env: NO_ENGINE });
    expect(result.status).toBe(2);
    expect(result.stdout).toContain("4 lines: 0 replayable as 0 distinct requests, 3 bad, 1 blank");
    expect(result.stdout).toContain("bad lines (1 format, 1 no-request, 1 proxy):");
    expect(result.stdout).toContain(`${log}:2: CONNECT (a proxy tunnel) is not replayed: 10.0.0.1`);
    expect(result.stdout).toContain(`${log}:4: no request line`);
    expect(result.stderr).toContain(`HARNESS_ACCESS_LOG: ${log}:1:1: not one line of ${log} can be replayed (4 lines, 3 bad)`);
  });

  it("--dry-run shows the format, the counts, the bad lines and the de-duplicated requests, most frequent first, within --limit", async () => {
    const dir = files({
      "access.log": [
        line("127.0.0.1", "GET /statgraph-status/ HTTP/1.1"),
        line("10.1.2.3", "GET /statgraph/ HTTP/1.1", "statadmin"),
        line("127.0.0.1", "GET /statgraph-status/ HTTP/1.1"),
        "not a log line",
        line("203.0.113.9", "GET /statgraph/ HTTP/1.1", "mallory", 401),
        line("::1", "GET /statgraph-status/ HTTP/1.1"),
      ].join("\n"),
    });
    const log = join(dir, "access.log");
    const result = await runCli(["replay", log, "--config", STATUS_TREE, "--dry-run", "--limit", "3"], { env: NO_ENGINE });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      `access log ${log}: format combined (stock httpd.conf), read 5 of the first 6 lines`,
      "6 lines: 5 replayable as 4 distinct requests, 1 bad",
      "bad lines (1 format):",
      `  ${log}:4: does not fit the format "%h %l %u %t \\"%r\\" %>s %b \\"%{Referer}i\\" \\"%{User-Agent}i\\"": not a log line`,
      "sending the 3 most frequent of 4 distinct requests (--limit 3), standing for 4 of 5 lines",
      `tool-status-alias: replay of ${log} on fragment tree ${STATUS_TREE} (6 lines: 4 distinct requests, the 3 most frequent sent, 1 bad lines)`,
      "  client outsider: 198.51.100.77",
      // One identity's requests in a row (the order of the identities), the most frequent first within it.
      'r0001 GET http://(default):80/statgraph-status/ from localhost, UA "curl/8.5.0", 2 lines',
      'r0002 GET http://(default):80/statgraph/ from outsider, as statadmin, UA "curl/8.5.0", 1 line',
      'r0003 GET http://(default):80/statgraph/ from outsider, as mallory (wrong password), UA "curl/8.5.0", 1 line',
      "",
    ].map((l) => (l.startsWith("r0") ? `  ${l}` : l)));
  });
});
