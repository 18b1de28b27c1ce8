// Access-log lines read with common, combined, vhost_combined and a site's own LogFormat: the fields by meaning,
// httpd's escapes undone, "-" as none, and lines the format does not fit.
import { describe, expect, it } from "vitest";
import { compileLogFormat, STANDARD_LOG_FORMATS } from "../../../harness/logs/access-log-format.ts";
import { type AccessLogRecord, parseAccessLogLine, unescapeLogItem } from "../../../harness/logs/access-log-line.ts";

const format = (name: string) => compileLogFormat(STANDARD_LOG_FORMATS[name]!);

function record(formatText: ReturnType<typeof compileLogFormat>, line: string): AccessLogRecord {
  const parsed = parseAccessLogLine(formatText, line);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.record;
}

describe("parseAccessLogLine", () => {
  it("reads a common line", () => {
    const r = record(format("common"), '192.0.2.10 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326');
    expect(r).toMatchObject({ remoteHost: "192.0.2.10", remoteUser: "frank", requestLine: "GET /apache_pb.gif HTTP/1.0", status: 200, hostHeader: null, userAgent: null, port: null });
    expect(r.fields.map((f) => f.directive)).toEqual(["%h", "%l", "%u", "%t", "%r", "%>s", "%b"]);
    expect(r.fields[3]!.value).toBe("[10/Oct/2000:13:55:36 -0700]");
  });

  it("reads a combined line, with escaped quotes and backslashes in the request and the User-Agent", () => {
    const r = record(
      format("combined"),
      String.raw`2001:db8::7 - - [10/Oct/2000:13:55:36 -0700] "GET /q?a=\"x\"&b=\\ HTTP/1.1" 404 - "http://example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav) \"quoted\""`,
    );
    expect(r).toMatchObject({
      remoteHost: "2001:db8::7",
      remoteUser: null,
      requestLine: 'GET /q?a="x"&b=\\ HTTP/1.1',
      status: 404,
      userAgent: 'Mozilla/4.08 [en] (Win98; I ;Nav) "quoted"',
    });
    expect(r.fields.find((f) => f.directive === "%{Referer}i")!.value).toBe("http://example.com/start.html");
  });

  it("reads a vhost_combined line: the server's name and port", () => {
    const r = record(format("vhost_combined"), 'www.example.org:443 198.51.100.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 512 "-" "curl/8.5.0"');
    expect(r).toMatchObject({ canonicalName: "www.example.org", port: 443, remoteHost: "198.51.100.4", userAgent: "curl/8.5.0", hostHeader: null });
  });

  it("reads a site's own LogFormat, with the request in parts and an opaque field it does not know", () => {
    const own = compileLogFormat('%a %{Host}i "%m %U%q %H" %>s %D "%{User-Agent}i" %{X-Trace}o %Z');
    const r = record(own, '203.0.113.9 shop.example.com:8080 "POST /cart/add%20item?id=7 HTTP/1.1" 302 5123 "Lynx/2.8" abc-123 whatever');
    expect(r).toMatchObject({
      remoteHost: "203.0.113.9",
      hostHeader: "shop.example.com:8080",
      requestLine: null,
      method: "POST",
      urlPath: "/cart/add%20item",
      query: "?id=7",
      protocol: "HTTP/1.1",
      status: 302,
      userAgent: "Lynx/2.8",
    });
    expect(r.fields.slice(-2)).toEqual([{ directive: "%{X-Trace}o", value: "abc-123" }, { directive: "%Z", value: "whatever" }]);
  });

  it("takes the final status over the original one, and %{canonical}p or %{local}p as the port, never the client's", () => {
    const own = compileLogFormat("%<s %>s %{remote}p %{local}p");
    expect(record(own, "200 404 51234 8080")).toMatchObject({ status: 404, port: 8080 });
  });

  it("reads a conditional field's \"-\" and an empty %q", () => {
    const own = compileLogFormat('"%r" %!200{Referer}i q=%q');
    expect(record(own, '"GET / HTTP/1.1" - q=')).toMatchObject({ requestLine: "GET / HTTP/1.1", query: "" });
  });

  it("lets a free-text field hold spaces only where the format quotes or brackets it", () => {
    // Bare, %{Host}i could otherwise swallow "192.0.2.1 - - [10/Oct/2000:13:55:36" and a common line would fit.
    const bare = compileLogFormat('%{Host}i %a "%r" %>s %D');
    expect(parseAccessLogLine(bare, '192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 5').ok).toBe(false);
    const bracketed = compileLogFormat('[%{%d/%b/%Y %T}t] "%{User-Agent}i" %u');
    expect(record(bracketed, '[10/Oct/2000 13:55:36] "Mozilla/5.0 (X11; Linux)" alice')).toMatchObject({ userAgent: "Mozilla/5.0 (X11; Linux)", remoteUser: "alice" });
    expect(parseAccessLogLine(bracketed, '[10/Oct/2000 13:55:36] "x" alice smith').ok).toBe(false);
  });

  it("says why a line does not fit, and refuses an overlong line unread", () => {
    expect(parseAccessLogLine(format("common"), "garbage")).toEqual({ ok: false, reason: `does not fit the format ${JSON.stringify(STANDARD_LOG_FORMATS.common)}` });
    // A combined line is not a common one: the whole line must be used.
    expect(parseAccessLogLine(format("common"), '1.2.3.4 - - [x] "GET / HTTP/1.1" 200 5 "-" "-"').ok).toBe(false);
    expect(parseAccessLogLine(format("common"), "x".repeat(70_000))).toEqual({ ok: false, reason: "longer than 65536 characters" });
  });

  it("accepts a line with a CR before its LF", () => {
    expect(record(format("common"), '1.2.3.4 - - [x] "GET / HTTP/1.1" 200 5\r').status).toBe(200);
  });
});

describe("unescapeLogItem", () => {
  it("undoes ap_escape_logitem", () => {
    expect(unescapeLogItem(String.raw`a\"b\\c\x16\x03\n\t\q`)).toBe('a"b\\c\x16\x03\n\t\\q');
  });
});
