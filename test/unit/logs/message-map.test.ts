import { describe, expect, it } from "vitest";
import {
  EVENT_FAMILIES,
  MESSAGE_MAP,
  eventFamily,
  eventFor,
  findMessageMapRow,
} from "../../../harness/logs/message-map.ts";
import type { ErrorLogRecord } from "../../../harness/logs/error-log-record.ts";
import { parseErrorLogLine } from "../../../harness/logs/parse-error-log.ts";
import { fixtureLine, fixtureLines } from "./fixture-lines.ts";

const line22 = (needle: string) => parseErrorLogLine(fixtureLine("error-log-2.2.txt", needle), "2.2");
const line24 = (needle: string) => parseErrorLogLine(fixtureLine("error-log-2.4.txt", needle), "2.4");

describe("event of 2.2 records", () => {
  it("gives each recorded 2.2 line the event of its 2.4 counterpart", () => {
    const records = fixtureLines("error-log-2.2.txt").map((line) => parseErrorLogLine(line, "2.2"));
    expect(records.map((record) => [record.message.slice(0, 40), record.event])).toEqual([
      ["httpd: Could not reliably determine the ", "AH00558"],
      ["Init: Session Cache is not configured [h", "AH01873"],
      ["Apache/2.2.34 (Unix) mod_ssl/2.2.34 Open", "AH00489"],
      ["Digest: done", null],
      ["Server built: Nov 21 2026 22:39:13", "AH00490"],
      ["NameVirtualHost *:80 has no VirtualHosts", "AH00548"],
      ["client denied by server configuration: /", "AH01797"],
      ["client denied by server configuration: /", "AH01797"],
      ["configuration error:  couldn't perform a", "authtype-not-set"],
      ["/usr/local/apache2/htdocs/e2/.htaccess: ", "htaccess-invalid-command"],
      ["SSL Proxy: Peer certificate is expired", "AH02004"],
      ["(502)Unknown error 502: proxy: pass requ", "AH01084"],
      ["proxy: Error during SSL Handshake with r", "AH00898"],
      ["Certificate Verification: Error (10): ce", "AH02039"],
      ["proxy: pass request body failed to 172.2", "AH01097"],
    ]);
  });

  // The 2.2 wording below is built from the 2.2.34 format strings cited in the map (no recorded line has it).
  it.each([
    ["File does not exist: /usr/local/apache2/htdocs/favicon.ico", "AH00128"],
    ["user bob not found: /private/", "AH01618"],
    ['user bob: authentication failure for "/private/": Password Mismatch', "AH01617"],
    ["Directory index forbidden by Options directive: /usr/local/apache2/htdocs/dir/", "AH01276"],
    // Recorded on 2.2.34 (GET /cgi-bin/ on configs/official-stock); 2.4.68 logs AH02812 for the same request.
    ["attempt to invoke directory as script: /usr/local/apache2/cgi-bin/", "AH02812"],
    // Recorded on 2.2.34 (GET /nox/probe.cgi, AddHandler cgi-script under Options None); 2.4.68 logs
    // "AH02809: stderr from PATH: Options ExecCGI is off in this directory" for the same request.
    ["Options ExecCGI is off in this directory: /usr/local/apache2/htdocs/nox/probe.cgi", "AH02809"],
    ["Symbolic link not allowed or link target not accessible: /usr/local/apache2/htdocs/dl/lnk", "AH00037"],
    [
      "Negotiation: discovered file(s) matching request: /usr/local/apache2/htdocs/foo (None could be negotiated).",
      "AH00687",
    ],
    ["configuration error:  couldn't check user.  Check your authn provider!: /private/", "AH00025"],
    ["Syntax error on line 36 of /usr/local/apache2/conf/httpd.conf:", "AH00526"],
    [
      "Invalid command 'Order', perhaps misspelled or defined by a module not included in the server configuration",
      "invalid-command",
    ],
    ["KeepAlive must be On or Off", "directive-must-be-on-or-off"],
    ["Syntax OK", "syntax-ok"],
    ["Init: Seeding PRNG with 0 bytes of entropy", "ssl-seeding-prng"],
  ])("maps the 2.2 message %j to %s", (message, event) => {
    expect(eventFor(null, message, "2.2")).toBe(event);
  });

  it("leaves an unknown 2.2 message without event", () => {
    expect(eventFor(null, "Digest: done", "2.2")).toBeNull();
  });
});

describe("event of 2.4 records", () => {
  it("uses the AH code when the line has one, whatever the message says", () => {
    expect(eventFor("AH00163", "Apache/2.4.62 (Unix) configured -- resuming normal operations", "2.4")).toBe("AH00163");
  });

  it("does not run code-less 2.4 messages through the 2.2 patterns", () => {
    expect(eventFor(null, "client denied by server configuration: /usr/local/apache2/htdocs/x", "2.4")).toBeNull();
  });

  it("gives code-less 2.4 config-test lines the same synthetic ids as 2.2", () => {
    expect(eventFor(null, "Syntax OK", "2.4")).toBe(eventFor(null, "Syntax OK", "2.2"));
    expect(eventFor(null, "KeepAlive must be On or Off", "2.4")).toBe("directive-must-be-on-or-off");
  });

  it("finds the row of a message so a report can cite its source", () => {
    expect(findMessageMapRow("Init: Session Cache is not configured [hint: SSLSessionCache]", "2.2")).toMatchObject({
      event: "AH01873",
      source24: "modules/ssl/ssl_scache.c:76",
    });
  });
});

