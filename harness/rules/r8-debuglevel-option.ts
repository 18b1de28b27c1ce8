// R8: the DebugLevel=N option of CharsetOptions (mod_charset_lite) and ExtFilterOptions (mod_ext_filter) is
// gone; 2.4 refuses the line ("Invalid CharsetOptions option: DebugLevel=4", recorded) and logs per module
// with LogLevel.
import { named, detection } from "./detection.ts";
import { refusalClaim } from "./refusal-evidence.ts";
import type { Detection, Rule } from "./rule.ts";

const MODULE: Readonly<Record<string, string>> = { charsetoptions: "charset_lite", extfilteroptions: "ext_filter" };

export const R8: Rule = {
  id: "R8",
  seed: ["R8"],
  title: "the DebugLevel option of CharsetOptions and ExtFilterOptions is removed",
  severity: "blocking",
  perDirectory: true,
  detect: (context) => {
    const found: Detection[] = [];
    for (const entry of named(context.target, "CharsetOptions", "ExtFilterOptions")) {
      const option = entry.directive.args.find((word) => /^DebugLevel=/i.test(word));
      if (option === undefined) continue;
      const rest = entry.directive.args.filter((word) => word !== option);
      found.push(
        detection(
          entry,
          `2.4 refuses to start: Invalid ${entry.directive.name} option: ${option} (AH00526): 2.4 removed the DebugLevel option`,
          `${rest.length > 0 ? `${entry.directive.name} ${rest.join(" ")}\n` : `remove the line;\n`}LogLevel ${MODULE[entry.directive.key]}:trace1 (in this directory's context; the level you need)`,
        ),
      );
    }
    return found;
  },
  recognise: (evidence) => refusalClaim(evidence, /Invalid (CharsetOptions|ExtFilterOptions) option: (DebugLevel=\S*)/i, (refusal) => `2.4 refuses ${refusal.match[1]} ${refusal.match[2]}: use LogLevel per module`),
  fix: "Drop DebugLevel=N from CharsetOptions/ExtFilterOptions; set LogLevel charset_lite:traceN or ext_filter:traceN at directory level.",
  help: "Guide, removed: DebugLevel option (mod_charset_lite, mod_ext_filter) - use per-module LogLevel configuration, set at directory level.",
  sample: { config: "<Directory htdocs>\n    CharsetSourceEnc UTF-16BE\n    CharsetDefault UTF-8\n    CharsetOptions DebugLevel=4\n</Directory>", modules: ["charset_lite"], on24: "refuses" },
};
