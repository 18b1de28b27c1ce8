// mpm-not-loaded (a harness fact, no guide row): 2.4's MPMs are modules, and a 2.2 tree (prefork compiled in)
// loads none, so 2.4 stops with "AH00534: httpd: Configuration error: No MPM loaded." (recorded: the same
// with Listen, StartServers or MaxClients in the config: none of them is reported as an invalid command). The
// rule owns the MPM directives then, instead of B4, and otherwise marks the tree's last LoadModule line.
import { walkConfig } from "../conf/queries/walk-config.ts";
import { detection } from "./detection.ts";
import type { LintContext } from "./lint-context.ts";
import { refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

const MPM_MODULES = ["mpm_prefork_module", "mpm_worker_module", "mpm_event_module"];
const LOAD = "LoadModule mpm_prefork_module modules/mod_mpm_prefork.so (what 2.2 ran; or mpm_event_module modules/mod_mpm_event.so)";
const MESSAGE = "2.4 refuses to start: No MPM loaded (AH00534): 2.4's MPMs are modules and this tree loads none";

function noMpm(context: LintContext): boolean {
  return !MPM_MODULES.some((id) => context.loaded.target.has(id));
}

/** Whether a directive is an MPM's alone on 2.4 (Listen, StartServers, MaxClients, ...). */
function mpmOnly(context: LintContext, key: string): boolean {
  const homes = context.directives["2.4"].modulesOf(key);
  return homes.length > 0 && homes.every((id) => id.startsWith("mpm_"));
}

export const MPM_NOT_LOADED: Rule = {
  id: "mpm-not-loaded",
  seed: [],
  title: "the tree loads no MPM on 2.4",
  severity: "blocking",
  owns: { modules: MPM_MODULES },
  ownedLine: (_node, context) => (noMpm(context) ? { message: MESSAGE, fix: LOAD } : null),
  // A tree without MPM directives still needs one finding: at its last LoadModule, where the MPM's belongs.
  detect: (context) => {
    if (!noMpm(context)) return [];
    const walked = walkConfig(context.target);
    if (walked.directives.some((entry) => mpmOnly(context, entry.directive.key))) return [];
    const anchor = (walked.byKey.get("loadmodule") ?? []).at(-1) ?? walked.directives[0];
    return anchor === undefined ? [] : [detection(anchor, MESSAGE, LOAD)];
  },
  recognise: (evidence) => refusalClaim(evidence, /No MPM loaded/, () => "2.4 has no MPM loaded: load mod_mpm_prefork (or event/worker)"),
  fix: "Load one MPM module on 2.4: LoadModule mpm_prefork_module modules/mod_mpm_prefork.so (2.2's prefork), or mpm_event/mpm_worker.",
  help: "Recorded on 2.4: a config loading no MPM module fails with AH00534: httpd: Configuration error: No MPM loaded.",
  sample: { config: "StartServers 2", omitModules: ["mpm_event"], on24: "refuses" },
};
