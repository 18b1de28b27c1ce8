// Where a logged request goes: its Host header, and the port of the server that answered.
import { describe, expect, it } from "vitest";
import type { AccessLogRecord } from "../../../../harness/logs/access-log-line.ts";
import { replayServers, replayTarget, splitHostHeader } from "../../../../harness/plan/replay/replay-targets.ts";
import { virtualHostSections } from "../../../../harness/conf/queries/walk-config.ts";
import { configOf } from "./replay-config.ts";
import { logRecord } from "./log-record.ts";

const CONFIG = configOf(
  [
    "Listen 80",
    "Listen 8080",
    "Listen 443",
    "Listen 127.0.0.1:8081",
    "NameVirtualHost *:80",
    "<VirtualHost *:80>",
    "  ServerName www.example.org",
    "  ServerAlias *.blog.example.org",
    "</VirtualHost>",
    "<VirtualHost *:8080>",
    "  ServerName shop.example.org",
    "</VirtualHost>",
    "<VirtualHost *:443>",
    "  ServerName secure.example.org",
    "  SSLEngine on",
    "</VirtualHost>",
    "<VirtualHost 127.0.0.1:8081>",
    "  ServerName status.local",
    "</VirtualHost>",
  ],
  "2.4.68",
);

function record(fields: Partial<AccessLogRecord>): AccessLogRecord {
  return logRecord({ requestLine: "GET / HTTP/1.1", ...fields });
}

describe("replayTarget", () => {
  const servers = replayServers([CONFIG], [], null);

  it("goes to the first plain HTTP port with no Host when the log names neither", () => {
    expect(replayTarget(servers, record({}))).toEqual({ ok: true, host: null, port: 80, tls: false, client: "host" });
  });

  it("finds the port of the virtual host the Host names (aliases with globs too), and keeps the Host as logged", () => {
    expect(replayTarget(servers, record({ hostHeader: "shop.example.org" }))).toMatchObject({ host: "shop.example.org", port: 8080 });
    expect(replayTarget(servers, record({ hostHeader: "a.blog.example.org" }))).toMatchObject({ port: 80 });
    expect(replayTarget(servers, record({ hostHeader: "www.example.org:8080" }))).toMatchObject({ host: "www.example.org:8080", port: 8080 });
    // A port the config does not listen on (the balancer's) is passed over.
    expect(replayTarget(servers, record({ hostHeader: "shop.example.org:8443" }))).toMatchObject({ port: 8080 });
  });

  it("takes %p as the server's port, goes over TLS where that port's server does (Host without port: it is the SNI name)", () => {
    expect(replayTarget(servers, record({ canonicalName: "secure.example.org", port: 443 }))).toEqual({ ok: true, host: "secure.example.org", port: 443, tls: true, client: "host" });
    expect(replayTarget(servers, record({ hostHeader: "secure.example.org:443" }))).toMatchObject({ host: "secure.example.org", tls: true });
    expect(replayTarget(servers, record({ port: 9999 }))).toEqual({ ok: false, reason: "port 9999 (%p): the config listens on no such port" });
  });

  it("sends to a loopback-only port from the local client", () => {
    expect(replayTarget(servers, record({ hostHeader: "status.local" }))).toMatchObject({ port: 8081, client: "localhost" });
  });

  it("names the Host and port of the virtual host whose own log it is, for lines that do not", () => {
    const shop = virtualHostSections(CONFIG)[1]!;
    const fromShop = replayServers([CONFIG], [], { config: CONFIG, server: shop });
    expect(replayTarget(fromShop, record({}))).toMatchObject({ host: "shop.example.org", port: 8080 });
  });

  it("refuses a Host no client can send", () => {
    expect(replayTarget(servers, record({ hostHeader: "bad host" }))).toEqual({ ok: false, reason: 'Host "bad host" is no host name a client can send' });
  });
});

describe("splitHostHeader", () => {
  it("reads name, name:port and bracketed IPv6", () => {
    expect(splitHostHeader("www.example.org")).toEqual({ name: "www.example.org", port: null });
    expect(splitHostHeader("www.example.org:8080")).toEqual({ name: "www.example.org", port: 8080 });
    expect(splitHostHeader("[2001:db8::1]:443")).toEqual({ name: "[2001:db8::1]", port: 443 });
    expect(splitHostHeader("a b")).toBeNull();
  });
});
