import { describe, expect, it } from "vitest";
import { normalizeMessage } from "../../../harness/logs/normalize-log.ts";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
import { fixtureLine } from "./fixture-lines.ts";

const message22 = (needle: string) => parseErrorLogLine(fixtureLine("error-log-2.2.txt", needle), "2.2").message;
const message24 = (needle: string) => parseErrorLogLine(fixtureLine("error-log-2.4.txt", needle), "2.4").message;

describe("normalizeMessage on recorded messages", () => {
  it("replaces the backend and client container addresses of a 2.4 proxy line, keeping the backend port", () => {
    expect(normalizeMessage(message24("AH01097"))).toMatchInlineSnapshot(
      `"pass request body failed to <ip>:443 (backend) from <ip> ()"`,
    );
  });

  it("gives the 2.2 and 2.4 lines of one proxy failure the same text apart from 2.2's prefix", () => {
    expect(normalizeMessage(message22("from 172.20.0.1 ()"))).toBe(`proxy: ${normalizeMessage(message24("AH01097"))}`);
  });

  it("replaces the container address AH00558 guessed", () => {
    expect(normalizeMessage(message24("AH00558"))).toMatchInlineSnapshot(
      `"httpd: Could not reliably determine the server's fully qualified domain name, using <ip>. Set the 'ServerName' directive globally to suppress this message"`,
    );
  });

  it("replaces the build time of 2.2's Server built line", () => {
    expect(normalizeMessage(message22("Server built"))).toMatchInlineSnapshot(`"Server built: <time>"`);
  });

  it("keeps versions, paths and the loopback address", () => {
    expect(normalizeMessage(message22("OpenSSL/1.0.2s configured"))).toMatchInlineSnapshot(
      `"Apache/2.2.34 (Unix) mod_ssl/2.2.34 OpenSSL/1.0.2s configured -- resuming normal operations"`,
    );
    expect(normalizeMessage(message24("AH00117"))).toMatchInlineSnapshot(
      `"Ignoring deprecated use of DefaultType in line 36 of /usr/local/apache2/conf/httpd.conf."`,
    );
  });
});

// The messages below are constructed to exercise each kind of volatile part.
describe("normalizeMessage on volatile parts", () => {
  it("keeps 127.0.0.1 and ::1 but replaces other IPv4 and IPv6 addresses", () => {
    expect(
      normalizeMessage("from 127.0.0.1 and ::1 to 172.17.0.2, fd00:dead:beef::2, ::ffff:172.18.0.3 and [fe80::42:acff:fe11:2]:8080."),
    ).toMatchInlineSnapshot(`"from 127.0.0.1 and ::1 to <ip>, <ip>, <ip> and [<ip>]:8080."`);
  });

  it("does not take version numbers or clock-like text for addresses", () => {
    expect(normalizeMessage("OpenSSL/1.0.2s 1.2.3.4.5 999.1.1.1 a:b:c")).toMatchInlineSnapshot(
      `"OpenSSL/1.0.2s 1.2.3.4.5 999.1.1.1 a:b:c"`,
    );
  });

  it("replaces ephemeral ports but not service ports", () => {
    expect(normalizeMessage("connect to 127.0.0.1:45410 from 172.18.0.1:39312 via 172.18.0.2:443 and localhost:8443")).toMatchInlineSnapshot(
      `"connect to 127.0.0.1:<port> from <ip>:<port> via <ip>:443 and localhost:8443"`,
    );
  });

  it("replaces pids, tids and mod_ssl's connection ids", () => {
    expect(
      normalizeMessage("AH00052: child pid 11 exit signal Segmentation fault (11); [pid 1:tid 140234]; Connection to child 3 established (server localhost:80)"),
    ).toMatchInlineSnapshot(
      `"AH00052: child pid <pid> exit signal Segmentation fault (11); [pid <pid>:tid <tid>]; Connection to child <n> established (server localhost:80)"`,
    );
  });

  it("replaces times of every format httpd and its modules write", () => {
    expect(
      normalizeMessage(
        "at Sat Nov 21 22:41:24.568687 2026, Sat, 21 Nov 2026 22:45:47 GMT, 21/Nov/2026:22:45:47 +0000, 2026-11-21T22:41:17.123Z, Nov  1 2026 22:37:16 and 22:41:17",
      ),
    ).toMatchInlineSnapshot(`"at <time>, <time>, <time>, <time>, <time> and <time>"`);
  });

  it("replaces pointers and temporary file names but keeps ordinary paths", () => {
    expect(
      normalizeMessage("buffer 0x7f3a2c001b40 in /tmp/htpasswd.tmp.aB3dEf and /var/cache/aptmpX1y2Z3, not /tmp/tmpfolder/index.html"),
    ).toMatchInlineSnapshot(`"buffer <hex> in /tmp/htpasswd.tmp.<tmp> and /var/cache/aptmp<tmp>, not /tmp/tmpfolder/index.html"`);
  });

  it("replaces measured durations but keeps configured whole seconds", () => {
    expect(normalizeMessage("took 12ms, 350 us and 0.25 seconds; Timeout of 300 seconds")).toMatchInlineSnapshot(
      `"took <duration>, <duration> and <duration>; Timeout of 300 seconds"`,
    );
  });

  it("leaves URIs and errno numbers alone", () => {
    expect(normalizeMessage("(20014)Internal error: AH00898 returned by /server-status?auto")).toBe(
      "(20014)Internal error: AH00898 returned by /server-status?auto",
    );
  });
});

describe("parseErrorLogLine fills normalized", () => {
  it("with the normalised message, not the raw line", () => {
    const record = parseErrorLogLine(fixtureLine("error-log-2.4.txt", "AH01084"), "2.4");
    expect(record.normalized).toBe(normalizeMessage(record.message));
    expect(record.normalized).toMatchInlineSnapshot(
      `"(20014)Internal error (specific information not available): pass request body failed to <ip>:443 (backend)"`,
    );
  });
});
