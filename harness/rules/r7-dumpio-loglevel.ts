// R7: DumpIOLogLevel is gone; 2.4's mod_dumpio always logs at trace7, enabled per module with LogLevel.
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

export const R7: Rule = {
  id: "R7",
  seed: ["R7"],
  title: "DumpIOLogLevel is removed; mod_dumpio logs at trace7",
  severity: "blocking",
  owns: { directives: ["DumpIOLogLevel"] },
  ownedLine: (node) => ({
    message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 removed it; mod_dumpio logs at trace7`,
    fix: "LogLevel dumpio:trace7",
  }),
  recognise: (evidence) => refusalClaim(evidence, invalidCommandPattern(["DumpIOLogLevel"]), () => "2.4 refuses 'DumpIOLogLevel': use LogLevel dumpio:trace7"),
  fix: "Replace DumpIOLogLevel with LogLevel dumpio:trace7 (2.4 logs the dumped data at trace7 only).",
  help: "Guide, removed directives: DumpIOLogLevel - data is always logged at trace7.",
  sample: { config: "DumpIOInput On\nDumpIOLogLevel debug", modules: ["dumpio"], on24: "refuses" },
};
