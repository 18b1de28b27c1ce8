import { describe, expect, it } from "vitest";
import { classifyLogTarget, logTargets } from "../../../../harness/conf/queries/log-targets.ts";
import { effectiveConfig } from "./build-effective-config.ts";

describe("classifyLogTarget", () => {
  const config = effectiveConfig("ServerRoot /srv/httpd");
  const config22 = effectiveConfig("ServerRoot /srv/httpd", { version: "2.2.34" });

  it("tells files, pipes, syslog and the process's streams apart as httpd opens them", () => {
    expect(classifyLogTarget(config, "ErrorLog", "logs/error_log")).toEqual({ kind: "file", path: "/srv/httpd/logs/error_log", facility: null, shell: false });
    expect(classifyLogTarget(config, "ErrorLog", "syslog")).toEqual({ kind: "syslog", path: null, facility: null, shell: false });
    expect(classifyLogTarget(config, "ErrorLog", "syslog:local3")).toEqual({ kind: "syslog", path: null, facility: "local3", shell: false });
    expect(classifyLogTarget(config, "ErrorLog", "/proc/self/fd/2")).toEqual({ kind: "stream", path: "/proc/self/fd/2", facility: null, shell: false });
    expect(classifyLogTarget(config, "CustomLog", "/dev/stdout")).toMatchObject({ kind: "stream" });
  });

  it("runs a pipe directly on 2.4 unless written |$, through the shell on 2.2 unless written ||", () => {
    const rotate = "|/usr/bin/rotatelogs logs/e 86400";
    expect(classifyLogTarget(config, "ErrorLog", rotate)).toEqual({ kind: "piped", path: "/usr/bin/rotatelogs logs/e 86400", facility: null, shell: false });
    expect(classifyLogTarget(config22, "ErrorLog", rotate)).toMatchObject({ kind: "piped", shell: true });
    expect(classifyLogTarget(config, "CustomLog", "|$logger -t web")).toMatchObject({ path: "logger -t web", shell: true });
    expect(classifyLogTarget(config22, "CustomLog", "||logger -t web")).toMatchObject({ path: "logger -t web", shell: false });
  });

  it("takes any ErrorLog starting with syslog, in any case, as syslog on 2.2 only", () => {
    expect(classifyLogTarget(config22, "ErrorLog", "SysLog:local2")).toMatchObject({ kind: "syslog", facility: "local2" });
    expect(classifyLogTarget(config22, "ErrorLog", "syslog-errors")).toMatchObject({ kind: "syslog", facility: null });
    expect(classifyLogTarget(config, "ErrorLog", "SysLog:local2")).toMatchObject({ kind: "file", path: "/srv/httpd/SysLog:local2" });
    expect(classifyLogTarget(config, "ErrorLog", "syslog-errors")).toMatchObject({ kind: "file" });
  });

  it("makes CustomLog syslog a file, as mod_log_config does", () => {
    expect(classifyLogTarget(config, "CustomLog", "syslog")).toEqual({ kind: "file", path: "/srv/httpd/syslog", facility: null, shell: false });
  });
});

describe("logTargets", () => {
  const config = effectiveConfig(`
ErrorLog /proc/self/fd/2
CustomLog /proc/self/fd/1 common
GlobalLog logs/all.log combined
<VirtualHost *:80>
  ErrorLog logs/a_error
  CustomLog "|/bin/cat" combined env=!quiet
</VirtualHost>
<VirtualHost *:81>
</VirtualHost>
`);
  const [main, own, bare] = logTargets(config);
  const summary = (targets: { directive: string; kind: string; inherited: boolean; span: { line: number } }[]) =>
    targets.map((t) => `${t.directive} ${t.kind}${t.inherited ? " inherited" : ""} @${t.span.line}`);

  it("gives the main server its own lines, GlobalLog included", () => {
    expect(main!.errorLog).toMatchObject({ kind: "stream", path: "/proc/self/fd/2", inherited: false });
    expect(summary(main!.accessLogs)).toEqual(["CustomLog stream @2", "GlobalLog file @3"]);
  });

  it("gives a vhost with its own logs those plus the main server's GlobalLog", () => {
    expect(own!.errorLog).toMatchObject({ kind: "file", path: "/usr/local/apache2/logs/a_error", inherited: false });
    expect(summary(own!.accessLogs)).toEqual(["CustomLog piped @6", "GlobalLog file inherited @3"]);
    expect(own!.accessLogs[0]!.format).toEqual(["combined", "env=!quiet"]);
  });

  it("gives a vhost without logs the main server's", () => {
    expect(bare!.errorLog).toMatchObject({ kind: "stream", inherited: true });
    expect(summary(bare!.accessLogs)).toEqual(["CustomLog stream inherited @2", "GlobalLog file inherited @3"]);
  });

  it("has no ErrorLog when none is set (httpd's compiled-in default)", () => {
    expect(logTargets(effectiveConfig("Listen 80"))).toEqual([{ vhost: null, errorLog: null, accessLogs: [] }]);
  });
});
