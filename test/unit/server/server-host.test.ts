// The shell a server host runs a config with (server/server-host.ts), run here by /bin/sh in a temporary directory
// standing for the host's own: the bundle's image files copied before the config changes them, the run counted, the
// start script's pid recorded (httpd's, once it execs), and its exit status as the last line, after whatever its
// children keep writing. And the switch that turns reuse off.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reuseServers } from "../../../harness/observe/observe-scenario.ts";
import { HOST_EXITED, HOST_LOAD_END, HOST_LOAD_OUT, HOST_LOAD_PREFIX, HOST_WIPE_END, hostLoop, hostRunScript, pristineRoots } from "../../../harness/server/server-host.ts";
import { LoopLines } from "../../../harness/server/loop-lines.ts";
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

  function command(kind: "r" | "w" | "l", script: string, arg?: string | null): Buffer {
    const job = Buffer.from(script, "utf8");
    const bytes = arg === undefined ? null : arg === null ? null : Buffer.from(arg, "utf8");
    const header = kind === "r" ? `r ${job.length} ${bytes === null ? -1 : bytes.length}\n` : `${kind} ${job.length}\n`;
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

  it("runs a load beside a running config: its output and status as the loop's own lines, apart from the config's stdout, through a restart's signals", () => {
    dir = mkdtempSync(join(tmpdir(), "server-host-"));
    mkdirSync(join(dir, "host"));
    const started = join(dir, "started");
    // The config writes its stdout all along, as httpd's access log there would (and outlives the signal, as httpd
    // and its host's wrapper do).
    const run = command("r", `trap "" HUP; touch ${started}; i=0; while [ $i -lt 400 ]; do echo "config line $i"; i=$((i+1)); sleep 0.001; done`, null);
    // The load's output: more than one piece of base64, bytes that are not text, stderr too; and the signal httpd's
    // restart sends its whole process group, which must not end the load.
    const load = command("l", `while [ ! -e ${started} ]; do sleep 0.01; done; echo before; kill -HUP 0; sleep 0.05; printf 'x%.0s' $(seq 1 5000); printf '\\001\\377\\n'; echo to-stderr >&2; echo after; exit 4`);
    // The loop as a host's is: leader of its own process group, immune to the signals it has no handler for (here
    // a handler that does nothing; a host's loop is PID 1, which the kernel spares).
    const result = spawnSync("setsid", ["/bin/sh", "-c", `trap true HUP USR1 WINCH; ${hostLoop(join(dir, "host"))}`], { input: Buffer.concat([run, load]), timeout: 20_000 });
    expect(result.status).toBe(0);
    const lines: string[] = [];
    const reader = new LoopLines(HOST_LOAD_PREFIX, (line) => lines.push(line));
    const passed = Buffer.concat([reader.push(result.stdout), reader.end()]).toString("utf8");
    // Every config line passed on whole and in order: no piece of the loop's in any.
    expect(passed.split("\n").filter((line) => line !== "")).toEqual(Array.from({ length: 400 }, (_, i) => `config line ${i}`));
    expect(lines.at(-1)).toBe(`${HOST_LOAD_END}4`);
    const pieces = lines.slice(0, -1);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((line) => line.startsWith(HOST_LOAD_OUT) && line.length <= HOST_LOAD_OUT.length + 3000)).toBe(true);
    const output = Buffer.from(pieces.map((line) => line.slice(HOST_LOAD_OUT.length)).join(""), "base64");
    expect(output.equals(Buffer.concat([Buffer.from(`before\n${"x".repeat(5000)}`), Buffer.from([1, 255, 10]), Buffer.from("to-stderr\nafter\n")]))).toBe(true);
    // Nothing of the load stays in the host's directory.
    expect(readdirSync(join(dir, "host"))).toEqual([]);
  });
});
