// E1 + X4: DefaultType has no effect on 2.4. A value other than none makes 2.4 warn AH00117 "Ignoring deprecated
// use of DefaultType in line N of FILE." (config test and start-up), and files with an unknown extension go out
// without a Content-Type header where 2.2 sent the DefaultType (defaulttype-text-plain).
import { detection, named } from "./detection.ts";
import { recordsWithCode } from "./evidence.ts";
import type { Claim, Rule } from "./rule.ts";

const AH00117 = /Ignoring deprecated use of DefaultType in line (\d+) of (.+?)\.?$/;

function warned(records: Parameters<typeof recordsWithCode>[0]): Claim | null {
  const lines = recordsWithCode(records, "AH00117")
    .concat(records.filter((record) => record.code === null && AH00117.test(record.message)))
    .map((record) => AH00117.exec(record.message))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ file: match[2]!, line: Number(match[1]) }));
  const unique = lines.filter((line, index) => lines.findIndex((other) => other.file === line.file && other.line === line.line) === index);
  return unique.length > 0 ? { summary: "2.4 ignores DefaultType and warns (AH00117)", lines: unique, severity: "deprecated" } : null;
}

export const E1: Rule = {
  id: "E1",
  seed: ["E1", "X4"],
  title: "DefaultType has no effect on 2.4 (AH00117 unless it is none)",
  severity: "behaviour",
  detect: (context) =>
    named(context.source, "DefaultType").map((entry) => {
      const value = entry.directive.args[0] ?? "";
      return value.toLowerCase() === "none"
        ? detection(entry, "DefaultType has no effect on 2.4 (no warning for none); the line can go", "remove DefaultType", { severity: "deprecated" })
        : detection(
            entry,
            `2.4 ignores DefaultType ${value} and warns AH00117: a file whose extension has no MIME type goes out without a Content-Type header`,
            `remove DefaultType; give unknown extensions a type with AddType ${value} .EXT (or ForceType ${value} in the <Directory>/<Files> that needs it)`,
          );
    }),
  recognise: (evidence) => {
    // Only a difference that holds the warning: a server-level log carries every line of its side, and a 2.4
    // that refused the tree for another cause (or 2.2's own start-up warnings) is not DefaultType's doing.
    if (evidence.field === "configTest" || evidence.field === "startupLog") return (evidence.candidate ?? "").includes("AH00117") ? warned(evidence.log.candidate) : null;
    // The Content-Type of an unknown extension: sent on 2.2 from DefaultType, absent on 2.4.
    if (evidence.field !== "header:content-type" || evidence.baseline === null || evidence.candidate !== null) return null;
    // 2.2 sends a DefaultType whether the tree names one or not (its built-in default is text/plain; a stock config
    // around a fragment names it too); only a tree whose every DefaultType is none sends none.
    if (evidence.status.baseline !== evidence.status.candidate) return null;
    const own = evidence.findings.filter((finding) => finding.rule === "E1");
    if (own.length > 0 && own.every((finding) => finding.severity === "deprecated")) return null;
    return { summary: `2.4 sends no Content-Type where 2.2 sent the DefaultType (${evidence.baseline}): the file's extension has no MIME type` };
  },
  fix: "Remove DefaultType; map unknown extensions with AddType, or ForceType where a whole directory needs one type.",
  help: "Guide, no-effect directives: DefaultType has no effect; a warning is emitted unless it is none. Real 2.4: AH00117, and no Content-Type for unknown extensions.",
  sample: { config: "DefaultType text/plain", on24: "starts", files: { "htdocs/notes.unknownext": "plain notes\n" }, request: "/notes.unknownext" },
};
