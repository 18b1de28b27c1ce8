// S17: mod_substitute refuses lines over 1 MB on 2.4 (SubstituteMaxLineLength, default 1m, 2.4 only); 2.2 had no
// limit. A longer line through Substitute answers 500 with AH01328 "Line too long, URI ..." (substitute-line-over-1mb).
import { detection, named } from "./detection.ts";
import type { Rule } from "./rule.ts";
import type { EffectiveSection } from "../conf/effective-config.ts";

export const S17: Rule = {
  id: "S17",
  seed: ["S17"],
  title: "mod_substitute's maximum line length is 1 MB on 2.4",
  severity: "behaviour",
  detect: (context) => {
    const raised = new Set<EffectiveSection | null>(named(context.target, "SubstituteMaxLineLength").map((entry) => entry.sections.at(-1) ?? null));
    if (raised.has(null)) return [];
    const seen = new Set<EffectiveSection | null>();
    return named(context.target, "Substitute")
      .filter((entry) => {
        const section = entry.sections.at(-1) ?? null;
        if (seen.has(section) || raised.has(section)) return false;
        seen.add(section);
        return true;
      })
      .map((entry) =>
        detection(entry, "2.4 fails an answer with a line longer than 1 MB through Substitute (500, AH01328); 2.2 had no limit", "<IfVersion >= 2.4>\n    SubstituteMaxLineLength 10m\n</IfVersion>"),
      );
  },
  recognise: (evidence) => {
    const tooLong = evidence.log.candidate.some((record) => record.code === "AH01328" || /Line too long, URI/.test(record.message));
    return tooLong && ["status", "outcome", "body", "errorLog"].includes(evidence.field)
      ? { summary: "2.4's mod_substitute refused a line over its 1 MB limit (AH01328, 500)" }
      : null;
  },
  fix: "Raise SubstituteMaxLineLength (2.4 only) where responses carry long lines, or avoid substituting in them.",
  help: "Guide, limits: mod_substitute maximum line length 1 MB.",
  sample: { config: '<Location /sub/>\n    SetOutputFilter SUBSTITUTE\n    Substitute "s/hello/goodbye/"\n</Location>', modules: ["substitute"], on24: "starts" },
};
