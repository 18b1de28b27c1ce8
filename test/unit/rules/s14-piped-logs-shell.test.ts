import { describe, expect, it } from "vitest";
import { pipedLogProblem, S14 } from "../../../harness/rules/s14-piped-logs-shell.ts";
import { evidence, findingsOf, records, serverEvidence } from "./rule-harness.ts";

describe("S14 piped logs without /bin/sh", () => {
  it("tells shell syntax and a program without a path from a plain absolute program", () => {
    expect([
      pipedLogProblem("|cat >> /tmp/piped.log"),
      pipedLogProblem("|/bin/cat >> /tmp/piped.log"),
      pipedLogProblem("|/usr/bin/logger -t $HOST"),
      pipedLogProblem("|/usr/sbin/rotatelogs /var/log/access_log 86400"),
      pipedLogProblem("|$cat >> /tmp/piped.log"),
      pipedLogProblem("/var/log/access_log"),
    ]).toEqual([
      { command: "cat >> /tmp/piped.log", relative: true, shell: true },
      { command: "/bin/cat >> /tmp/piped.log", relative: false, shell: true },
      { command: "/usr/bin/logger -t $HOST", relative: false, shell: true },
      null,
      null,
      null,
    ]);
  });

  it("finds a program without a path as blocking (2.4 does not start), shell syntax as behaviour, and fixes with |$", () => {
    const text = 'LoadModule log_config_module modules/mod_log_config.so\nCustomLog "|cat >> /tmp/a.log" common\nErrorLog "|/bin/cat >> /tmp/e.log"\nTransferLog "|/usr/sbin/rotatelogs /var/log/t 86400"\n';
    expect(findingsOf(S14, text).map((f) => [f.line, f.severity, f.fix])).toEqual([
      [2, "blocking", 'CustomLog "|$cat >> /tmp/a.log" common'],
      [3, "behaviour", 'ErrorLog "|$/bin/cat >> /tmp/e.log"'],
    ]);
  });

  it("claims AH00104 at start-up as blocking and AH00106 on a request", () => {
    const unable = records("2.4", "(2)No such file or directory: AH00104: unable to start piped log program 'cat >> /tmp/piped.log'", "AH00015: Unable to open logs");
    expect(S14.recognise!(serverEvidence("started", unable))?.severity).toBe("blocking");
    const failed = records("2.4", "[Sat Nov 21 22:50:01.000000 2026] [core:error] [pid 9:tid 9] AH00106: piped log program '/bin/cat >> /tmp/piped.log' failed unexpectedly");
    expect(S14.recognise!(evidence({ field: "errorLog", log: { baseline: [], candidate: failed } }))).not.toBeNull();
    expect(S14.recognise!(evidence({ field: "errorLog" }))).toBeNull();
  });
});
