// M5, X1: User and Group (and ChrootDir, Suexec) are mod_unixd's on 2.4; 2.2 had them in the MPM and core.
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

export const M5: Rule = {
  id: "M5",
  seed: ["M5", "X1"],
  title: "User and Group need mod_unixd on 2.4",
  severity: "blocking",
  owns: { modules: ["unixd_module"] },
  ownedLine: (node) => ({
    message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 has it in mod_unixd, which this tree does not load`,
    fix: "LoadModule unixd_module modules/mod_unixd.so",
  }),
  recognise: (evidence) => refusalClaim(evidence, invalidCommandPattern(["User", "Group", "ChrootDir", "Suexec"]), (refusal) => `2.4 refuses '${refusal.match[1]}': load mod_unixd`),
  fix: "LoadModule unixd_module modules/mod_unixd.so (before User and Group).",
  help: "Guide: mod_unixd provides User; error Invalid command 'User' => load mod_unixd.",
  sample: { config: "User daemon\nGroup daemon", omitModules: ["unixd"], on24: "refuses" },
};
