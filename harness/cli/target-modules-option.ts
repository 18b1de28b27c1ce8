// `run --target-modules` and `fleet --target-modules`: lint's option, with the same values and meaning (the 2.4
// installation the trees are read for: official, debian, rhel, successors, or a FILE with its `httpd -M`), which a
// run also applies to the candidate: around a fragment it loads that installation's modules besides what the
// image's stock httpd.conf loads. `successors` loads the 2.4 successor of every module the baseline image's own
// stock config loads (read from the image), for operators whose distribution keeps 2.2's module set; the stock
// module causes (rules/stock-module-not-loaded.ts) then disappear and the remaining differences show.
import { TARGET_PROFILES, targetModules, type TargetModules } from "../rules/target-modules.ts";
import type { TreeRef } from "../scenario/scenario.ts";

export interface RunTargetModules {
  /** What lint reads the run's trees for (triage ties differences to its findings). */
  lint: TargetModules;
  /** What the candidate loads around a fragment. */
  candidate: NonNullable<TreeRef["targetModules"]>;
}

/** Null without the option: each tree is linted for its layout's own installation and runs on the image's stock. */
export async function runTargetModules(value: string | undefined): Promise<RunTargetModules | null> {
  if (value === undefined) return null;
  if (value === "successors") return { lint: TARGET_PROFILES.successors, candidate: { name: value, modules: "successors" } };
  const lint = await targetModules(value);
  return { lint, candidate: { name: lint.name, modules: lint.stock } };
}
