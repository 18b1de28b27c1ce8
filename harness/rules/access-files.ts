// Per-directory files (.htaccess, or what AccessFileName names): 2.4 reads them at request time, so a line it
// does not know there is no start failure but a 500 for every request under that directory (the real servers
// logged "[core:alert] ... .htaccess: Invalid command 'X'" and answered 500). The invalid-command pass runs on
// each such file, read as a directory-context config with the modules the tree loads on 2.4; what 2.2 would
// have refused as well (a 500 on both) is left out. Rules whose detect face reads lines alone (perDirectory)
// run there too.
import { posix } from "node:path";
import type { EffectiveConfig } from "../conf/effective-config.ts";
import { evaluateTree } from "../conf/evaluate-tree.ts";
import { moduleFileOfId } from "../conf/module-identity.ts";
import { walkConfig } from "../conf/queries/walk-config.ts";
import { invalidCommands, type OwnedDetection } from "./invalid-commands.ts";
import { LINT_VERSIONS, type LintContext } from "./lint-context.ts";
import type { Detection, Rule } from "./rule.ts";

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

/** One access file read as a version reads it: directory context, with the modules the tree loads there. */
export function accessFileConfig(context: LintContext, path: string, family: "2.2" | "2.4" = "2.4"): EffectiveConfig {
  const view = family === "2.4" ? context.target : context.source;
  const loaded = family === "2.4" ? context.loaded.target : context.loaded.source;
  const builtinModules = [...loaded].map((id) => moduleFileOfId(id) ?? id);
  return evaluateTree(
    { source: context.tree.source, layout: context.tree.layout, mainFile: path, problems: [], ...(view.serverRoot ? { serverRoot: view.serverRoot } : {}) },
    { version: LINT_VERSIONS[family], defines: [], environment: view.environment, builtinModules },
  );
}

/** The findings of every access file: the invalid-command pass, and the detect faces of per-directory rules,
 * each as behaviour: 500 for the requests there on 2.4. */
export function accessFileDetections(context: LintContext, rules: readonly Rule[]): OwnedDetection[] {
  const found: OwnedDetection[] = [];
  for (const path of accessFilePaths(context)) {
    const view: LintContext = { ...context, source: accessFileConfig(context, path, "2.2"), target: accessFileConfig(context, path, "2.4") };
    const directory = posix.dirname(path);
    const where = `2.4 answers 500 for requests under ${directory === "." ? "this directory" : `${directory}/`} (it reads ${posix.basename(path)} per request; 2.2 accepted the line)`;
    const add = (rule: string, detection: Detection): void => {
      found.push({ rule, detection: { ...detection, severity: "behaviour", message: `${where}: ${detection.message.replace(/^2\.4 (refuses to start|fails at start-up): /, "")}` } });
    };
    for (const owned of invalidCommands(view, rules)) {
      const { node } = owned.detection;
      if (node.key === "loadmodule") continue;
      // 2.2 answers 500 for a line it does not know either: no difference to report.
      if (!context.directives["2.2"].modulesOf(node.key).some((id) => context.loaded.source.has(id))) continue;
      add(owned.rule, owned.detection);
    }
    for (const rule of rules) {
      if (rule.perDirectory !== true || rule.detect === undefined) continue;
      for (const detection of rule.detect(view)) add(rule.id, detection);
    }
  }
  return found;
}
