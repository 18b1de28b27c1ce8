import { describe, expect, it } from "vitest";
import {
  clientAddressProblem,
  clientDomainProblem,
  type ClientSubnet,
  clientSubnet,
  engineAssignedRange,
  formatAddress,
  parseAddress,
  sameSubnet,
  subnetsOverlap,
} from "../../../harness/scenario/client-address.ts";

describe("client addresses", () => {
  it("accepts host addresses of both families", () => {
    for (const address of ["10.77.1.5", "192.0.2.7", "2001:db8:77::5", "2001:DB8::1:5", "fd00::1"]) expect(clientAddressProblem(address), address).toBeNull();
  });

  it("refuses loopback (the local clients'), multicast, unspecified, link-local and mapped addresses, and non-addresses", () => {
    expect(clientAddressProblem("127.0.0.2")).toMatch(/loopback.*client: localhost$/);
    expect(clientAddressProblem("::1")).toMatch(/loopback.*client: localhost6$/);
    expect(clientAddressProblem("224.0.0.1")).toMatch(/multicast/);
    expect(clientAddressProblem("ff02::1")).toMatch(/multicast/);
    expect(clientAddressProblem("0.0.0.0")).toMatch(/unspecified/);
    expect(clientAddressProblem("::")).toMatch(/unspecified/);
    expect(clientAddressProblem("255.255.255.255")).toMatch(/broadcast/);
    expect(clientAddressProblem("fe80::1")).toMatch(/link-local/);
    expect(clientAddressProblem("::ffff:10.0.0.1")).toMatch(/IPv4-mapped/);
    for (const text of ["10.1.2", "10.1.2.0/24", "example.com", "2001:db8::1%eth0", "[::5]"]) expect(clientAddressProblem(text), text).toMatch(/not an IPv4 or IPv6/);
  });

  it("parses and prints IPv6 the way Docker reports it", () => {
    expect(formatAddress(parseAddress("2001:DB8:77:0:0:0:0:5")!)).toBe("2001:db8:77::5");
    expect(formatAddress(parseAddress("2001:db8:0:1:0:0:0:1")!)).toBe("2001:db8:0:1::1");
    expect(formatAddress(parseAddress("::ffff:1.2.3.4")!)).toBe("::ffff:102:304");
    expect(parseAddress("10.0.0.1")).toEqual({ family: 4, bytes: [10, 0, 0, 1] });
  });
});

describe("client domains", () => {
  it("accepts full names of two labels or more and domains with a leading dot", () => {
    for (const domain of ["www.example.com", "a.b.probe.test", ".probe.test", ".com", "Mail.Example.COM"]) expect(clientDomainProblem(domain), domain).toBeNull();
  });

  it("refuses single labels, empty labels, bad characters, a root dot and numeric tops", () => {
    expect(clientDomainProblem("www")).toMatch(/single label/);
    expect(clientDomainProblem(".")).toMatch(/empty/);
    expect(clientDomainProblem("www..example.com")).toMatch(/empty label/);
    expect(clientDomainProblem("www.exa_mple.com")).toMatch(/"exa_mple"/);
    expect(clientDomainProblem("-a.example.com")).toMatch(/"-a"/);
    expect(clientDomainProblem("www.example.com.")).toMatch(/root dot/);
    expect(clientDomainProblem("10.1.2.3")).toMatch(/numeric/);
    expect(clientDomainProblem(`${"a".repeat(64)}.com`)).toMatch(/at most 63/);
  });
});

describe("the subnet of a client's network", () => {
  it("is the IPv4 /24 or IPv6 /64 holding the address, with a gateway that is not the address", () => {
    expect(clientSubnet("10.77.1.5")).toEqual({ family: 4, subnet: "10.77.1.0/24", gateway: "10.77.1.1" });
    expect(clientSubnet("10.77.1.1")).toEqual({ family: 4, subnet: "10.77.1.0/24", gateway: "10.77.1.254" });
    expect(clientSubnet("2001:db8:77::5")).toEqual({ family: 6, subnet: "2001:db8:77::/64", gateway: "2001:db8:77::1" });
    expect(clientSubnet("2001:db8:77::1")).toEqual({ family: 6, subnet: "2001:db8:77::/64", gateway: "2001:db8:77::fffe" });
    expect(clientSubnet("2001:db8:77:0:ffff::9")).toMatchObject({ subnet: "2001:db8:77::/64" });
  });

  it("refuses an address no host of that subnet has", () => {
    expect(clientSubnet("10.77.1.0")).toEqual({ problem: "is the network address of 10.77.1.0/24, which no container can have" });
    expect(clientSubnet("10.77.1.255")).toEqual({ problem: "is the broadcast address of 10.77.1.0/24" });
    expect(clientSubnet("2001:db8:77::")).toMatchObject({ problem: expect.stringContaining("network address") });
  });

  it("is shared by addresses in one /24 or /64, and by any address with the engine's choice", () => {
    expect(sameSubnet("10.77.1.5", "10.77.1.200")).toBe(true);
    expect(sameSubnet("10.77.1.5", "10.77.2.5")).toBe(false);
    expect(sameSubnet("2001:db8::5", "2001:db8::1:5")).toBe(true);
    expect(sameSubnet("2001:db8::5", "10.0.0.5")).toBe(false);
    expect(sameSubnet(null, "10.0.0.5")).toBe(true);
  });

  it("overlaps what shares an address", () => {
    expect(subnetsOverlap("10.77.1.0/24", "10.77.0.0/16")).toBe(true);
    expect(subnetsOverlap("10.77.1.0/24", "10.77.2.0/24")).toBe(false);
    expect(subnetsOverlap("2001:db8:77::/64", "2001:db8::/32")).toBe(true);
    expect(subnetsOverlap("2001:db8:77::/64", "10.77.0.0/16")).toBe(false);
    expect(subnetsOverlap("172.17.0.0/16", "172.17.5.5")).toBe(true);
  });
});

describe("engineAssignedRange", () => {
  it("is the upper half of the subnet, clear of the low addresses clients ask for", () => {
    const range = (address: string): string => engineAssignedRange(clientSubnet(address) as ClientSubnet);
    expect(range("198.51.100.77")).toBe("198.51.100.128/25");
    expect(range("10.77.1.1")).toBe("10.77.1.128/25");
    expect(range("2001:db8:77::5")).toBe("2001:db8:77::8000/113");
  });
});
