// A record as the request a replay sends, or why it cannot be sent.
import { describe, expect, it } from "vitest";
import type { AccessLogRecord } from "../../../../harness/logs/access-log-line.ts";
import { replayKey, type ReplayOutcome, replayRequestOf } from "../../../../harness/plan/replay/replay-request.ts";
import { logRecord } from "./log-record.ts";
import { replayContext } from "./replay-context.ts";

function record(fields: Partial<AccessLogRecord>): AccessLogRecord {
  return logRecord({ fields: [{ directive: "%r", value: fields.requestLine ?? "-" }], remoteHost: "10.1.2.3", ...fields });
}

const replay = (fields: Partial<AccessLogRecord>): ReplayOutcome => replayRequestOf(record(fields), replayContext());
const why = (fields: Partial<AccessLogRecord>) => {
  const outcome = replay(fields);
  return outcome.ok ? null : [outcome.why.kind, outcome.why.reason];
};

describe("replayRequestOf", () => {
  it("keeps method, target as received, version, Host, the client's identity, the user and the User-Agent", () => {
    expect(replay({ requestLine: "GET /admin/?x=%20y HTTP/1.0", hostHeader: "www.example.org", remoteUser: "alice", userAgent: "Mozilla/5.0 (X11)" })).toEqual({
      ok: true,
      request: {
        method: "GET",
        target: "/admin/?x=%20y",
        httpVersion: "1.0",
        host: "www.example.org",
        port: 80,
        tls: false,
        client: "addr-1",
        user: "alice",
        credentials: "valid",
        userAgent: "Mozilla/5.0 (X11)",
      },
    });
  });

  it("sends a user logged on a 401 line with a wrong password, and HTTP/2 lines over HTTP/1.1", () => {
    expect(replay({ requestLine: "GET / HTTP/2.0", remoteUser: "bob", status: 401 })).toMatchObject({ ok: true, request: { credentials: "wrong-password", httpVersion: "1.1" } });
  });

  it("builds the target from %m %U%q %H when the format has no %r", () => {
    const outcome = replayRequestOf({ ...record({ method: "POST", urlPath: "/cart/add%20item", query: "?id=7", protocol: "HTTP/1.1" }), fields: [] }, replayContext());
    expect(outcome).toMatchObject({ ok: true, request: { method: "POST", target: "/cart/add%20item?id=7" } });
  });

  it("says why a request is not replayed", () => {
    expect(why({ requestLine: null })).toEqual(["no-request", 'no request line ("-": the connection closed before a request was read)']);
    expect(replayRequestOf({ ...record({}), fields: [] }, replayContext())).toMatchObject({ ok: false, why: { kind: "no-request" } });
    expect(why({ requestLine: "GET /a b HTTP/1.1" })?.[0]).toBe("request-line");
    expect(why({ requestLine: "GET /" })?.[0]).toBe("http-0.9");
    expect(why({ requestLine: "GET / SPDY/3" })).toEqual(["protocol", 'protocol "SPDY/3": not HTTP/1.0, 1.1 or 2']);
    expect(why({ requestLine: "G(T / HTTP/1.1" })?.[0]).toBe("method");
    expect(why({ requestLine: "CONNECT example.com:443 HTTP/1.1" })).toEqual(["proxy", "CONNECT (a proxy tunnel) is not replayed"]);
    expect(why({ requestLine: "GET http://example.com/ HTTP/1.1" })?.[0]).toBe("proxy");
    expect(why({ requestLine: "OPTIONS * HTTP/1.1" })?.[0]).toBe("target");
    expect(why({ requestLine: "GET example.com HTTP/1.1" })?.[0]).toBe("target");
    expect(why({ requestLine: "GET /caf\xe9 HTTP/1.1" })?.[0]).toBe("target");
    expect(why({ requestLine: "GET /a#b HTTP/1.1" })?.[0]).toBe("target");
    expect(why({ requestLine: "GET / HTTP/1.1", remoteUser: "a:b" })?.[0]).toBe("user");
    expect(why({ requestLine: "GET / HTTP/1.1", userAgent: "x\ny" })?.[0]).toBe("user-agent");
    expect(why({ requestLine: "GET / HTTP/1.1", hostHeader: "a b" })?.[0]).toBe("host");
    expect(why({ requestLine: "GET / HTTP/1.1", port: 8443 })?.[0]).toBe("port");
  });
});

describe("replayKey", () => {
  it("is the same for two lines of one request, and differs by client identity, not by address", () => {
    const key = (remoteHost: string) => {
      const outcome = replay({ requestLine: "GET / HTTP/1.1", remoteHost });
      return outcome.ok ? replayKey(outcome.request) : null;
    };
    expect(key("10.1.1.1")).toBe(key("10.200.3.4"));
    expect(key("10.1.1.1")).not.toBe(key("192.0.2.1"));
  });
});
