import { describe, expect, it } from "vitest";
import { listeners } from "../../../../harness/conf/queries/listeners.ts";
import { effectiveConfig } from "./build-effective-config.ts";

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
