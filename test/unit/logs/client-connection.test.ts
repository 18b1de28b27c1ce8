import { describe, expect, it } from "vitest";
import { clientConnectionOf, sameAddress } from "../../../harness/logs/client-connection.ts";
import { fixtureLine } from "./fixture-lines.ts";

describe("clientConnectionOf", () => {
  it("reads the client address and port of a 2.4 line", () => {
    const line = fixtureLine("error-log-2.4.txt", "[client 172.17.0.1:43226] AH01797");
    expect(clientConnectionOf(line, "2.4")).toEqual({ address: "172.17.0.1", port: 43226 });
    expect(clientConnectionOf("[Sat Nov 21 22:44:48.681816 2026] [proxy:error] [pid 9:tid 12] [client 172.18.0.1:45410] AH00898: Error during SSL Handshake with remote server returned by /", "2.4")).toEqual({
      address: "172.18.0.1",
      port: 45410,
    });
  });

  it("reads an IPv6 client without brackets, as 2.4 writes it, with its last group apart from the port", () => {
    expect(clientConnectionOf("[core:info] [pid 9] [client 2001:db8:77::5:40001] AH00128: File does not exist", "2.4")).toEqual({ address: "2001:db8:77::5", port: 40001 });
    expect(clientConnectionOf("[authz_core:error] [pid 9] [client ::1:39312] AH01630: client denied", "2.4")).toEqual({ address: "::1", port: 39312 });
    expect(clientConnectionOf("[authz_core:error] [pid 9] [client ::ffff:10.0.0.5:39312] AH01630: client denied", "2.4")).toEqual({ address: "10.0.0.5", port: 39312 });
  });

  it("names no connection for a 2.2 line, whose client has no port however its address ends", () => {
    expect(clientConnectionOf(fixtureLine("error-log-2.2.txt", "[client 127.0.0.1] client denied"), "2.2")).toBeNull();
    expect(clientConnectionOf("[Sat Nov 21 22:41:17 2026] [error] [client 2001:db8::5] client denied by server configuration: /x", "2.2")).toBeNull();
  });

  it("names no connection for a 2.4 line without a client, or with the backend's [remote ...]", () => {
    expect(clientConnectionOf("[Sat Nov 21 22:41:24.568687 2026] [ssl:warn] [pid 1:tid 1] AH01873: Init: Session Cache is not configured", "2.4")).toBeNull();
    expect(clientConnectionOf("[ssl:info] [pid 9:tid 12] [remote 172.18.0.7:443] AH01964: Connection to child 0 established", "2.4")).toBeNull();
  });
});

describe("sameAddress", () => {
  it("writes an address as a line names it: no brackets, lower case, an IPv4-mapped address as IPv4", () => {
    expect(sameAddress("[2001:DB8::5]")).toBe("2001:db8::5");
    expect(sameAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(sameAddress("10.77.1.5")).toBe("10.77.1.5");
  });
});
