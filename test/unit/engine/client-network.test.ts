// createClientNetwork against a fake engine: what it asks for, and what a refusal becomes.
import { describe, expect, it } from "vitest";
import { LABEL_RUN_ID } from "../../../harness/engine/labels.ts";
import { createClientNetwork } from "../../../harness/engine/network.ts";
import type { RunScope } from "../../../harness/engine/run-scope.ts";
import { HarnessError } from "../../../harness/errors.ts";

interface FakeNetwork {
  Name: string;
  Created: string;
  Labels?: Record<string, string>;
  IPAM?: { Config?: Array<{ Subnet?: string }> };
}

/** An engine that refuses the first `refusals.length` creates with those messages, then accepts. */
function fakeScope(refusals: string[], networks: FakeNetwork[] = []) {
  const created: Array<Record<string, unknown>> = [];
  const docker = {
    async createNetwork(options: Record<string, unknown>) {
      const refusal = refusals.shift();
      if (refusal !== undefined) throw new Error(refusal);
      created.push(options);
      const config = (options.IPAM as { Config?: unknown[] } | undefined)?.Config ?? [{ Subnet: "172.30.0.0/16", Gateway: "172.30.0.1" }];
      return { id: `id-${created.length}`, inspect: async () => ({ IPAM: { Config: config } }) };
    },
    listNetworks: async () => networks,
    listVolumes: async () => ({ Volumes: [] }),
    listContainers: async () => [],
    info: async () => ({ SystemTime: new Date().toISOString() }),
  };
  const scope = { runId: "run-test", engine: { docker }, trackNetwork: async () => undefined } as unknown as RunScope;
  return { scope, created };
}

const SUBNET = { family: 6 as const, subnet: "2001:db8:77::/64", gateway: "2001:db8:77::1" };

async function refusal(promise: Promise<unknown>): Promise<HarnessError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error("expected a HarnessError");
}

describe("createClientNetwork", () => {
  it("asks for the subnet and its gateway, with IPv6 on for an IPv6 subnet, labelled as the run's", async () => {
    const { scope, created } = fakeScope([]);
    const network = await createClientNetwork(scope, { name: "harness-run-test-x-n0", scenario: "s", subnet: SUBNET, subject: "client v6 at 2001:db8:77::5" });
    expect(network).toEqual({ id: "id-1", name: "harness-run-test-x-n0", subnet: "2001:db8:77::/64", gateway: "2001:db8:77::1" });
    expect(created[0]).toMatchObject({ EnableIPv6: true, IPAM: { Config: [{ Subnet: "2001:db8:77::/64", Gateway: "2001:db8:77::1" }] }, Labels: { [LABEL_RUN_ID]: "run-test" } });
  });

  it("turns an engine without IPv6 into HARNESS_CLIENT_ADDRESS naming the client, the address and the engine's reason", async () => {
    const { scope } = fakeScope(["(HTTP code 400) unexpected - could not find an available, non-overlapping IPv6 address pool"]);
    const error = await refusal(createClientNetwork(scope, { name: "n", scenario: "s", subnet: SUBNET, subject: "client v6 at 2001:db8:77::5" }));
    expect(error.code).toBe("HARNESS_CLIENT_ADDRESS");
    expect(error.message).toBe(
      "Cannot give client v6 at 2001:db8:77::5 (network n, subnet 2001:db8:77::/64): the engine refused it: could not find an available, non-overlapping IPv6 address pool",
    );
  });

  it("tries again when the network the engine says clashes is gone by the time it is looked for (Docker 28's wording)", async () => {
    const { scope, created } = fakeScope(["(HTTP code 403) unexpected - cannot create network 3c0a (br-3c0a): conflicts with network 47a2 (br-47a2): networks have overlapping IPv4"]);
    const subnet = { family: 4 as const, subnet: "198.51.100.0/24", gateway: "198.51.100.1" };
    const network = await createClientNetwork(scope, { name: "n", scenario: "s", subnet, subject: "client outsider at 198.51.100.77" });
    expect(network.subnet).toBe("198.51.100.0/24");
    expect(created).toHaveLength(1);
  });

  it("names a network of someone else's whose subnet overlaps", async () => {
    const foreign = { Name: "office-lan", Created: new Date().toISOString(), Labels: {}, IPAM: { Config: [{ Subnet: "10.77.0.0/16" }] } };
    const { scope } = fakeScope(["Pool overlaps with other one on this address space"], [foreign]);
    const subnet = { family: 4 as const, subnet: "10.77.1.0/24", gateway: "10.77.1.1" };
    const error = await refusal(createClientNetwork(scope, { name: "n", scenario: "s", subnet, subject: "client office at 10.77.1.5" }));
    expect(error.message).toContain("the engine's network office-lan, not the harness's, has an overlapping subnet (10.77.0.0/16)");
  });

  it("waits for a live harness run holding the name, then creates it", async () => {
    const holder = { Name: "example.com", Created: new Date().toISOString(), Labels: { [LABEL_RUN_ID]: "run-other" } };
    const { scope, created } = fakeScope(["network with name example.com already exists", "network with name example.com already exists"], [holder]);
    const network = await createClientNetwork(scope, { name: "example.com", scenario: "s", subnet: null, subject: "client www as www.example.com" });
    expect(network.name).toBe("example.com");
    expect(created).toHaveLength(1);
  });
});
