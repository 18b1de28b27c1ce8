import { describe, expect, it } from "vitest";
import { parseHostPort } from "../../../../harness/conf/queries/host-port.ts";
import { listeners } from "../../../../harness/conf/queries/listeners.ts";
import { effectiveConfig } from "./build-effective-config.ts";

describe("parseHostPort", () => {
  it("reads a port, addr:port, a bracketed IPv6 address, wildcards and a missing port", () => {
    expect(parseHostPort("80")).toEqual({ host: null, port: 80, anyPort: false });
    expect(parseHostPort("192.0.2.7:8080")).toEqual({ host: "192.0.2.7", port: 8080, anyPort: false });
    expect(parseHostPort("[::1]:443")).toEqual({ host: "[::1]", port: 443, anyPort: false });
    expect(parseHostPort("*:*")).toEqual({ host: "*", port: null, anyPort: true });
    expect(parseHostPort("_default_")).toEqual({ host: "_default_", port: null, anyPort: false });
    expect(parseHostPort("www.example.test")).toEqual({ host: "www.example.test", port: null, anyPort: false });
  });
});

describe("listeners", () => {
  it("gives 443 https and other ports http unless a protocol is written, lower-cased", () => {
    const config = effectiveConfig(`
Listen 80
Listen 192.0.2.7:443
Listen [::]:8443 HTTPS
Listen *:8080
`);
    expect(listeners(config).map(({ span, ...rest }) => ({ ...rest, line: span.line }))).toEqual([
      { address: null, port: 80, protocol: "http", protocolGiven: false, line: 1 },
      { address: "192.0.2.7", port: 443, protocol: "https", protocolGiven: false, line: 2 },
      { address: "[::]", port: 8443, protocol: "https", protocolGiven: true, line: 3 },
      { address: null, port: 8080, protocol: "http", protocolGiven: false, line: 4 },
    ]);
  });

  it("skips a Listen without a port (httpd refuses it)", () => {
    expect(listeners(effectiveConfig("Listen 192.0.2.7"))).toEqual([]);
  });
});
