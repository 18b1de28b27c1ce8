// `prove --probes-out FILE`: the probe set as a scenario file that loads back as the scenario format says, one
// request per probe (ports other than 80/443 left out and named), the clients at their addresses and names, and
// `world: probes`, so that the run stages the same probe world prove does.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { proofProbes } from "../../../../harness/judge/prove/proof-probes.ts";
import { loadTree } from "../../../../harness/conf/load-tree.ts";
import { probeScenarioFile } from "../../../../harness/plan/probes/probe-scenario-file.ts";
import { loadScenarios } from "../../../../harness/scenario/load-scenario.ts";

const CONFIGS = fileURLToPath(new URL("../../../../configs/", import.meta.url));

describe("probeScenarioFile", () => {
  it("writes a scenario file that loads back with every probe, client and credentials, asking for the probe world", async () => {
    const tree = await loadTree(`${CONFIGS}tool-status-alias`);
    const { set } = proofProbes(tree, tree, []);
    const dir = mkdtempSync(join(tmpdir(), "probes-out-"));
    const file = join(dir, "probes.scenario.yaml");
    writeFileSync(file, probeScenarioFile(set, { id: "prove-probes", title: "probes", tree: relative(dir, `${CONFIGS}tool-status-alias`), candidate: null, layout: null, defines: [] }));
    const [scenario] = await loadScenarios([file]);
    expect(scenario!.requests.map((r) => r.name)).toEqual(set.probes.map((p) => p.id));
    expect(scenario!.server.worldFromProbes).toBe(true);
    const valid = set.probes.find((p) => p.credentials === "valid")!;
    expect(scenario!.requests.find((r) => r.name === valid.id)!.auth).toEqual({ user: valid.user, password: set.world.users[0]!.password });
    expect(scenario!.clients).toContainEqual(expect.objectContaining({ name: "outsider", address: "198.51.100.77", domain: null }));
    const local = set.probes.find((p) => p.client === "localhost6")!;
    expect(scenario!.requests.find((r) => r.name === local.id)!.client).toBe("localhost6");
  });
});
