import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fleetConfigs } from "../../../harness/cli/fleet-inputs.ts";
import { tempDir } from "../fleet/fleet-blobs.ts";
import { refusal } from "../../helpers/refusal.ts";

const MAIN = "ServerRoot /usr/local/apache2\nListen 80\n";

/** A fleet directory with a tree at each of `trees` and, when given, its fleet.yaml. */
function fleetDir(trees: readonly string[], fleetYaml?: string): string {
  const root = tempDir("fleet-inputs-");
  for (const tree of trees) {
    mkdirSync(join(root, tree), { recursive: true });
    writeFileSync(join(root, tree, "httpd.conf"), MAIN);
  }
  if (fleetYaml !== undefined) writeFileSync(join(root, "fleet.yaml"), fleetYaml);
  return root;
}

const OPTIONS = { layout: null, defines: [], exclude: [] };

describe("fleetConfigs", () => {
  it("discovers the trees of a directory with the command line's layout and defines, ids from their labels", async () => {
    const root = fleetDir(["sites/web", "sites/db"]);
    expect(await fleetConfigs(["sites"], { cwd: root, layout: "official", defines: ["SSL"], exclude: ["sites/db"] })).toEqual({
      configs: [{ id: "web", label: "sites/web", path: join(root, "sites/web"), layout: "official", defines: ["SSL"], ignoreFile: null }],
      passed: [{ label: "sites/db", reason: "excluded by a glob (fleet.yaml exclude or --exclude)" }],
    });
  });

  it("takes a fleet.yaml's entries with their own layout, defines, ignore file and name, in the file's order", async () => {
    const root = fleetDir(
      ["web-01", "sites/b", "sites/a"],
      ["configs:", "  - path: web-01", "    name: front", "    defines: [PHP]", "    ignore: front-ignore.yaml", "  - discover: sites", "    layout: rhel", ""].join("\n"),
    );
    const { configs } = await fleetConfigs([root], { cwd: root, layout: "official", defines: ["SSL"], exclude: [] });
    expect(configs).toEqual([
      { id: "front", label: "web-01", path: join(root, "web-01"), layout: "official", defines: ["PHP"], ignoreFile: join(root, "front-ignore.yaml") },
      { id: "sites-a", label: "sites/a", path: join(root, "sites/a"), layout: "rhel", defines: ["SSL"], ignoreFile: null },
      { id: "sites-b", label: "sites/b", path: join(root, "sites/b"), layout: "rhel", defines: ["SSL"], ignoreFile: null },
    ]);
  });

  it("takes a config named twice once, as the first names it", async () => {
    const root = fleetDir(["sites/web"], "configs:\n  - path: sites/web\n    name: web-main\n  - discover: sites\n");
    const { configs } = await fleetConfigs([root, join(root, "sites")], { cwd: root, ...OPTIONS });
    expect(configs.map((c) => [c.id, c.label])).toEqual([["web-main", "sites/web"]]);
  });

  it("gives every config an id of its own when a name given in fleet.yaml is also an id made from a label", async () => {
    const root = fleetDir(["fleet/a", "fleet/web", "fleet/web-config"], "configs:\n  - path: fleet/a\n    name: web\n  - path: fleet/web\n  - path: fleet/web-config\n");
    const ids = (await fleetConfigs([root], { cwd: root, ...OPTIONS })).configs.map((c) => c.id);
    // fleet/web's made id "web" is taken by the name, and "web-config" is fleet/web-config's.
    expect(ids).toEqual(["web", "web-config-2", "web-config"]);
  });

  it("refuses two entries of a fleet.yaml with the same name, at the second", async () => {
    const root = fleetDir(["a", "b"], "configs:\n  - path: a\n    name: web\n  - path: b\n    name: web\n");
    const error = await refusal(fleetConfigs([root], { cwd: root, ...OPTIONS }));
    expect(error.code).toBe("HARNESS_FLEET_FILE");
    expect(error.position).toEqual({ file: join(root, "fleet.yaml"), line: 4, column: 5 });
    expect(error.message).toContain('name "web"');
  });
});
