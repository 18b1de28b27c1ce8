// N4, M6, X5: AddOutputFilterByType moved from core (2.2) to mod_filter; without mod_filter it is an invalid
// command on 2.4 (recorded with mod_deflate loaded and mod_filter not). With mod_filter, 2.4 resolves each
// filter it names at config time: a filter whose module is not loaded fails the config test ("Unknown filter
// provider DEFLATE", recorded on the stock 2.4 config, which comments out mod_deflate), where 2.2 took the name.
import { walkConfig } from "../conf/queries/walk-config.ts";
import { detection, named } from "./detection.ts";
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Detection, Rule } from "./rule.ts";

/** The module of each output filter httpd's own modules register, by name (upper-cased). */
export const FILTER_MODULES: Readonly<Record<string, string>> = {
  DEFLATE: "deflate_module",
  INFLATE: "deflate_module",
  BROTLI_COMPRESS: "brotli_module",
  INCLUDES: "include_module",
  SUBSTITUTE: "substitute_module",
  SED: "sed_module",
  "PROXY-HTML": "proxy_html_module",
  XML2ENC: "xml2enc_module",
  BUFFER: "buffer_module",
  DATA: "data_module",
  RATE_LIMIT: "ratelimit_module",
  XLATEOUT: "charset_lite_module",
};

function load(id: string): string {
  return `LoadModule ${id} modules/mod_${id.replace(/_module$/, "")}.so`;
}

export const N4: Rule = {
  id: "N4",
  seed: ["N4", "M6", "X5"],
  title: "AddOutputFilterByType needs mod_filter on 2.4, and the module of every filter it names",
  severity: "blocking",
  perDirectory: true,
  owns: { directives: ["AddOutputFilterByType"] },
  ownedLine: (node) => ({
    message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 has it in mod_filter, which this tree does not load`,
    fix: "LoadModule filter_module modules/mod_filter.so",
  }),
  detect: (context) => {
    if (!context.loaded.target.has("filter_module")) return [];
    // Filters the config defines itself (FilterDeclare, ExtFilterDefine) are known by name.
    const declared = new Set(
      walkConfig(context.target)
        .directives.filter((entry) => entry.directive.key === "filterdeclare" || entry.directive.key === "extfilterdefine")
        .map((entry) => (entry.directive.args[0] ?? "").toUpperCase()),
    );
    const found: Detection[] = [];
    for (const entry of named(context.target, "AddOutputFilterByType")) {
      const filters = (entry.directive.args[0] ?? "").split(";").map((name) => name.trim().toUpperCase());
      const missing = filters.find((name) => !declared.has(name) && FILTER_MODULES[name] !== undefined && !context.loaded.target.has(FILTER_MODULES[name]!));
      if (missing === undefined) continue;
      found.push(detection(entry, `2.4 refuses to start: Unknown filter provider ${missing} (AH00526): mod_filter resolves it at config time, and its module is not loaded on 2.4`, load(FILTER_MODULES[missing]!)));
    }
    return found;
  },
  recognise: (evidence) =>
    refusalClaim(evidence, invalidCommandPattern(["AddOutputFilterByType"]), () => "2.4 refuses AddOutputFilterByType: load mod_filter") ??
    refusalClaim(evidence, /Unknown filter provider (\S+)/, (refusal) => `2.4's mod_filter does not know the filter ${refusal.match[1]}: load its module`),
  fix: "LoadModule filter_module modules/mod_filter.so (before the first AddOutputFilterByType), and the module of each filter it names (DEFLATE: mod_deflate).",
  help: "Guide: AddOutputFilterByType is now in mod_filter; error Invalid command 'AddOutputFilterByType' => load mod_filter. Recorded: with mod_filter but not mod_deflate, 'Unknown filter provider DEFLATE'.",
  sample: { config: "AddOutputFilterByType DEFLATE text/html", modules: ["deflate"], on24: "refuses" },
};
