import { describe, expect, it } from "vitest";
import type { ErrorLogRecord } from "../../../harness/logs/error-log-record.ts";
import { parseErrorLogLine, splitErrnoPrefix } from "../../../harness/logs/parse-error-log.ts";
import { fixtureLine, fixtureLines } from "./fixture-lines.ts";

describe("parseErrorLogLine, 2.4 format", () => {
  it("parses a 2.4 access_compat denial with client port", () => {
    const line = fixtureLine("error-log-2.4.txt", "[client 172.17.0.1:43226] AH01797");
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "error",
      module: "access_compat",
      code: "AH01797",
      event: "AH01797",
      client: "172.17.0.1",
      message: "client denied by server configuration: /usr/local/apache2/htdocs/server-status",
      normalized: "client denied by server configuration: /usr/local/apache2/htdocs/server-status",
    });
  });

  it("parses a 2.4 authz_core denial as its own code", () => {
    const line = fixtureLine("error-log-2.4.txt", "AH01630");
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "error",
      module: "authz_core",
      code: "AH01630",
      event: "AH01630",
      client: "127.0.0.1",
      message: "client denied by server configuration: /usr/local/apache2/htdocs/x",
      normalized: "client denied by server configuration: /usr/local/apache2/htdocs/x",
    });
  });

  it("keeps the errno part in front of the message of a proxy line whose client comes after it", () => {
    const line = fixtureLine("error-log-2.4.txt", "AH01084");
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "error",
      module: "proxy",
      code: "AH01084",
      event: "AH01084",
      client: "172.18.0.1",
      message:
        "(20014)Internal error (specific information not available): pass request body failed to 172.18.0.2:443 (backend)",
      normalized:
        "(20014)Internal error (specific information not available): pass request body failed to <ip>:443 (backend)",
    });
  });

  it("takes the address of a [remote ...] part as client, without the port", () => {
    const line = fixtureLine("error-log-2.4.txt", "AH02004");
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "info",
      module: "ssl",
      code: "AH02004",
      event: "AH02004",
      client: "172.19.0.2",
      message: "SSL Proxy: Peer certificate is expired",
      normalized: "SSL Proxy: Peer certificate is expired",
    });
  });

  it("parses a startup line of the event MPM", () => {
    const line = fixtureLine("error-log-2.4.txt", "OpenSSL/3.0.20 configured");
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "notice",
      module: "mpm_event",
      code: "AH00489",
      event: "AH00489",
      client: null,
      message: "Apache/2.4.62 (Unix) OpenSSL/3.0.20 configured -- resuming normal operations",
      normalized: "Apache/2.4.62 (Unix) OpenSSL/3.0.20 configured -- resuming normal operations",
    });
  });

  it("gives a code-less .htaccess alert the synthetic event id", () => {
    const line = fixtureLine("error-log-2.4.txt", "deny not allowed here");
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "alert",
      module: "core",
      code: null,
      event: "htaccess-not-allowed-here",
      client: "172.17.0.1",
      message: "/usr/local/apache2/htdocs/e1/.htaccess: deny not allowed here",
      normalized: "/usr/local/apache2/htdocs/e1/.htaccess: deny not allowed here",
    });
  });

  // Constructed: the fixtures have no empty module tag, no pid without tid and no IPv6 client.
  it("parses an empty module tag, a pid without tid and an IPv6 client with port", () => {
    const line =
      "[Sat Nov 21 22:41:27.024260 2026] [:error] [pid 11] [client ::1:39312] AH01797: client denied by server configuration: /usr/local/apache2/htdocs/";
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "error",
      module: null,
      code: "AH01797",
      event: "AH01797",
      client: "::1",
      message: "client denied by server configuration: /usr/local/apache2/htdocs/",
      normalized: "client denied by server configuration: /usr/local/apache2/htdocs/",
    });
  });

  // Constructed from the 2.4.62 format: debug lines carry "file.c(NN): " before the errno and client parts.
  it("drops the file(line) part of a debug line and keeps the referer", () => {
    const line =
      "[Sat Nov 21 22:42:09.000977 2026] [authz_core:debug] [pid 8:tid 22] mod_authz_core.c(820): [client 172.17.0.1:60166] AH01626: authorization result of Require all denied: denied, referer: http://localhost/";
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "debug",
      module: "authz_core",
      code: "AH01626",
      event: "AH01626",
      client: "172.17.0.1",
      message: "authorization result of Require all denied: denied, referer: http://localhost/",
      normalized: "authorization result of Require all denied: denied, referer: http://localhost/",
    });
  });

  it("parses an AH00526 config-test line without prefix, taking its code", () => {
    const [line] = fixtureLines("config-test-2.4.txt");
    expect(parseErrorLogLine(line as string, "2.4")).toEqual<ErrorLogRecord>({
      raw: "AH00526: Syntax error on line 36 of /usr/local/apache2/conf/httpd.conf:",
      level: null,
      module: null,
      code: "AH00526",
      event: "AH00526",
      client: null,
      message: "Syntax error on line 36 of /usr/local/apache2/conf/httpd.conf:",
      normalized: "Syntax error on line 36 of /usr/local/apache2/conf/httpd.conf:",
    });
  });

  it("parses the reason line after AH00526, which has neither prefix nor code", () => {
    const line = fixtureLine("config-test-2.4.txt", "Invalid command 'Order'");
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: null,
      module: null,
      code: null,
      event: "invalid-command",
      client: null,
      message: line,
      normalized: line,
    });
  });

  it("parses the AH00558 startup line", () => {
    const line = fixtureLine("error-log-2.4.txt", "AH00558");
    expect(parseErrorLogLine(line, "2.4")).toMatchObject({
      level: null,
      code: "AH00558",
      event: "AH00558",
      client: null,
      message: line.slice("AH00558: ".length),
    });
  });
});

