import { createHash } from "node:crypto";
import { HarnessError, isHarnessError } from "../errors.ts";
import { resourceLabels } from "./labels.ts";
import { log } from "./log.ts";
import type { RunScope } from "./run-scope.ts";

export interface HarnessNetwork {
  id: string;
  name: string;
  subnet: string;
  /** The address the servers see for requests that come from the host through a published port. */
  gateway: string;
}

/** A user-defined bridge network for one scenario: its containers find each other by name (Docker's DNS, which
 * also answers reverse lookups for them), and nothing else is on it. */
export async function createScenarioNetwork(scope: RunScope, scenario: string): Promise<HarnessNetwork> {
  // Readable, and unique whatever the ids' length: two ids sharing a long prefix once got one name.
  const key = createHash("sha256").update(scenario).digest("hex").slice(0, 8);
  const name = `harness-${scope.runId}-${scenario.slice(0, 24)}-${key}`.replace(/[^a-zA-Z0-9_.-]/g, "-");
  try {
    const network = await scope.engine.docker.createNetwork({
      Name: name,
      Driver: "bridge",
      CheckDuplicate: true,
      Labels: resourceLabels(scope.runId, "client", scenario),
    });
    await scope.trackNetwork(network.id);
    const info = await network.inspect();
    const config = info.IPAM?.Config?.[0] ?? {};
    log("network %s %s gw %s", name, config.Subnet, config.Gateway);
    return { id: network.id, name, subnet: config.Subnet ?? "", gateway: config.Gateway ?? "" };
  } catch (cause) {
    if (isHarnessError(cause)) throw cause;
    throw new HarnessError("HARNESS_CONTAINER", `Could not create the scenario network ${name}.`, { cause });
  }
}
