// The shell a server host runs a config with (server/server-host.ts), run here by /bin/sh in a temporary directory
// standing for the host's own: the bundle's image files copied before the config changes them, the run counted, the
// start script's pid recorded (httpd's, once it execs), and its exit status as the last line, after whatever its
// children keep writing. And the switch that turns reuse off.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reuseServers } from "../../../harness/observe/observe-scenario.ts";
import { HOST_EXITED, HOST_WIPE_END, hostLoop, hostRunScript, pristineRoots } from "../../../harness/server/server-host.ts";
import { OFFICIAL_PROFILE } from "../../../harness/server/httpd-profile.ts";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, backups: readonly string[]): { stderr: string; status: number | null } {
  const result = spawnSync("/bin/sh", ["-c", hostRunScript(backups, script, join(dir, "host")), "httpd-upgrade-harness", "BUNDLE"], { encoding: "utf8" });
  return { stderr: result.stderr, status: result.status };
}

describe("a host's run of one config", () => {
  it("copies the bundle's image files before the config replaces them, and not a second time", () => {
    dir = mkdtempSync(join(tmpdir(), "server-host-"));
    mkdirSync(join(dir, "host", "pristine"), { recursive: true });
    const conf = join(dir, "conf", "httpd.conf");
    mkdirSync(join(dir, "conf"));
    writeFileSync(conf, "stock\n");
    // The config replaces the stock file and adds one the image lacks.
    const first = run(`echo mine > ${conf}; echo new > ${join(dir, "conf", "new.conf")}`, [conf, join(dir, "conf", "new.conf")]);
    expect(first.status).toBe(0);
    expect(readFileSync(join(dir, "host", "pristine", conf), "utf8")).toBe("stock\n");
    expect(() => readFileSync(join(dir, "host", "pristine", dir, "conf", "new.conf"))).toThrow();
    // A second config finds the copy kept: the stock text stays in it.
    run(`echo again > ${conf}`, [conf]);
    expect(readFileSync(join(dir, "host", "pristine", conf), "utf8")).toBe("stock\n");
    expect(readFileSync(join(dir, "host", "runs"), "utf8").trim()).toBe("2");
  });

  it("records the start script's pid, passes its arguments on, and ends with its exit status although a child lives on", () => {
    dir = mkdtempSync(join(tmpdir(), "server-host-"));
    mkdirSync(join(dir, "host", "pristine"), { recursive: true });
    // The child holds stderr open after the script ended, as a log follower outlives a failed httpd.
    const { stderr } = run(`echo "pid $$ arg $1" >&2; (sleep 1; echo late >&2) & exec sh -c 'exit 3'`, []);
    const lines = stderr.trim().split("\n");
    const exited = lines.findIndex((line) => line.startsWith(HOST_EXITED));
    expect(lines[exited]).toBe(`${HOST_EXITED}3`);
    expect(lines[0]).toMatch(/^pid \d+ arg BUNDLE$/);
    expect(lines.slice(exited + 1)).toEqual(["late"]);
    // $$ in a subshell is the outer shell's pid; the recorded one is the subshell's own, which httpd's exec keeps.
    expect(Number(readFileSync(join(dir, "host", "httpd.pid"), "utf8"))).toBeGreaterThan(0);
  });
});

describe("reuse", () => {
  it("is on unless the run or HARNESS_REUSE=0 turns it off", () => {
    dir = mkdtempSync(join(tmpdir(), "server-host-"));
    expect(reuseServers({}, {})).toBe(true);
    expect(reuseServers({}, { HARNESS_REUSE: "0" })).toBe(false);
    expect(reuseServers({ reuseServers: true }, { HARNESS_REUSE: "0" })).toBe(true);
    expect(reuseServers({ reuseServers: false }, {})).toBe(false);
  });

  it("keeps whole copies of what configs change most: users and groups, and the server root's usual folders", () => {
    dir = mkdtempSync(join(tmpdir(), "server-host-"));
    expect(pristineRoots(OFFICIAL_PROFILE)).toEqual(["/etc", "/usr/local/apache2/conf", "/usr/local/apache2/htdocs", "/usr/local/apache2/cgi-bin", "/usr/local/apache2/logs", "/var/www"]);
  });
});

describe("a host's command loop", () => {
  /** Runs the loop under /bin/sh with `input` as its stdin, to its end (the input's end). */
  function loop(input: Buffer): { stdout: string; stderr: string; status: number | null } {
    const result = spawnSync("/bin/sh", ["-c", hostLoop(join(dir, "host"))], { input, encoding: "utf8", timeout: 20_000 });
    return { stdout: result.stdout, stderr: result.stderr, status: result.status };
  }

  function command(kind: "r" | "w", script: string, arg?: string | null): Buffer {
    const job = Buffer.from(script, "utf8");
    const bytes = arg === undefined ? null : arg === null ? null : Buffer.from(arg, "utf8");
    const header = kind === "w" ? `w ${job.length}\n` : `r ${job.length} ${bytes === null ? -1 : bytes.length}\n`;
    return Buffer.concat([Buffer.from(header), job, ...(bytes === null ? [] : [bytes])]);
  }

  it("runs a config's script with its bundle as $1, each command's bytes exactly, and leaves neither in its directory", () => {
    dir = mkdtempSync(join(tmpdir(), "server-host-"));
    mkdirSync(join(dir, "host"));
    const seen = join(dir, "seen");
    // A bundle with spaces, quotes and a newline in it, as base64 never has, to show the bytes pass as they are; the
    // script looks for its own command's files while it runs.
    const bundle = "one two 'three'\n\"four\"";
    const run = command("r", `{ printf '%s|%s|' "$0" "$1"; ls -A ${join(dir, "host")}; } > ${seen}`, bundle);
    // The loop ends with its input; the run (in the background) holds its output open until it is done.
    expect(loop(run).status).toBe(0);
    expect(readFileSync(seen, "utf8")).toBe(`httpd-upgrade-harness|${bundle}|`);
    const wipe = command("w", `echo "wiped $(ls -A ${join(dir, "host")} | wc -l)"; exit 3`);
    const { stdout, status } = loop(wipe);
    expect(status).toBe(0);
    // The wipe's own output, then the loop's end line with its status; its script file gone before it ran.
    expect(stdout.split("\n").filter((line) => line !== "")).toEqual(["wiped 0", `${HOST_WIPE_END}3`]);
  });

  it("passes no $1 for a run without an arg, and goes on with the next command after one it does not know", () => {
    dir = mkdtempSync(join(tmpdir(), "server-host-"));
    mkdirSync(join(dir, "host"));
    const seen = join(dir, "seen");
    const run = command("r", `echo "args $#" > ${seen}`, null);
    const wipe = command("w", `while [ ! -s ${seen} ]; do sleep 0.05; done; cat ${seen}`);
    const { stdout, stderr } = loop(Buffer.concat([Buffer.from("x 1 2\n"), run, wipe]));
    expect(stderr).toContain("host-unknown-command");
    expect(stdout.split("\n").filter((line) => line !== "")).toEqual(["args 0", `${HOST_WIPE_END}0`]);
  });
});
