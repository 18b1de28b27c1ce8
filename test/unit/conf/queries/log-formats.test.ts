// The formats a tree's access logs are written in, as mod_log_config resolves them: nicknames per server (a
// vhost's over the main server's), a written-out format, TransferLog's default, and a misspelt nickname that
// is itself the format.
import { describe, expect, it } from "vitest";
import { evaluateTree } from "../../../../harness/conf/evaluate-tree.ts";
import { accessLogFormats, logFormatNicknames } from "../../../../harness/conf/queries/log-formats.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

function configOf(main: string) {
  const tree = memoryTree({ "conf/httpd.conf": main });
  return evaluateTree(tree, { version: httpdVersion("2.2.34"), defines: [], environment: {}, builtinModules: ["core.c", "http_core.c", "mod_so.c", "mod_log_config.c"] });
}

const CONFIG = [
  'ServerRoot "/usr/local/apache2"',
  "Listen 80",
  'LogFormat "%h %l %u %t \\"%r\\" %>s %b \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined',
  'LogFormat "%h %l %u %t \\"%r\\" %>s %b" common',
  'LogFormat "%h %t \\"%r\\" %>s"',
  "CustomLog logs/access_log combined",
  "<VirtualHost *:80>",
  "  ServerName shop.example.com",
  '  LogFormat "%v %h \\"%r\\" %>s" common',
  "  CustomLog logs/shop_access common",
  "  CustomLog logs/shop_raw \"%a %U\"",
  "  TransferLog logs/shop_transfer",
  "  CustomLog logs/shop_typo combnied",
  "</VirtualHost>",
  "<VirtualHost *:80>",
  "  ServerName quiet.example.com",
  "</VirtualHost>",
].join("\n");

describe("logFormatNicknames", () => {
  it("gives a vhost the main server's nicknames with its own over them, case-insensitively", () => {
    const config = configOf(CONFIG);
    const main = logFormatNicknames(config, null);
    expect([...main.keys()]).toEqual(["combined", "common"]);
    expect(main.get("combined")!.format).toBe('%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"');
    expect(main.get("combined")!.span).toMatchObject({ file: "conf/httpd.conf", line: 3 });
  });
});

describe("accessLogFormats", () => {
  it("resolves each server's access logs: a nickname, a written format, TransferLog's default and a misspelt nickname", () => {
    const config = configOf(CONFIG);
    const logs = accessLogFormats(config).map((log) => [log.server?.args[0] ?? "main", log.target.directive, log.target.value, log.nickname, log.format, log.target.inherited]);
    expect(logs).toEqual([
      ["main", "CustomLog", "logs/access_log", "combined", '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"', false],
      ["*:80", "CustomLog", "logs/shop_access", "common", '%v %h "%r" %>s', false],
      ["*:80", "CustomLog", "logs/shop_raw", null, "%a %U", false],
      ["*:80", "TransferLog", "logs/shop_transfer", null, '%h %t "%r" %>s', false],
      ["*:80", "CustomLog", "logs/shop_typo", null, "combnied", false],
      ["*:80", "CustomLog", "logs/access_log", "combined", '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"', true],
    ]);
  });

  it("gives TransferLog the stock default format when no LogFormat line has no nickname", () => {
    const config = configOf(['ServerRoot "/usr/local/apache2"', "Listen 80", "TransferLog logs/access_log"].join("\n"));
    expect(accessLogFormats(config).map((log) => log.format)).toEqual(['%h %l %u %t "%r" %>s %b']);
  });
});
