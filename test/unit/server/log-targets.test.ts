import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FOLLOW_STARTED, FOLLOW_UNSUPPORTED, FOLLOWED_ACCESS_TAG, FOLLOWED_ERROR_TAG, followScript, logTargets, scriptFollowLines, scriptMergedFollowLines, streamFiles, streamRedirect } from "../../../harness/server/log-targets.ts";

const ROOT = "/usr/local/apache2";

describe("logTargets", () => {
  it("finds a fleet config's log files, relative to the server root or absolute", () => {
    const config = `ServerRoot "${ROOT}"\n# ErrorLog /commented/out\nErrorLog logs/error_log\nLogFormat "%h" common\nCustomLog "/var/log/httpd/access_log" common\n`;
    expect(logTargets(config, ROOT)).toEqual({ errorLog: `${ROOT}/logs/error_log`, accessLog: "/var/log/httpd/access_log" });
  });

  it("keeps the container's streams for the official images' targets, pipes and syslog", () => {
    expect(logTargets("ErrorLog /proc/self/fd/2\nCustomLog /proc/self/fd/1 common\n", ROOT)).toEqual({ errorLog: null, accessLog: null });
    expect(logTargets('ErrorLog "|/usr/bin/logger"\nTransferLog syslog:local1\n', ROOT)).toEqual({ errorLog: null, accessLog: null });
    expect(logTargets("Listen 80\n", ROOT)).toEqual({ errorLog: null, accessLog: null });
  });

  it("leaves Debian's ${APACHE_LOG_DIR} for the shell to expand, as httpd does", () => {
    expect(logTargets("ErrorLog ${APACHE_LOG_DIR}/error.log\n", "/etc/apache2").errorLog).toBe("${APACHE_LOG_DIR}/error.log");
  });
});

describe("followScript", () => {
  it("prints an existing log file from its first line, with the environment's variables expanded", () => {
    const dir = mkdtempSync(join(tmpdir(), "follow-"));
    writeFileSync(join(dir, "error.log"), "[Sat Nov 21 22:41:17 2026] [notice] resuming normal operations\n");
    writeFileSync(join(dir, "envvars"), `export LOG_DIR=${dir}\n`);
    const script = followScript(`. ${dir}/envvars`, "${LOG_DIR}/error.log").replace("exec tail -q -n +1 -F", "exec tail -q -n +1");
    expect(execFileSync("/bin/sh", ["-c", script], { encoding: "utf8" })).toBe("[Sat Nov 21 22:41:17 2026] [notice] resuming normal operations\n");
  });
});

