// In a merged log an unbracketed line is an access line only if one of the server's access formats fits it:
// httpd's start-up messages, a piped logger's restart and its complaints are error lines (as real 2.4.68 writes them
// on its stderr when CustomLog "|/bin/cat >> /tmp/piped.log" runs cat without a shell).
import { describe, expect, it } from "vitest";
import { accessFormatsOfText, accessLineTest } from "../../../harness/logs/access-line-shape.ts";

describe("accessLineTest", () => {
  const stock = accessLineTest([]);

  it("takes the stock formats' lines as access lines", () => {
    expect(stock('172.17.0.1 - - [07/Dec/2026:13:21:01 +0000] "GET / HTTP/1.1" 200 45')).toBe(true);
    expect(stock('::1 - probe-user [07/Dec/2026:13:21:01 +0000] "GET /x HTTP/1.1" 401 381 "-" "curl/7.88.1"')).toBe(true);
  });

  it("leaves what httpd and its children write unbracketed to the error log", () => {
    for (const line of [
      "AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using 172.17.0.2. Set the 'ServerName' directive globally to suppress this message",
      "AH00106: piped log program '/bin/cat >> /tmp/piped.log' failed unexpectedly",
      "/bin/cat: '>>': No such file or directory",
      "(98)Address in use: AH00072: make_sock: could not bind to address [::]:80",
    ]) expect(stock(line), line).toBe(false);
  });

  it("takes a config's own format, read from its text with its quoting undone", () => {
    const formats = accessFormatsOfText('LogFormat "%v %h \\"%r\\" %>s" vhostmini\nCustomLog logs/a.log vhostmini\n  CustomLog "|/usr/bin/logger" "%h|%>s"\n');
    expect(formats).toEqual(['%v %h "%r" %>s', "%h|%>s"]);
    const own = accessLineTest(formats);
    expect(own('www.example.org 10.0.0.1 "GET / HTTP/1.1" 200')).toBe(true);
    expect(own("10.0.0.1|404")).toBe(true);
    expect(own("AH00106: piped log program '/usr/bin/logger' failed unexpectedly")).toBe(false);
  });
});
