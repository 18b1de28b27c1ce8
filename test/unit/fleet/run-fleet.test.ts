// The fleet's bookkeeping is one pass over its configs: units for the shards (a tree and its copies, in
// first-seen order) and the copies of each original. 100,000 configs take well under a second (the quadratic
// versions took minutes). A config's probes come from its lint's views, and are prove's probes of the tree.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ConfigTree } from "../../../harness/conf/load-tree.ts";
import { loadUncheckedTree } from "../../../harness/conf/read-tree.ts";
import { configProbes, copiesByOriginal, unitsOf } from "../../../harness/fleet/run-fleet.ts";
import { proofProbes } from "../../../harness/judge/prove/proof-probes.ts";
import { RULES } from "../../../harness/rules/all-rules.ts";
import { lintTree } from "../../../harness/rules/lint-tree.ts";
import { defaultTargetModules, TARGET_PROFILES } from "../../../harness/rules/target-modules.ts";

const item = (id: string) => ({ config: { id } });

describe("unitsOf", () => {
  it("counts each unit's configs, in the order units are first seen", () => {
    expect(unitsOf(["b", "a", "b", "c", "b"])).toEqual([{ key: "b", configs: 3 }, { key: "a", configs: 1 }, { key: "c", configs: 1 }]);
  });

  it("is one pass: 100,000 configs of 50,000 units in well under a second", () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `k${i % 50_000}`);
    const started = performance.now();
    const units = unitsOf(keys);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(units.length).toBe(50_000);
    expect(units.every((u) => u.configs === 2)).toBe(true);
  });
});

describe("copiesByOriginal", () => {
  it("lists each original's copies among the items, in their order", () => {
    const [a, b, c, d] = ["a", "b", "c", "d"].map(item) as [ReturnType<typeof item>, ReturnType<typeof item>, ReturnType<typeof item>, ReturnType<typeof item>];
    const sameAs = new Map([["c", a], ["d", a], ["b", item("x")]]);
    const copies = copiesByOriginal([a, b, c, d], sameAs);
    expect(copies.get("a")).toEqual([c, d]);
    expect(copies.get("x")).toEqual([b]);
    expect(copies.has("c")).toBe(false);
  });

  it("is one pass: 100,000 configs, half of them copies, in well under a second", () => {
    const items = Array.from({ length: 100_000 }, (_, i) => item(`c${i}`));
    const sameAs = new Map(items.slice(50_000).map((copy, i) => [copy.config.id, items[i % 1000]!]));
    const started = performance.now();
    const copies = copiesByOriginal(items, sameAs);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(copies.size).toBe(1000);
    expect(copies.get("c0")!.length).toBe(50);
  });
});

describe("configProbes", () => {
  const CONFIGS = fileURLToPath(new URL("../../../configs/", import.meta.url));
  const samples = readdirSync(CONFIGS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const linted = (tree: ConfigTree, defines: string[], target = TARGET_PROFILES[defaultTargetModules(tree.layout)]) => lintTree(tree, { defines, target }, RULES).context;

  it.each(samples)("gives %s the probes prove generates for it, from its lint's views", async (sample) => {
    const tree = await loadUncheckedTree(join(CONFIGS, sample), null);
    const probes = configProbes(tree, [], linted(tree, []));
    expect(probes.probes.length).toBeGreaterThan(0);
    expect(probes).toEqual(proofProbes(tree, tree, []).set);
  });

  it("gives a fragment with a define the probes prove generates, and falls back to prove's own views for a lint of other modules or defines", async () => {
    const dir = mkdtempSync(join(tmpdir(), "config-probes-"));
    try {
      const site = join(dir, "site.conf");
      writeFileSync(site, ["<IfDefine STAGING>", "<Location /private>", "  Order deny,allow", "  Deny from all", "  Allow from 10.1.0.0/16", "</Location>", "</IfDefine>", "<VirtualHost *:80>", "  ServerName shop.example.test", "  Alias /files /srv/files", "</VirtualHost>", ""].join("\n"));
      const tree = await loadUncheckedTree(site, null);
      expect(tree.layout).toBe("fragment");
      const prove = proofProbes(tree, tree, ["STAGING"]).set;
      expect(configProbes(tree, ["STAGING"], linted(tree, ["STAGING"]))).toEqual(prove);
      // The define decides the probes (/private is probed only with it): a lint without it would have given others.
      expect(prove).not.toEqual(proofProbes(tree, tree, []).set);
      expect(configProbes(tree, ["STAGING"], linted(tree, ["STAGING"], TARGET_PROFILES.successors))).toEqual(prove);
      expect(configProbes(tree, ["STAGING"], null)).toEqual(prove);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