describe("parseErrorLogLine, 2.2 format", () => {
  it("parses a 2.2 denial with a client address and no port", () => {
    const line = fixtureLine("error-log-2.2.txt", "[client 172.17.0.1] client denied");
    expect(parseErrorLogLine(line, "2.2")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "error",
      module: null,
      code: null,
      event: "AH01797",
      client: "172.17.0.1",
      message: "client denied by server configuration: /usr/local/apache2/htdocs/server-status",
      normalized: "client denied by server configuration: /usr/local/apache2/htdocs/server-status",
    });
  });

  it("parses a 2.2 proxy line whose errno part stands where the client would", () => {
    const line = fixtureLine("error-log-2.2.txt", "(502)Unknown error 502");
    expect(parseErrorLogLine(line, "2.2")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "error",
      module: null,
      code: null,
      event: "AH01084",
      client: null,
      message: "(502)Unknown error 502: proxy: pass request body failed to 172.20.0.2:443 (backend)",
      normalized: "(502)Unknown error 502: proxy: pass request body failed to <ip>:443 (backend)",
    });
  });

  it("parses the 2.2 AuthType-not-set line with its two spaces", () => {
    const line = fixtureLine("error-log-2.2.txt", "AuthType not set!");
    expect(parseErrorLogLine(line, "2.2")).toEqual<ErrorLogRecord>({
      raw: line,
      level: "crit",
      module: null,
      code: null,
      event: "authtype-not-set",
      client: "172.17.0.1",
      message: "configuration error:  couldn't perform authentication. AuthType not set!: /x",
      normalized: "configuration error:  couldn't perform authentication. AuthType not set!: /x",
    });
  });

  it("parses the 2.2 .htaccess alert", () => {
    const line = fixtureLine("error-log-2.2.txt", ".htaccess: Invalid command");
    expect(parseErrorLogLine(line, "2.2")).toMatchObject({
      level: "alert",
      client: "172.17.0.1",
      event: "htaccess-invalid-command",
      message:
        "/usr/local/apache2/htdocs/e2/.htaccess: Invalid command 'BogusDirectiveXyz', perhaps misspelled or defined by a module not included in the server configuration",
    });
  });

  // Constructed: 2.2 logs "[level] message" without time when it writes before the error log is open.
  it("parses 2.2's level-only line without time", () => {
    expect(parseErrorLogLine("[warn] NameVirtualHost *:80 has no VirtualHosts", "2.2")).toEqual<ErrorLogRecord>({
      raw: "[warn] NameVirtualHost *:80 has no VirtualHosts",
      level: "warn",
      module: null,
      code: null,
      event: "AH00548",
      client: null,
      message: "NameVirtualHost *:80 has no VirtualHosts",
      normalized: "NameVirtualHost *:80 has no VirtualHosts",
    });
  });

  // Constructed: 2.2 logs IPv6 clients without port; the trailing ":1" is part of the address.
  it("keeps a 2.2 IPv6 client whole", () => {
    const record = parseErrorLogLine(
      "[Sat Nov 21 22:41:20 2026] [error] [client ::1] client denied by server configuration: /usr/local/apache2/htdocs/",
      "2.2",
    );
    expect(record.client).toBe("::1");
  });
});

describe("parseErrorLogLine on odd input", () => {
  it("turns an unparseable line into a record with level null and the line as message", () => {
    const line = "[Sat Nov 21 22:41 garbage [client";
    expect(parseErrorLogLine(line, "2.4")).toEqual<ErrorLogRecord>({
      raw: line,
      level: null,
      module: null,
      code: null,
      event: null,
      client: null,
      message: line,
      normalized: line,
    });
  });

  it.each([
    "",
    "[",
    "[]",
    "[Sat Nov 21 22:41:17 2026]",
    "[Sat Nov 21 22:41:17 2026] [error]",
    "[client 1.2.3.4",
    "(13)",
    "AH0052: short code",
    "\u0000\u00ff\ud800",
    "x".repeat(20000),
  ])("does not throw on %j", (line) => {
    for (const dialect of ["2.2", "2.4"] as const) {
      const record = parseErrorLogLine(line, dialect);
      expect(record.raw).toBe(line);
      expect(typeof record.message).toBe("string");
    }
  });

  it("drops a trailing CR from raw", () => {
    expect(parseErrorLogLine("Syntax OK\r", "2.4").raw).toBe("Syntax OK");
  });
});

describe("splitErrnoPrefix", () => {
  it("separates the errno text from the rest of a message", () => {
    expect(
      splitErrnoPrefix("(20014)Internal error (specific information not available): pass request body failed"),
    ).toEqual({ errno: "(20014)Internal error (specific information not available)", text: "pass request body failed" });
  });

  it("leaves a message without errno alone", () => {
    expect(splitErrnoPrefix("Syntax OK")).toEqual({ errno: null, text: "Syntax OK" });
  });
});

describe("the 2.4 fixture", () => {
  it("parses every line, in order, with its code", () => {
    const records = fixtureLines("error-log-2.4.txt").map((line) => parseErrorLogLine(line, "2.4"));
    expect(records.map((record) => record.raw)).toEqual(fixtureLines("error-log-2.4.txt"));
    expect(records.map((record) => record.code)).toEqual([
      "AH00558",
      "AH01873",
      "AH00489",
      "AH00094",
      "AH00489",
      "AH00117",
      "AH01797",
      "AH01797",
      "AH01797",
      "AH01630",
      null,
      null,
      "AH02004",
      "AH01997",
      "AH01084",
      "AH00898",
      "AH01097",
    ]);
  });
});
