import { describe, expect, it } from "vitest";
import { evaluateTree } from "../../../../harness/conf/evaluate-tree.ts";
import { CAPTURE_DIR, captureLogs, type StockLogs } from "../../../../harness/plan/tree/log-capture.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

function capture(main: string, version = "2.4.68", stock: StockLogs | null = null) {
  const tree = memoryTree({ "conf/httpd.conf": main });
  const config = evaluateTree(tree, { version: httpdVersion(version), defines: [], environment: {}, builtinModules: ["core.c", "http_core.c", "mod_so.c"] });
  return captureLogs(config, stock);
}

describe("captureLogs", () => {
  it("points a piped CustomLog at a file of the harness, keeping the format and the condition after it", () => {
    const result = capture('Listen 80\n    CustomLog "|/usr/bin/logger -t web" combined env=!quiet\n');
    expect(result.edits).toEqual([{ file: "conf/httpd.conf", line: 2, endLine: 2, text: `    CustomLog "${CAPTURE_DIR}/access-1.log" combined env=!quiet` }]);
    expect(result.adaptations).toEqual([
      expect.objectContaining({ kind: "log-captured", file: "conf/httpd.conf", line: 2, was: 'CustomLog "|/usr/bin/logger -t web" combined env=!quiet' }),
    ]);
    expect(result.logs.access).toEqual([`${CAPTURE_DIR}/access-1.log`]);
    expect(result.logs.accessLogged).toBe(true);
  });

  it("points `ErrorLog syslog:local1` at a file of the harness and says which virtual host it was", () => {
    const result = capture("Listen 80\nErrorLog logs/main_error\n<VirtualHost *:80>\n  ErrorLog syslog:local1\n</VirtualHost>\n");
    expect(result.edits).toEqual([{ file: "conf/httpd.conf", line: 4, endLine: 4, text: `  ErrorLog "${CAPTURE_DIR}/error-1.log"` }]);
    expect(result.adaptations[0]?.reason).toContain("virtual host *:80");
    expect(result.logs.error).toEqual(["/usr/local/apache2/logs/main_error", `${CAPTURE_DIR}/error-1.log`]);
  });

  it("follows file logs where ServerRoot puts them and changes no line", () => {
    const result = capture("Listen 80\nErrorLog logs/err\nCustomLog /var/log/web/access.log common\nTransferLog logs/transfer\n");
    expect(result.edits).toEqual([]);
    expect(result.logs).toEqual({ error: ["/usr/local/apache2/logs/err"], access: ["/var/log/web/access.log", "/usr/local/apache2/logs/transfer"], accessLogged: true, mergeable: true, formats: ['%h %l %u %t "%r" %>s %b'] });
  });

  it("says no access log is kept when the tree has none, and follows httpd's default error log logs/error_log", () => {
    const result = capture("Listen 80\n");
    expect(result.logs).toEqual({ error: ["/usr/local/apache2/logs/error_log"], access: [], accessLogged: false, mergeable: true, formats: [] });
  });

  it("reads a log written to the container's streams there: no file followed, no default error log", () => {
    const result = capture("Listen 80\nErrorLog /proc/self/fd/2\nCustomLog /proc/self/fd/1 common\n");
    expect(result.logs).toEqual({ error: [], access: [], accessLogged: true, mergeable: true, formats: ['%h %l %u %t "%r" %>s %b'] });
    expect(result.edits).toEqual([]);
  });

  it("follows a virtual host's file log and the main server's stream beside it", () => {
    const result = capture("Listen 80\nErrorLog /proc/self/fd/2\n<VirtualHost *:80>\nErrorLog logs/site_error\nCustomLog logs/site_access combined\n</VirtualHost>\n");
    expect(result.logs.error).toEqual(["/usr/local/apache2/logs/site_error"]);
    expect(result.logs.streams).toEqual({ error: true, access: false });
  });

  it("follows a fragment's own log files besides the stock config's streams, and takes the stock config's formats", () => {
    const official = 'ErrorLog /proc/self/fd/2\nLogFormat "%h %l %u %t \\"%r\\" %>s %b" common\nCustomLog /proc/self/fd/1 common\n';
    const result = capture("<VirtualHost *:80>\nErrorLog logs/site_error\nCustomLog logs/site_access combined\n</VirtualHost>\n", "2.4.68", { errorLog: null, accessLog: null, text: official });
    expect(result.logs.error).toEqual(["/usr/local/apache2/logs/site_error"]);
    expect(result.logs.access).toEqual(["/usr/local/apache2/logs/site_access"]);
    expect(result.logs.streams).toEqual({ error: true, access: true });
    expect(result.logs.accessLogged).toBe(true);
    expect(result.logs.formats).toContain('%h %l %u %t "%r" %>s %b');
    // No httpd default error log for the fragment: its main server is the stock config's.
    expect(result.files.map((f) => f.path)).toEqual(["/usr/local/apache2/logs/site_error", "/usr/local/apache2/logs/site_access"]);
  });

  it("follows the stock config's log files around a fragment that logs nowhere of its own", () => {
    const result = capture("<Location /x>\nSetHandler server-status\n</Location>\n", "2.2.34", { errorLog: "/usr/local/apache2/logs/error_log", accessLog: "/usr/local/apache2/logs/access_log", text: "ErrorLog logs/error_log\nCustomLog logs/access_log common\nErrorLogFormat x\n" });
    expect(result.logs).toEqual({ error: ["/usr/local/apache2/logs/error_log"], access: ["/usr/local/apache2/logs/access_log"], accessLogged: true, mergeable: false, formats: [] });
  });

  it("numbers the captured files so two piped logs never share one", () => {
    const result = capture('Listen 80\nCustomLog "|/bin/cat" common\n<VirtualHost *:80>\nCustomLog "|/bin/cat" common\n</VirtualHost>\n');
    expect(result.logs.access).toEqual([`${CAPTURE_DIR}/access-1.log`, `${CAPTURE_DIR}/access-2.log`]);
  });

  it("captures a piped log on 2.2 as on 2.4", () => {
    const result = capture('Listen 80\nErrorLog "|/usr/sbin/rotatelogs /var/log/e 86400"\n', "2.2.34");
    expect(result.edits.map((e) => e.text)).toEqual([`ErrorLog "${CAPTURE_DIR}/error-1.log"`]);
  });
});