// What the diff compares a log line by (diff/observed-fields.ts: logKey): the event's family.
describe("event families across versions", () => {
  const family = (record: ErrorLogRecord) => eventFamily(record.event);

  it("pairs each recorded 2.2 line with the 2.4 line of the same event", () => {
    const pairs = [
      [line22("[client 172.17.0.1] client denied"), line24("[client 172.17.0.1:43226] AH01797")],
      [line22("OpenSSL/1.0.2s configured"), line24("OpenSSL/3.0.20 configured")],
      [line22("Init: Session Cache"), line24("AH01873")],
      [line22(".htaccess: Invalid command"), line24(".htaccess: Invalid command")],
      [line22("(502)Unknown error 502"), line24("AH01084")],
      [line22("proxy: Error during SSL Handshake"), line24("AH00898")],
      [line22("from 172.20.0.1 ()"), line24("AH01097")],
      [line22("SSL Proxy: Peer certificate is expired"), line24("AH02004")],
      [line22("httpd: Could not reliably"), line24("AH00558")],
    ] as const;
    expect(pairs.map(([a]) => family(a))).toEqual(pairs.map(([, b]) => family(b)));
    expect(pairs.filter(([a]) => family(a) === null)).toEqual([]);
  });

  it("treats AH01797 and AH01630 as one client-denied event", () => {
    expect(family(line24("AH01630"))).toBe(family(line24("[client 127.0.0.1:41282] AH01797")));
    expect(family(line22("[client 127.0.0.1] client denied"))).toBe(family(line24("AH01630")));
  });

  // Recorded on 2.2.34 and 2.4.68 (mod_cgi) for GET /nox/probe.cgi under Options None; mod_cgid's code is from its
  // module file's strings. One handler refusal, whichever CGI module 2.4 loads.
  it("treats 2.2's ExecCGI-off line and 2.4's AH02809 and AH01262 as one event", () => {
    const v22 = parseErrorLogLine("[Mon Dec 07 18:29:42 2026] [error] [client 198.51.100.77] Options ExecCGI is off in this directory: /usr/local/apache2/htdocs/nox/probe.cgi", "2.2");
    const cgi = parseErrorLogLine("[Mon Dec 07 18:29:41.267777 2026] [cgi:error] [pid 40:tid 76] [client 198.51.100.77:56180] AH02809: stderr from /usr/local/apache2/htdocs/nox/probe.cgi: Options ExecCGI is off in this directory", "2.4");
    const cgid = parseErrorLogLine("[Mon Dec 07 18:29:41.267777 2026] [cgid:error] [pid 40:tid 76] [client 198.51.100.77:56180] AH01262: stderr from /usr/local/apache2/htdocs/nox/probe.cgi: Options ExecCGI is off in this directory", "2.4");
    expect(family(v22)).toBe("cgi-execcgi-off");
    expect(family(cgi)).toBe("cgi-execcgi-off");
    expect(family(cgid)).toBe("cgi-execcgi-off");
    expect(family(v22)).not.toBe(family(line24("AH01630")));
  });

  it("keeps 2.2's AuthType-not-set apart from 2.4's AH01630", () => {
    expect(family(line22("AuthType not set!"))).not.toBe(family(line24("AH01630")));
  });

  it("keeps different events apart", () => {
    expect(family(line24("AH01084"))).not.toBe(family(line24("AH01097")));
    expect(family(line22("Init: Session Cache"))).not.toBe(family(line24("OpenSSL/3.0.20 configured")));
  });

  // Constructed: the recorded 2.4 image runs the event MPM; prefork logs the same text as AH00163.
  it("treats prefork's AH00163 like the event MPM's AH00489", () => {
    const prefork = parseErrorLogLine(
      "[Sat Nov 21 22:41:24.571809 2026] [mpm_prefork:notice] [pid 1] AH00163: Apache/2.4.62 (Unix) configured -- resuming normal operations",
      "2.4",
    );
    expect(family(prefork)).toBe(family(line24("OpenSSL/3.0.20 configured")));
    expect(family(prefork)).toBe(family(line22("OpenSSL/1.0.2s configured")));
  });
});

describe("a 2.4 line without a code", () => {
  // As the real 2.4.68 logged it at LogLevel debug, in cache-session-id-substring's other-param-jsessionid-5.
  it("names the event MPM's start of a child, so that a comparison can leave the load's line out", () => {
    const started = parseErrorLogLine(
      "[Mon Dec 07 22:51:51.983182 2026] [mpm_event:debug] [pid 30:tid 30] event.c(751): Child 3 started: pid 129, gen 0, active 4/16, total 4/4/16",
      "2.4",
    );
    expect(started.code).toBeNull();
    expect(started.event).toBe("mpm-child-started");
  });
});

describe("the tables", () => {
  it("names each event as an AH code or a lower-case synthetic id and cites both sources", () => {
    const bad = MESSAGE_MAP.filter(
      (row) =>
        !/^(?:AH\d{5}|[a-z]+(?:-[a-z]+)*)$/.test(row.event) ||
        row.source24.trim() === "" ||
        row.source22.trim() === "" ||
        (row.v22 === null && row.v24 === null),
    );
    expect(bad).toEqual([]);
  });

  it("puts no event in two families", () => {
    const events = EVENT_FAMILIES.flatMap((family) => family.events);
    expect(new Set(events).size).toBe(events.length);
  });

  it("gives an event without family its own id as family", () => {
    expect(eventFamily("AH00094")).toBe("AH00094");
    expect(eventFamily("AH01630")).toBe("client-denied");
    expect(eventFamily(null)).toBeNull();
  });
});
