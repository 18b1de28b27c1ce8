import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fleetSarif, fleetSarifChunks } from "../../../harness/fleet/fleet-sarif.ts";
import { groupByCause } from "../../../harness/rules/lint-outcome.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";
import { fleetFixture, sampleLint } from "./fleet-blobs.ts";

const REPO = fileURLToPath(new URL("../../../", import.meta.url)).replace(/\/$/, "");

interface SarifResult {
  ruleId: string;
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number } } }>;
}

describe("fleetSarif", () => {
  it("is one run holding every linted config's findings at their files in the working directory; configs without lint add nothing", async () => {
    const balancer = await sampleLint("rhel-balancer", "configs/rhel-balancer");
    const htaccess = await sampleLint("app-htaccess", "configs/app-htaccess");
    const entries = fleetFixture(sampleReport.scenarios.slice(0, 3), 1, { lint: new Map([[0, balancer], [2, htaccess]]) }).entries;
    const sarif = fleetSarif(entries, { toolVersion: "0.1.0", cwd: REPO }) as { runs: Array<{ tool: { driver: { version: string } }; results: SarifResult[] }> };
    expect(sarif.runs).toHaveLength(1);
    expect(sarif.runs[0]!.tool.driver.version).toBe("0.1.0");
    const results = sarif.runs[0]!.results;
    // A result per cause of each config (as lint groups them), a location per place.
    const causes = (lint: typeof balancer) => groupByCause(lint.tree.path, lint.findings).length;
    expect(results).toHaveLength(causes(balancer) + causes(htaccess));
    expect(results.length).toBeLessThan(balancer.findings.length + htaccess.findings.length);
    const located = results.flatMap((r) => r.locations.map((l) => `${r.ruleId} ${l.physicalLocation.artifactLocation.uri}:${l.physicalLocation.region.startLine}`));
    const expected = [
      ...balancer.findings.map((f) => `${f.rule} configs/rhel-balancer/${f.file}:${f.line}`),
      ...htaccess.findings.map((f) => `${f.rule} configs/app-htaccess/${f.file}:${f.line}`),
    ];
    expect([...located].sort()).toEqual([...expected].sort());
    expect(results.every((r) => r.locations.every((l) => l.physicalLocation.artifactLocation.uriBaseId === "%SRCROOT%"))).toBe(true);
  });

  it("is a run without results for a fleet without lint (every tree unreadable)", () => {
    const sarif = fleetSarif(fleetFixture(sampleReport.scenarios.slice(0, 2), 1).entries, { toolVersion: "0.1.0", cwd: REPO }) as { runs: Array<{ results: unknown[] }> };
    expect(sarif.runs[0]!.results).toEqual([]);
  });
});

describe("fleetSarifChunks", () => {
  it("is fleetSarif's text byte for byte, for trees inside and outside the working directory, a rule run elsewhere, and none", async () => {
    const balancer = await sampleLint("rhel-balancer", "configs/rhel-balancer");
    const debian = await sampleLint("debian-ssl", "configs/debian-ssl");
    const elsewhere = { ...debian, findings: debian.findings.map((f, i) => (i === 0 ? { ...f, rule: "X1" } : f)) };
    const entries = fleetFixture(sampleReport.scenarios.slice(0, 4), 1, { lint: new Map([[0, balancer], [1, elsewhere], [3, balancer]]) }).entries;
    for (const [list, cwd] of [[entries, REPO], [entries, "/elsewhere"], [[], REPO], [entries.map((e) => ({ ...e, lint: null })), REPO]] as const) {
      const options = { toolVersion: "0.1.0", cwd };
      expect([...fleetSarifChunks(() => list, options)].join("")).toBe(`${JSON.stringify(fleetSarif(list, options), null, 2)}\n`);
    }
  });
});
