// Effective configs for the replay tests, from config text through the real parser and evaluator.
import { evaluateTree } from "../../../../harness/conf/evaluate-tree.ts";
import type { EffectiveConfig } from "../../../../harness/conf/effective-config.ts";
import { httpdVersion } from "../../../../harness/versions/httpd-version.ts";
import { memoryTree } from "../../conf/memory-tree.ts";

export function configOf(lines: readonly string[], version = "2.2.34"): EffectiveConfig {
  const tree = memoryTree({ "conf/httpd.conf": ['ServerRoot "/usr/local/apache2"', ...lines].join("\n") });
  return evaluateTree(tree, {
    version: httpdVersion(version),
    defines: [],
    environment: {},
    builtinModules: ["core.c", "http_core.c", "mod_so.c", "mod_log_config.c", "mod_alias.c", "mod_authz_host.c", "mod_ssl.c"],
  });
}
