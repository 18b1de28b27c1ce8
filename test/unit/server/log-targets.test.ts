import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { followScript, logTargets } from "../../../harness/server/log-targets.ts";

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
