import { describe, expect, it } from "vitest";
import { type FleetManifest, inputsHash, manifestDifferences } from "../../../harness/fleet/manifest.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";
import { fleetFixture, manifestOf, OPTIONS } from "./fleet-blobs.ts";

const fixture = fleetFixture(sampleReport.scenarios, 3);
const shard1 = manifestOf(fixture, 1);
const other = (change: (manifest: FleetManifest) => void): FleetManifest => manifestOf(fixture, 1, change);

describe("manifestDifferences", () => {
  it("finds nothing between the manifests of one run's shards, which differ only in their index", () => {
    expect(manifestDifferences(shard1, manifestOf(fixture, 1))).toEqual([]);
    expect(manifestDifferences(shard1, manifestOf(fixture, 3))).toEqual([]);
  });

  it("names each field that differs, with both values", () => {
    const hash = "f".repeat(64);
    expect(manifestDifferences(shard1, other((m) => (m.formatVersion = 2)))).toEqual([`blob format (httpd-upgrade-harness/fleet-blob 1 / httpd-upgrade-harness/fleet-blob 2)`]);
    expect(manifestDifferences(shard1, other((m) => (m.tool = "0.2.0")))).toEqual(["tool version (0.1.0 / 0.2.0)"]);
    expect(manifestDifferences(shard1, other((m) => (m.inputsHash = hash)))).toEqual([`inputs (configs or options; hash ${shard1.inputsHash.slice(0, 12)} / ffffffffffff)`]);
    expect(manifestDifferences(shard1, other((m) => (m.images.candidates = ["httpd:2.4.68"])))).toEqual([
      "images (httpd:2.2.34, httpd-upgrade-harness/httpd-2.4:2.4.62 / httpd:2.2.34, httpd:2.4.68)",
    ]);
    expect(manifestDifferences(shard1, other((m) => (m.shard.count = 4)))).toEqual(["shard count (3 / 4)"]);
    expect(manifestDifferences(shard1, other((m) => (m.shard.assignment = "durations")))).toEqual(["the assignment of configs to shards"]);
    expect(manifestDifferences(shard1, other((m) => (m.configs[0]!.shard = 2)))).toEqual(["the assignment of configs to shards"]);
  });

  it("names every field that differs at once", () => {
    const changed = other((m) => {
      m.tool = "0.2.0";
      m.images.baseline = "httpd:2.2.31";
      m.shard.count = 2;
    });
    expect(manifestDifferences(shard1, changed)).toEqual(["tool version (0.1.0 / 0.2.0)", "images (httpd:2.2.34, httpd-upgrade-harness/httpd-2.4:2.4.62 / httpd:2.2.31, httpd-upgrade-harness/httpd-2.4:2.4.62)", "shard count (3 / 2)"]);
  });
});

describe("inputsHash", () => {
  const configs = [
    { label: "fleet/a", fingerprint: "fp-a", layout: null, defines: [], ignore: null },
    { label: "fleet/b", fingerprint: "fp-b", layout: "debian", defines: ["SSL"], ignore: "abc" },
  ];

  it("is the same for the same configs and options, and changes with any of them", () => {
    const hash = inputsHash(configs, OPTIONS);
    expect(inputsHash(structuredClone(configs), { ...OPTIONS })).toBe(hash);
    const changed = [
      inputsHash([configs[1]!, configs[0]!], OPTIONS),
      inputsHash([{ ...configs[0]!, fingerprint: "fp-x" }, configs[1]!], OPTIONS),
      inputsHash([configs[0]!, { ...configs[1]!, defines: [] }], OPTIONS),
      inputsHash([configs[0]!, { ...configs[1]!, layout: null }], OPTIONS),
      inputsHash([configs[0]!, { ...configs[1]!, ignore: null }], OPTIONS),
      inputsHash(configs, { ...OPTIONS, requests: "smoke" }),
      inputsHash(configs, { ...OPTIONS, maxProbes: 50 }),
      inputsHash(configs, { ...OPTIONS, ignore: "def" }),
    ];
    expect(new Set([hash, ...changed]).size).toBe(changed.length + 1);
  });
});