describe("captureLogs: one piped line read twice", () => {
  it("gives the line one file, the one its staged text names, when a snippet is included in two virtual hosts", () => {
    const tree = memoryTree({
      "conf/httpd.conf": "Listen 80\n<VirtualHost *:80>\nInclude conf/log.conf\n</VirtualHost>\n<VirtualHost *:81>\nInclude conf/log.conf\n</VirtualHost>\n",
      "conf/log.conf": 'CustomLog "|/bin/cat" common\n',
    });
    const config = evaluateTree(tree, { version: httpdVersion("2.4.68"), defines: [], environment: {}, builtinModules: ["core.c", "http_core.c", "mod_so.c"] });
    const result = captureLogs(config);
    const texts = new Set(result.edits.map((e) => e.text));
    expect(texts).toEqual(new Set([`CustomLog "${CAPTURE_DIR}/access-1.log" common`]));
    expect(result.logs.access).toEqual([`${CAPTURE_DIR}/access-1.log`]);
  });

  it("does not merge the logs into one file where an error line's form is the config's own, or an access line could start like one", () => {
    expect(capture('Listen 80\nErrorLogFormat "%t %M"\nErrorLog logs/err\n').logs.mergeable).toBe(false);
    expect(capture('Listen 80\nCustomLog logs/a "[%{%a %b %d %H:%M:%S %Y}t] %h"\n').logs.mergeable).toBe(false);
    expect(capture('Listen 80\nCustomLog logs/a "%h %l %u %t \\"%r\\" %>s %b"\n').logs.mergeable).toBe(true);
  });
});
