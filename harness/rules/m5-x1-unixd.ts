// M5, X1: User and Group (and ChrootDir, Suexec) are mod_unixd's on 2.4; 2.2 had them in the MPM and core. A tree
// that names none of them still needs the module: started as root, 2.4 passes its config test and then exits with
// "AH00136: Server MUST relinquish startup privileges before accepting connections. Please ensure mod_unixd or other
// system security module is loaded." (recorded on 2.4.68: a stock-shaped 2.2 tree with its User and Group lines
// commented out; the official images start httpd as root).
import { walkConfig } from "../conf/queries/walk-config.ts";
import { detection } from "./detection.ts";
import type { LintContext } from "./lint-context.ts";
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

const FIX = "LoadModule unixd_module modules/mod_unixd.so";
const PRIVILEGES = /AH00136\b|Server MUST relinquish startup privileges/;

/** Whether a directive is mod_unixd's alone on 2.4 (User, Group, ChrootDir, Suexec): its line is the finding then. */
function unixdOnly(context: LintContext, key: string): boolean {
  const homes = context.directives["2.4"].modulesOf(key);
  return homes.length > 0 && homes.every((id) => id === "unixd_module");
}

export const M5: Rule = {
  id: "M5",
  seed: ["M5", "X1"],
  title: "User and Group need mod_unixd on 2.4",
  severity: "blocking",
  owns: { modules: ["unixd_module"] },
  ownedLine: (node) => ({
    message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 has it in mod_unixd, which this tree does not load`,
    fix: FIX,
  }),
  // A tree without User and Group lines still needs one finding: at its last LoadModule, where mod_unixd's belongs.
  detect: (context) => {
    if (context.loaded.target.has("unixd_module")) return [];
    const walked = walkConfig(context.target);
    if (walked.directives.some((entry) => unixdOnly(context, entry.directive.key))) return [];
    const anchor = (walked.byKey.get("loadmodule") ?? []).at(-1) ?? walked.directives[0];
    if (anchor === undefined) return [];
    return [
      detection(
        anchor,
        "2.4 passes its config test and then exits at start-up as root: Server MUST relinquish startup privileges (AH00136): this tree does not load mod_unixd, which 2.2 had in its core",
        FIX,
      ),
    ];
  },
  recognise: (evidence) =>
    refusalClaim(evidence, invalidCommandPattern(["User", "Group", "ChrootDir", "Suexec"]), (refusal) => `2.4 refuses '${refusal.match[1]}': load mod_unixd`) ??
    refusalClaim(evidence, PRIVILEGES, () => "2.4 exits at start-up without mod_unixd (AH00136): load mod_unixd"),
  fix: "LoadModule unixd_module modules/mod_unixd.so (before User and Group).",
  help: "Guide: mod_unixd provides User; error Invalid command 'User' => load mod_unixd. Recorded on 2.4.68: without mod_unixd and without User, httpd started as root exits with AH00136.",
  sample: { config: "User daemon\nGroup daemon", omitModules: ["unixd"], on24: "refuses" },
};
