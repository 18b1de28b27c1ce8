import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FOLLOW_STARTED, FOLLOW_UNSUPPORTED, FOLLOWED_TAG, followScript, logTargets, scriptFollowLines } from "../../../harness/server/log-targets.ts";

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
  it("follows the error files on stderr and the access files on stdout, each line tagged, where tail and GNU sed are", () => {
    const lines = scriptFollowLines(["${APACHE_LOG_DIR}/error.log"], ["/var/log/a.log", "/var/log/b.log"]);
    expect(lines[0]).toBe("if command -v tail >/dev/null 2>&1 && sed --version 2>/dev/null | grep -q 'GNU sed'; then");
    expect(lines).toContain(`  ( wait_for "\${APACHE_LOG_DIR}/error.log"; exec tail -q -n +1 -F $s "\${APACHE_LOG_DIR}/error.log" 2>/dev/null ) | sed -u 's/^/${FOLLOWED_TAG}/' >&2 &`);
    expect(lines).toContain(`  ( wait_for "/var/log/a.log"; exec tail -q -n +1 -F $s "/var/log/a.log" "/var/log/b.log" 2>/dev/null ) | sed -u 's/^/${FOLLOWED_TAG}/' &`);
    expect(lines.slice(-4)).toEqual([`  echo "${FOLLOW_STARTED}" >&2`, "else", `  echo "${FOLLOW_UNSUPPORTED}" >&2`, "fi"]);
    // Only what the config writes to files.
    expect(scriptFollowLines(null, ["/a"]).filter((line) => line.includes("exec tail"))).toHaveLength(1);
  });
});
