// Per-directory files (.htaccess, or what AccessFileName names): 2.4 reads them at request time, so a line it
// does not know there is no start failure but a 500 for every request under that directory (the real servers
// logged "[core:alert] ... .htaccess: Invalid command 'X'" and answered 500). The invalid-command pass runs on
// each such file, read as a directory-context config with the modules the tree loads on 2.4; what 2.2 would
// have refused as well (a 500 on both) is left out.
import { posix } from "node:path";
import type { EffectiveConfig } from "../conf/effective-config.ts";
import { evaluateTree } from "../conf/evaluate-tree.ts";
import { moduleFileOfId } from "../conf/module-identity.ts";
import { walkConfig } from "../conf/queries/walk-config.ts";
import { invalidCommands, type OwnedDetection } from "./invalid-commands.ts";
import { LINT_VERSIONS, type LintContext } from "./lint-context.ts";
import type { Rule } from "./rule.ts";

const DEFAULT_ACCESS_FILE = ".htaccess";

/** The names AccessFileName gives on the 2.4 target view (every one written), or the default. */
export function accessFileNames(context: LintContext): string[] {
  const names = (walkConfig(context.target).byKey.get("accessfilename") ?? []).flatMap((entry) => entry.directive.args);
  return names.length > 0 ? [...new Set(names)] : [DEFAULT_ACCESS_FILE];
}

/** Every file of the tree named like an access file, in path order. The simplest reading of "the directories
 * the tree serves": a document root inside the tree is searched whole; one outside it is not in the input. */
export function accessFilePaths(context: LintContext): string[] {
  const names = new Set(accessFileNames(context));
  const config = new Set([...context.source.files, ...context.target.files]);
  return [...context.tree.source.files.keys()].filter((path) => names.has(posix.basename(path)) && !config.has(path)).sort();
}

/** One access file read as 2.4 reads it: directory context, with the modules the tree loads on the target. */
export function accessFileConfig(context: LintContext, path: string): EffectiveConfig {
  const builtinModules = [...context.loaded.target].map((id) => moduleFileOfId(id) ?? id);
  return evaluateTree(
    { source: context.tree.source, layout: context.tree.layout, mainFile: path, problems: [], ...(context.target.serverRoot ? { serverRoot: context.target.serverRoot } : {}) },
    { version: LINT_VERSIONS["2.4"], defines: [], environment: context.target.environment, builtinModules },
  );
}

/** The invalid-command findings of every access file, as behaviour: 500 for the requests there on 2.4. */
export function accessFileDetections(context: LintContext, rules: readonly Rule[]): OwnedDetection[] {
  const found: OwnedDetection[] = [];
  for (const path of accessFilePaths(context)) {
    const config = accessFileConfig(context, path);
    const directory = posix.dirname(path);
    for (const owned of invalidCommands({ ...context, target: config }, rules)) {
      const { node } = owned.detection;
      if (node.key === "loadmodule") continue;
      // 2.2 answers 500 for a line it does not know either: no difference to report.
      if (!context.directives["2.2"].modulesOf(node.key).some((id) => context.loaded.source.has(id))) continue;
      const reason = owned.detection.message.replace(/^2\.4 refuses to start: /, "");
      found.push({
        rule: owned.rule,
        detection: {
          ...owned.detection,
          severity: "behaviour",
          message: `2.4 answers 500 for requests under ${directory === "." ? "this directory" : `${directory}/`} (it reads ${posix.basename(path)} per request; 2.2 accepted the line): ${reason}`,
        },
      });
    }
  }
  return found;
}
