// N4, M6, X5: AddOutputFilterByType moved from core (2.2) to mod_filter; without mod_filter it is an invalid
// command on 2.4 (recorded with mod_deflate loaded and mod_filter not).
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

export const N4: Rule = {
  id: "N4",
  seed: ["N4", "M6", "X5"],
  title: "AddOutputFilterByType needs mod_filter on 2.4",
  severity: "blocking",
  owns: { directives: ["AddOutputFilterByType"] },
  ownedLine: (node) => ({
    message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 has it in mod_filter, which this tree does not load`,
    fix: "LoadModule filter_module modules/mod_filter.so",
  }),
  recognise: (evidence) => refusalClaim(evidence, invalidCommandPattern(["AddOutputFilterByType"]), () => "2.4 refuses AddOutputFilterByType: load mod_filter"),
  fix: "LoadModule filter_module modules/mod_filter.so (before the first AddOutputFilterByType).",
  help: "Guide: AddOutputFilterByType is now in mod_filter; error Invalid command 'AddOutputFilterByType' => load mod_filter.",
  sample: { config: "AddOutputFilterByType DEFLATE text/html", modules: ["deflate"], on24: "refuses" },
};
