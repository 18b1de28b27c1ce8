import { describe, expect, it } from "vitest";
import { isWildcardHost, parseHostPort } from "../../../../harness/conf/queries/host-port.ts";

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

describe("isWildcardHost", () => {
  it("takes *, _default_, the any-addresses and a missing host as every address", () => {
    expect([null, "*", "_default_", "0.0.0.0", "[::]"].map(isWildcardHost)).toEqual([true, true, true, true, true]);
    expect(["192.0.2.7", "[::1]", "www.example.test"].map(isWildcardHost)).toEqual([false, false, false]);
  });
});
