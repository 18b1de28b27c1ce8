// Which format a log was written in: the tree's log of the same file name first, then its other logs and
// nicknames, then the stock ones; the one that reads the most of the first lines wins.
import { describe, expect, it } from "vitest";
import { accessLogFormats } from "../../../../harness/conf/queries/log-formats.ts";
import { chooseFormat, formatCandidates, knownNicknames, logFileMatches, logOrigin, namedFormat } from "../../../../harness/plan/replay/replay-formats.ts";
import { configOf } from "./replay-config.ts";

const CONFIG = configOf([
  "Listen 80",
  'LogFormat "%h %l %u %t \\"%r\\" %>s %b \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined',
  'LogFormat "%h %l %u %t \\"%r\\" %>s %b" common',
  'LogFormat "%{Host}i %a \\"%r\\" %>s %D" timing',
  "CustomLog logs/access_log combined",
  "<VirtualHost *:80>",
  "  ServerName shop.example.com",
  "  CustomLog logs/shop_log timing",
  '  CustomLog "|bin/rotatelogs logs/shop-rot.%Y%m%d 86400" common',
  "</VirtualHost>",
]);

describe("logFileMatches", () => {
  const [main, shop, rotated] = accessLogFormats(CONFIG).map((log) => log.target);
  it("matches the file's name and its rotations, and a rotatelogs pipe by the stem of its file", () => {
    expect(logFileMatches("access_log", main!)).toBe(true);
    expect(logFileMatches("access_log.1", main!)).toBe(true);
    expect(logFileMatches("access_log-20240101", main!)).toBe(true);
    expect(logFileMatches("access_logger", main!)).toBe(false);
    expect(logFileMatches("shop_log", shop!)).toBe(true);
    expect(logFileMatches("shop-rot.20240101", rotated!)).toBe(true);
    expect(logFileMatches("access_log", rotated!)).toBe(false);
  });
});

describe("formatCandidates", () => {
  it("puts the tree's log of the same name first, then its other logs, its nicknames, then the stock ones, each format once", () => {
    expect(formatCandidates(CONFIG, "shop_log.2").map((c) => c.label)).toEqual([
      "CustomLog logs/shop_log timing (conf/httpd.conf:9)",
      "CustomLog logs/access_log combined (conf/httpd.conf:6)",
      "CustomLog |bin/rotatelogs logs/shop-rot.%Y%m%d 86400 common (conf/httpd.conf:10)",
      "vhost_combined (stock httpd.conf)",
    ]);
  });
});

describe("chooseFormat", () => {
  it("takes the format that reads the most lines, the first one on a tie", () => {
    const candidates = formatCandidates(CONFIG, "unknown.log");
    const combined = '192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 5 "-" "curl/8"';
    const common = '192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 5';
    expect(chooseFormat(candidates, [combined, common, common]).candidate.label).toMatch(/^CustomLog .*rotatelogs.* common/);
    expect(chooseFormat(candidates, [combined, common])).toMatchObject({ read: 1, candidate: { label: "CustomLog logs/access_log combined (conf/httpd.conf:6)" } });
    expect(chooseFormat(candidates, ["garbage"]).read).toBe(0);
  });
});

describe("namedFormat", () => {
  it("takes a format string as given, a nickname of the tree, then a stock nickname; null for an unknown one", () => {
    expect(namedFormat(CONFIG, "%h %r")).toMatchObject({ label: "--log-format", format: { text: "%h %r" } });
    expect(namedFormat(CONFIG, "Timing")).toMatchObject({ label: "timing (conf/httpd.conf:5)", format: { text: '%{Host}i %a "%r" %>s %D' } });
    expect(namedFormat(CONFIG, "vhost_combined")).toMatchObject({ label: "vhost_combined (stock httpd.conf)" });
    expect(namedFormat(CONFIG, "combnied")).toBeNull();
    expect(knownNicknames(CONFIG)).toEqual(["combined", "common", "timing", "vhost_combined", "referer", "agent"]);
  });
});

describe("logOrigin", () => {
  it("is the virtual host whose own log the file is, and none for the main server's log", () => {
    expect(logOrigin(CONFIG, "shop_log")?.server?.args).toEqual(["*:80"]);
    expect(logOrigin(CONFIG, "access_log")).toBeNull();
    expect(logOrigin(CONFIG, "other.log")).toBeNull();
  });
});
