import { describe, expect, it } from "vitest";
import type { TreeRef } from "../../../../harness/scenario/scenario.ts";
import { treeScenario } from "../../../../harness/plan/tree/tree-scenario.ts";
import { planTreeSide } from "../../../../harness/plan/tree/plan-tree-side.ts";
import { CANDIDATE } from "../../../../harness/plan/side.ts";
import { officialDefaults } from "../../../../harness/server/official-defaults.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

describe("planTreeSide", () => {
  it("stages a file read through a link at the link's path with the edits made for it, as httpd opens the link", () => {
    const tree = memoryTree(
      {
        "apache2.conf": "Include mods-enabled/*.load\n",
        "mods-available/rewrite.load": "LoadModule rewrite_module /usr/lib/apache2/modules/mod_rewrite.so\n",
      },
      { layout: "debian", mount: "/etc/apache2", mainFile: "apache2.conf", serverRoot: "/etc/apache2", links: { "mods-enabled/rewrite.load": "mods-available/rewrite.load" } },
    );
    const ref: TreeRef = { at: { file: "t", line: 1, column: 1 }, path: "/t", layout: null, defines: [], writtenFor: "2.4" };
    const scenario = treeScenario({ id: "t", baseline: { tree, ref }, candidate: { tree, ref } });
    const inspection = officialDefaults("httpd:2.4.68", httpdVersion("2.4.68"));
    const side = planTreeSide(scenario, { side: CANDIDATE, inspection, ref, tree });
    expect(side.tree?.files).toEqual(["apache2.conf", "mods-enabled/rewrite.load"]);
    expect(side.tree?.adaptations.filter((a) => a.file !== null).map((a) => [a.kind, a.file, a.line])).toEqual([["module-path", "mods-enabled/rewrite.load", 1]]);
    const text = (path: string) => {
      const file = side.files.find((f) => f.path === path);
      return file && "text" in file.content ? file.content.text : null;
    };
    expect(text("/etc/apache2/mods-enabled/rewrite.load")).toBe("LoadModule rewrite_module /usr/local/apache2/modules/mod_rewrite.so\n");
    // The target itself is not what httpd reads here: it stays as the operator wrote it.
    expect(text("/etc/apache2/mods-available/rewrite.load")).toBe("LoadModule rewrite_module /usr/lib/apache2/modules/mod_rewrite.so\n");
  });
});

describe("planTreeSide with a link to a directory", () => {
  it("stages the files below it at the link's path, with the edits made for the path httpd reads", () => {
    const tree = memoryTree(
      {
        "apache2.conf": "Include conf-enabled/*.conf\n",
        "conf-available/rewrite.conf": "LoadModule rewrite_module /usr/lib/apache2/modules/mod_rewrite.so\n",
      },
      { layout: "debian", mount: "/etc/apache2", mainFile: "apache2.conf", serverRoot: "/etc/apache2", links: { "conf-enabled": "conf-available" } },
    );
    const ref: TreeRef = { at: { file: "t", line: 1, column: 1 }, path: "/t", layout: null, defines: [], writtenFor: "2.4" };
    const scenario = treeScenario({ id: "t", baseline: { tree, ref }, candidate: { tree, ref } });
    const side = planTreeSide(scenario, { side: CANDIDATE, inspection: officialDefaults("httpd:2.4.68", httpdVersion("2.4.68")), ref, tree });
    expect(side.tree?.files).toEqual(["apache2.conf", "conf-enabled/rewrite.conf"]);
    const staged = side.files.find((f) => f.path === "/etc/apache2/conf-enabled/rewrite.conf");
    expect(staged && "text" in staged.content ? staged.content.text : null).toBe("LoadModule rewrite_module /usr/local/apache2/modules/mod_rewrite.so\n");
  });
});
