// `run --target-modules` on a fragment: the candidate loads, with -C, the modules the option names that its
// image's stock config does not; `successors` names the 2.4 successors of what the baseline image's own stock
// config loads (read from the recorded images' stock configs, not from a list), and each side records its
// stock and loaded module sets for the judge.
import { describe, expect, it } from "vitest";
import { planScenario } from "../../../../harness/plan/plan-scenario.ts";
import { BASELINE, CANDIDATE } from "../../../../harness/plan/side.ts";
import { treeScenario } from "../../../../harness/plan/tree/tree-scenario.ts";
import type { TreeRef } from "../../../../harness/scenario/scenario.ts";
import { stockModuleGap } from "../../../../harness/server/module-succession.ts";
import { recordedInspection } from "../../../fixtures/observations/recorded.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

const SNIPPET = "<Directory /srv/tool>\n  <IfModule mod_expires.c>\n    ExpiresActive On\n  </IfModule>\n</Directory>\n";
const tree = memoryTree({ "etc/tool/apache.conf": SNIPPET }, { layout: "fragment", mount: "/", mainFile: "etc/tool/apache.conf" });
const SIDES = [
  { side: BASELINE, inspection: recordedInspection("2.2") },
  { side: CANDIDATE, inspection: recordedInspection("2.4") },
];

function plan(targetModules?: TreeRef["targetModules"]) {
  const ref: TreeRef = { at: { file: "/t", line: 1, column: 1 }, path: "/t", layout: null, defines: [], writtenFor: "2.2" };
  const scenario = treeScenario({ id: "t", baseline: { tree, ref }, candidate: { tree, ref: targetModules ? { ...ref, targetModules } : ref } });
  const [baseline, candidate] = planScenario(scenario, SIDES, new Map([["/t", tree]])).sides;
  return { baseline: baseline!, candidate: candidate! };
}

describe("a fragment's module sets, and --target-modules", () => {
  it("records each image's stock modules; without the option the 2.4 side lacks what 2.2's stock loads", () => {
    const { baseline, candidate } = plan();
    expect(baseline.tree!.stockModules).toEqual(expect.arrayContaining(["expires_module", "cgi_module", "auth_digest_module", "info_module"]));
    expect(candidate.tree!.stockModules).not.toContain("expires_module");
    const gap = stockModuleGap(baseline.tree!.stockModules, new Set(candidate.tree!.loadedModules), "2.2", "2.4").map((g) => g.module);
    expect(gap).toEqual(expect.arrayContaining(["expires_module", "cgi_module", "auth_digest_module", "rewrite_module"]));
    // What a 2.4 successor already carries is no loss: authn_default's role is authn_core's, which 2.4 loads.
    expect(gap).not.toContain("authn_default_module");
  });

  it("successors: loads the 2.4 successor of every module of the baseline's stock config the candidate's lacks, listed as added", () => {
    const { baseline, candidate } = plan({ name: "successors", modules: "successors" });
    const added = candidate.tree!.adaptations.filter((a) => a.reason.startsWith("--target-modules successors"));
    expect(added.map((a) => a.now)).toEqual(expect.arrayContaining(["LoadModule expires_module /usr/local/apache2/modules/mod_expires.so", "LoadModule cache_disk_module /usr/local/apache2/modules/mod_cache_disk.so"]));
    expect(candidate.httpd.args).toContain("LoadModule expires_module /usr/local/apache2/modules/mod_expires.so");
    // What the image does not have cannot be loaded, and stays a cause: the recorded 2.4 image's module list (read
    // from its stock config's LoadModule lines) lacks mod_cgi.so, whose line sits indented in an <IfModule>.
    expect(candidate.tree!.loadedModules).not.toContain("cgi_module");
    expect(stockModuleGap(baseline.tree!.stockModules, new Set(candidate.tree!.loadedModules), "2.2", "2.4")).toEqual([{ module: "cgi_module", successors: ["cgi_module"] }]);
    // The baseline is not changed.
    expect(baseline.tree!.adaptations.filter((a) => a.reason.startsWith("--target-modules"))).toEqual([]);
  });

  it("a list (official, debian, rhel, a file's httpd -M): loads the ones the image has and its stock config does not", () => {
    const { candidate } = plan({ name: "mine.txt", modules: ["expires_module", "mime_module", "no_such_module"] });
    expect(candidate.tree!.adaptations.filter((a) => a.kind === "module-added" && a.reason.startsWith("--target-modules")).map((a) => a.now)).toEqual([
      "LoadModule expires_module /usr/local/apache2/modules/mod_expires.so",
    ]);
  });
});

describe("--target-modules successors without a 2.2 image", () => {
  it("takes the official 2.2.34 image's stock set (every module file it has), and says so", () => {
    const ref: TreeRef = { at: { file: "/t", line: 1, column: 1 }, path: "/t", layout: null, defines: [], writtenFor: "2.2" };
    const scenario = treeScenario({ id: "t", baseline: { tree, ref }, candidate: { tree, ref: { ...ref, targetModules: { name: "successors", modules: "successors" } } } });
    const [candidate] = planScenario(scenario, [SIDES[1]!], new Map([["/t", tree]])).sides;
    const added = candidate!.tree!.adaptations.filter((a) => a.reason.startsWith("--target-modules successors (of the official 2.2.34 image's stock modules"));
    expect(added.map((a) => a.now)).toContain("LoadModule expires_module /usr/local/apache2/modules/mod_expires.so");
  });
});
