import { describe, expect, it } from "vitest";
import { planClientNetworks } from "../../../harness/clients/client-networks.ts";
import { HarnessError } from "../../../harness/errors.ts";

const PREFIX = "harness-run-1-abcd1234";
const client = (name: string, address: string | null = null, domain: string | null = null) => ({ name, address, domain });

function refusal(run: () => unknown): HarnessError {
  try {
    run();
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error("expected a HarnessError");
}

describe("planClientNetworks", () => {
  it("leaves clients with neither address nor domain on the scenario network", () => {
    expect(planClientNetworks([client("a"), client("b")], PREFIX)).toEqual([]);
  });

  it("gives one network per subnet, shared by the clients in it, with the subnet and a gateway that is no client's", () => {
    const plan = planClientNetworks([client("a", "10.77.1.5"), client("b", "10.77.1.1"), client("c", "10.77.2.5"), client("d", "2001:db8:77::5")], PREFIX);
    expect(plan.map((n) => ({ name: n.name, subnet: n.subnet, clients: n.clients.map((c) => c.name), global: n.global }))).toEqual([
      { name: `${PREFIX}-n0`, subnet: { family: 4, subnet: "10.77.1.0/24", gateway: "10.77.1.1" }, clients: ["a", "b"], global: false },
      { name: `${PREFIX}-n1`, subnet: { family: 4, subnet: "10.77.2.0/24", gateway: "10.77.2.1" }, clients: ["c"], global: false },
      { name: `${PREFIX}-n2`, subnet: { family: 6, subnet: "2001:db8:77::/64", gateway: "2001:db8:77::1" }, clients: ["d"], global: false },
    ]);
    expect(plan[0]!.subject).toBe("client a at 10.77.1.5, client b at 10.77.1.1");
  });

  it("lets scenarios share a network of addresses only, never one that gives names", () => {
    expect(planClientNetworks([client("a", "10.77.1.5"), client("d", "2001:db8:77::5")], PREFIX).map((n) => n.shareable)).toEqual([true, true]);
    expect(planClientNetworks([client("a", "10.77.1.5"), client("b", "10.77.1.6", ".probe.test")], PREFIX).map((n) => n.shareable)).toEqual([false]);
    expect(planClientNetworks([client("partner", null, ".probe.test")], PREFIX).map((n) => n.shareable)).toEqual([false]);
    // Where the engine places servers on a shared network: such a client gets a network of its own.
    expect(planClientNetworks([client("a", "10.77.1.5"), client("b", "10.77.1.200")], PREFIX).map((n) => n.shareable)).toEqual([false]);
    expect(planClientNetworks([client("d", "2001:db8:77::8001")], PREFIX).map((n) => n.shareable)).toEqual([false]);
  });

  it("names a network so that <container>.<network> ends in a client's domain, or is its full name", () => {
    const plan = planClientNetworks([client("partner", null, ".probe.test"), client("www", "10.77.2.9", "www.example.com"), client("mail", null, "mail.example.com")], PREFIX);
    expect(plan).toEqual([
      { name: `${PREFIX}-n0.probe.test`, subnet: null, global: false, shareable: false, clients: [{ name: "partner", address: null, containerName: null }], subject: "client partner as .probe.test" },
      {
        name: "example.com",
        subnet: { family: 4, subnet: "10.77.2.0/24", gateway: "10.77.2.1" },
        global: true,
        shareable: false,
        clients: [
          { name: "www", address: "10.77.2.9", containerName: "www" },
          { name: "mail", address: null, containerName: "mail" },
        ],
        subject: "client www at 10.77.2.9 as www.example.com, client mail as mail.example.com",
      },
    ]);
  });

  it("lets domains share a subnet's network when one ends in the other", () => {
    const plan = planClientNetworks([client("a", "10.1.1.4", ".test"), client("b", "10.1.1.5", ".probe.test"), client("c", "10.1.1.6", "x.probe.test")], PREFIX);
    expect(plan.map((n) => n.name)).toEqual(["probe.test"]);
    expect(planClientNetworks([client("a", "10.1.1.4", ".test"), client("b", "10.1.1.5", ".probe.test")], PREFIX).map((n) => n.name)).toEqual([`${PREFIX}-n0.probe.test`]);
  });

  it("refuses, as HARNESS_CLIENT_ADDRESS naming the clients, what one network cannot be", () => {
    const apart = refusal(() => planClientNetworks([client("a", "10.1.1.4", ".a.test"), client("b", "10.1.1.5", ".b.test")], PREFIX));
    expect(apart.code).toBe("HARNESS_CLIENT_ADDRESS");
    expect(apart.message).toBe("Cannot give client a at 10.1.1.4 as .a.test, client b at 10.1.1.5 as .b.test: one subnet is one network, whose names cannot end in both .a.test and .b.test.");
    const parents = refusal(() => planClientNetworks([client("a", "10.1.1.4", "www.a.test"), client("b", "10.1.1.5", "www.b.test")], PREFIX));
    expect(parents.message).toContain("cannot be named both a.test and b.test");
    const unmet = refusal(() => planClientNetworks([client("a", "10.1.1.4", "www.a.test"), client("b", "10.1.1.5", ".b.test")], PREFIX));
    expect(unmet.message).toContain("named a.test, whose names do not end in .b.test");
    const network = refusal(() => planClientNetworks([client("a", "10.1.1.0")], PREFIX));
    expect(network.message).toBe("Cannot give client a at 10.1.1.0: 10.1.1.0 is the network address of 10.1.1.0/24, which no container can have.");
  });
});