describe("scriptFollowLines", () => {
  it("follows every file with one tail into one sed on stderr, where tail and GNU sed are", () => {
    const lines = scriptFollowLines(["${APACHE_LOG_DIR}/error.log"], ["/var/log/a.log", "/var/log/b.log"]);
    expect(lines[0]).toBe("if command -v tail >/dev/null 2>&1 && sed --version 2>/dev/null | grep -q 'GNU sed'; then");
    const tails = lines.filter((line) => line.includes("exec tail"));
    expect(tails).toHaveLength(1);
    expect(tails[0]).toContain(`exec tail -v -n +1 -F $s "\${APACHE_LOG_DIR}/error.log" "/var/log/a.log" "/var/log/b.log" 2>/dev/null ) | sed -u -n `);
    expect(tails[0]).toMatch(/ >&2 \) &$/);
    // httpd signals its process group to restart: the follower, in it, ignores what would end it.
    expect(tails[0]).toContain("trap '' HUP USR1 WINCH;");
    expect(lines.slice(-4)).toEqual([`  echo "${FOLLOW_STARTED}" >&2`, "else", `  echo "${FOLLOW_UNSUPPORTED}" >&2`, "fi"]);
    // Only what the config writes to files.
    expect(scriptFollowLines(null, ["/a"]).filter((line) => line.includes("exec tail"))).toHaveLength(1);
    expect(scriptFollowLines(null, null)).toEqual([]);
  });

  it("sends httpd's own stderr and stdout to files it follows with the others, in the order written, where the config logs to the streams", async () => {
    const dir = mkdtempSync(join(tmpdir(), "follow-streams-"));
    const streams = streamFiles({ errorLog: null, accessLog: null }, join(dir, "streams"));
    // In place of httpd: an error line on stderr, an access line on stdout, a log named /proc/self/fd/2 opened again
    // for appending as httpd opens it, then a second request's lines.
    const fake = join(dir, "fake-httpd");
    writeFileSync(
      fake,
      [
        "#!/bin/sh",
        "echo '[notice] resuming normal operations' >&2",
        // Requests some time apart, as a batch sends them (tail reads a file to its end when it wakes).
        "sleep 0.3; echo '[error] first request' >&2; echo 'GET /first 403'",
        "sleep 0.3; echo '[error] second request' >>/proc/self/fd/2; echo 'GET /second 403' >>/proc/self/fd/1",
        "sleep 1",
      ].join("\n"),
      { mode: 0o755 },
    );
    const script = [...scriptFollowLines([streams.stderr!], [streams.stdout!], streams), `[ -n "\${harness_streams:-}" ] && exec ${fake}${streamRedirect(streams)}`, "echo not-redirected"].join("\n");
    // The follower outlives the script (tail -F): its lines are read until the last one came, then it is killed.
    const child = spawn("/bin/sh", ["-c", script], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    try {
      for (let i = 0; i < 100 && !err.includes("/second"); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.kill(-child.pid!, "SIGKILL");
    }
    expect(out).toBe("");
    expect(err.split("\n").filter((line) => line.startsWith("@@harness-log"))).toEqual([
      `${FOLLOWED_ERROR_TAG}[notice] resuming normal operations`,
      `${FOLLOWED_ERROR_TAG}[error] first request`,
      `${FOLLOWED_ACCESS_TAG}GET /first 403`,
      `${FOLLOWED_ERROR_TAG}[error] second request`,
      `${FOLLOWED_ACCESS_TAG}GET /second 403`,
    ]);
    expect(streamRedirect(streamFiles({ errorLog: "/var/log/error.log", accessLog: null }, "/s"))).toBe(" >>/s/stdout");
    expect(streamRedirect(streamFiles({ errorLog: "/e", accessLog: "/a" }))).toBe("");
    rmSync(dir, { recursive: true, force: true });
  });

  it("tags each line by its log and keeps the order the lines were written in across the files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "follow-pair-"));
    // Paths with regular-expression characters and a variable, as a tree's per-vhost logs can have.
    writeFileSync(join(dir, "error.log"), "[notice] resuming normal operations\n");
    const script = [`export D=${dir}`, ...scriptFollowLines(["${D}/error.log", "${D}/v[1].err"], ["${D}/access.log"]), "wait"].join("\n");
    const child = spawn("/bin/sh", ["-c", script], { stdio: ["ignore", "ignore", "pipe"], detached: true });
    let out = "";
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const until = async (text: string) => {
      for (let i = 0; i < 100 && !out.includes(text); i++) await new Promise((r) => setTimeout(r, 50));
    };
    try {
      await until(FOLLOW_STARTED);
      writeFileSync(join(dir, "access.log"), "");
      writeFileSync(join(dir, "v[1].err"), "");
      await until("resuming");
      // One request's error line, then its access line, then the next request's, each written at once.
      appendFileSync(join(dir, "error.log"), "[error] [client 10.0.0.5] first request\n");
      appendFileSync(join(dir, "access.log"), "GET /first 403\n");
      await until("/first");
      appendFileSync(join(dir, "v[1].err"), "[error] [client 10.0.0.5] second request\n");
      appendFileSync(join(dir, "access.log"), "GET /second 403\n");
      await until("/second");
    } finally {
      process.kill(-child.pid!, "SIGKILL");
    }
    expect(out.split("\n").filter((line) => line.startsWith("@@harness-log"))).toEqual([
      `${FOLLOWED_ERROR_TAG}[notice] resuming normal operations`,
      `${FOLLOWED_ERROR_TAG}[error] [client 10.0.0.5] first request`,
      `${FOLLOWED_ACCESS_TAG}GET /first 403`,
      `${FOLLOWED_ERROR_TAG}[error] [client 10.0.0.5] second request`,
      `${FOLLOWED_ACCESS_TAG}GET /second 403`,
    ]);
  });

  it("merged: every log and httpd's streams into one file, each line tagged by its form, in httpd's order however late it is read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "follow-merged-"));
    const merged = join(dir, "run", "all.log");
    const access = join(dir, "logs", "access_log");
    const streams = streamFiles({ errorLog: null, accessLog: access }, join(dir, "streams"));
    // In place of httpd: a 2.2 error log on stderr and an access log file; two requests, each its error line then its
    // access line, all written at once.
    const fake = join(dir, "fake-httpd");
    writeFileSync(
      fake,
      [
        "#!/bin/sh",
        "echo '[Mon Dec 07 10:57:17 2026] [notice] resuming normal operations' >&2",
        `echo '[Mon Dec 07 10:57:18 2026] [error] [client 10.0.0.5] first request' >&2; echo '10.0.0.5 - - [07/Dec/2026:10:57:18 +0000] "GET /first HTTP/1.1" 403 5' >>${access}`,
        `echo '[Mon Dec 07 10:57:18 2026] [error] [client 10.0.0.5] second request' >&2; echo '10.0.0.5 - - [07/Dec/2026:10:57:18 +0000] "GET /second HTTP/1.1" 403 5' >>${access}`,
        "sleep 2",
      ].join("\n"),
      { mode: 0o755 },
    );
    // The follower reads late, as on a busy machine: httpd has written everything before tail looks.
    const lines = scriptMergedFollowLines([streams.stderr!], [access], streams, merged).map((line) => line.replace("tail -q", "sleep 0.5; tail -q"));
    expect(lines.join("\n")).toContain(`ln -s ${merged} "${access}"`);
    const script = [...lines, `[ -n "\${harness_streams:-}" ] && exec ${fake}${streamRedirect(streams, merged)}`, "echo not-redirected"].join("\n");
    const child = spawn("/bin/sh", ["-c", script], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    try {
      for (let i = 0; i < 100 && !err.includes("/second"); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.kill(-child.pid!, "SIGKILL");
    }
    expect(err.split("\n").filter((line) => line.startsWith("@@harness-log"))).toEqual([
      `${FOLLOWED_ERROR_TAG}[Mon Dec 07 10:57:17 2026] [notice] resuming normal operations`,
      `${FOLLOWED_ERROR_TAG}[Mon Dec 07 10:57:18 2026] [error] [client 10.0.0.5] first request`,
      `${FOLLOWED_ACCESS_TAG}10.0.0.5 - - [07/Dec/2026:10:57:18 +0000] "GET /first HTTP/1.1" 403 5`,
      `${FOLLOWED_ERROR_TAG}[Mon Dec 07 10:57:18 2026] [error] [client 10.0.0.5] second request`,
      `${FOLLOWED_ACCESS_TAG}10.0.0.5 - - [07/Dec/2026:10:57:18 +0000] "GET /second HTTP/1.1" 403 5`,
    ]);
    expect(streamRedirect(streams, "/m/all.log")).toBe(" 2>>/m/all.log");
    rmSync(dir, { recursive: true, force: true });
  });
});
