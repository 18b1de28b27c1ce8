// What a rule's detect face reads: the operator's tree as it runs today (evaluated for 2.2) and as it would
// run unchanged on the 2.4 target (evaluated for 2.4 with the target's modules), the directive tables of both
// lines, and the test that tells a dual-syntax config's 2.2 branch.
import type { EffectiveConfig, EvaluateOptions, Guard } from "../conf/effective-config.ts";
import { evaluateTree } from "../conf/evaluate-tree.ts";
import { testIfVersion } from "../conf/if-version.ts";
import type { ConfigTree } from "../conf/load-tree.ts";
import { moduleFileOfId, moduleIdOfFile } from "../conf/module-identity.ts";
import { walkConfig } from "../conf/queries/walk-config.ts";
import { httpdVersion, type Family, type HttpdVersion } from "../versions/httpd-version.ts";
import { DIRECTIVES, type DirectiveKnowledge } from "./directive-knowledge.ts";
import { OFFICIAL_STOCK_22, type TargetModules } from "./target-modules.ts";

/** The releases lint reads a tree for: the official 2.2 image's, and the 2.4 release the directive tables
 * were recorded from. */
export const LINT_VERSIONS: Readonly<Record<Family, HttpdVersion>> = { "2.2": httpdVersion("2.2.34"), "2.4": httpdVersion("2.4.62") };

// `httpd -l` of the 2.2 builds a tree of each layout ran on (prefork built in; Debian's also log_config, logio).
const SOURCE_COMPILED_IN: Readonly<Record<string, readonly string[]>> = {
  debian: ["core.c", "mod_log_config.c", "mod_logio.c", "prefork.c", "http_core.c", "mod_so.c"],
  default: ["core.c", "prefork.c", "http_core.c", "mod_so.c"],
};

// The official 2.2.34 image's stock httpd.conf loads every module it has (target-modules.ts): a fragment included
// into it could use any of them.
const SOURCE_STOCK_22 = OFFICIAL_STOCK_22.map((id) => moduleFileOfId(id) ?? `mod_${id.replace(/_module$/, "")}.c`);

export interface LintContext {
  /** The tree itself, for what the evaluated views do not hold: per-directory files, lines the model refused. */
  tree: ConfigTree;
  /** The tree as it runs today, on 2.2. */
  source: EffectiveConfig;
  /** The same tree, unchanged, on the 2.4 target: a 2.2 branch of `<IfModule !mod_authz_core.c>` may be in it. */
  target: EffectiveConfig;
  targetModules: TargetModules;
  /** Module ids loaded on each side (compiled in, the target's stock ones around a fragment, LoadModule). */
  loaded: { source: ReadonlySet<string>; target: ReadonlySet<string> };
  directives: Readonly<Record<Family, DirectiveKnowledge>>;
  /** Whether a guard chain puts a line in the 2.2 branch of a dual-syntax config: `<IfVersion < 2.3>`, or
   * `<IfModule !mod_authz_core.c>` (any module only 2.4 has), which a 2.4 server does not read. */
  legacyBranch(guards: readonly Guard[]): boolean;
}

export interface LintContextOptions {
  defines: readonly string[];
  target: TargetModules;
  environment?: Readonly<Record<string, string>>;
}

function loadedIds(config: EffectiveConfig, builtin: readonly string[]): Set<string> {
  const ids = new Set(builtin.map((file) => moduleIdOfFile(file) ?? `${file.replace(/\.c$/, "")}_module`));
  // The LoadModule lines from the walk the rules read anyway, not from a walk of every node of the tree of its own.
  for (const entry of walkConfig(config).byKey.get("loadmodule") ?? []) if (entry.directive.args[0] !== undefined) ids.add(entry.directive.args[0]);
  return ids;
}

export const ONLY_IN_24 = new Set([...DIRECTIVES["2.4"].moduleFiles].filter((file) => !DIRECTIVES["2.2"].moduleFiles.has(file)));

/** `!mod_authz_core.c`, `!authz_core_module`: a module 2.4 has and 2.2 has not. */
function negatesNewModule(condition: string): boolean {
  const match = /^!\s*(\S+)$/.exec(condition.trim());
  if (!match) return false;
  const name = match[1]!;
  const id = name.endsWith(".c") ? moduleIdOfFile(name) : name;
  const file = id === null ? null : moduleFileOfId(id)?.replace(/\.c$/, ".so");
  return file !== null && file !== undefined && ONLY_IN_24.has(file);
}

export function legacyBranch(guards: readonly Guard[]): boolean {
  // Asked for every detection (over 90,000 on a large tree), most of them outside any guard: no callback made.
  if (guards.length === 0) return false;
  return guards.some((guard) => {
    const key = guard.name.toLowerCase();
    if (key === "ifversion") {
      const result = testIfVersion(guard.condition.split(/\s+/).filter(Boolean).map((word) => word.replace(/^"(.*)"$/, "$1")), LINT_VERSIONS["2.4"]);
      return result.ok && !result.holds;
    }
    return key === "ifmodule" && negatesNewModule(guard.condition);
  });
}

export function lintContext(tree: ConfigTree, options: LintContextOptions): LintContext {
  const compiled22 = SOURCE_COMPILED_IN[tree.layout] ?? SOURCE_COMPILED_IN.default!;
  const sourceBuiltin = tree.layout === "fragment" ? [...compiled22, ...SOURCE_STOCK_22] : compiled22;
  // Around a fragment the target's stock config has loaded its modules already.
  const targetBuiltin = tree.layout === "fragment"
    ? [...options.target.compiledIn, ...options.target.stock.map((id) => moduleFileOfId(id) ?? id)]
    : [...options.target.compiledIn];
  const evaluate = (version: HttpdVersion, builtinModules: readonly string[]): EffectiveConfig => {
    const evaluateOptions: EvaluateOptions = { version, defines: [...options.defines], environment: options.environment ?? {}, builtinModules };
    return evaluateTree(tree, evaluateOptions);
  };
  const source = evaluate(LINT_VERSIONS["2.2"], sourceBuiltin);
  const target = evaluate(LINT_VERSIONS["2.4"], targetBuiltin);
  return {
    tree,
    source,
    target,
    targetModules: options.target,
    loaded: { source: loadedIds(source, sourceBuiltin), target: loadedIds(target, targetBuiltin) },
    directives: DIRECTIVES,
    legacyBranch,
  };
}
