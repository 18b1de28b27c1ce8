// N1: MaxRequestsPerChild is MaxConnectionsPerChild on 2.4; the old name still works. 2.4 notes it as AH00545
// ("MaxRequestsPerChild is deprecated, use MaxConnectionsPerChild instead.", core:info) only at start-up level
// info (httpd -e info); at the usual levels nothing shows (maxrequestsperchild-old-name).
import { detection, named } from "./detection.ts";
import type { Evidence } from "./evidence.ts";
import type { Claim, Rule } from "./rule.ts";

/** A deprecation note of a renamed directive in any of the candidate's outputs: its log, or an exec's stdout
 * (`httpd -t -e info` run as a request). */
export function renamedNote(evidence: Evidence, code: string, old: string): Claim | null {
  const inLog = evidence.log.candidate.some((record) => record.code === code);
  const inStdout = evidence.field === "exec" && (evidence.candidate ?? "").includes(`${code}: ${old} is deprecated`) && !(evidence.baseline ?? "").includes(code);
  return inLog || inStdout ? { summary: `2.4 notes that ${old} is deprecated (${code}, level info)` } : null;
}

export const N1: Rule = {
  id: "N1",
  seed: ["N1"],
  title: "MaxRequestsPerChild is renamed MaxConnectionsPerChild (the old name is still accepted)",
  severity: "deprecated",
  detect: (context) =>
    named(context.source, "MaxRequestsPerChild").map((entry) =>
      detection(entry, "MaxRequestsPerChild is MaxConnectionsPerChild on 2.4; the old name still works (AH00545 at level info)", `MaxConnectionsPerChild ${entry.directive.args.join(" ")}`.trim()),
    ),
  recognise: (evidence) => renamedNote(evidence, "AH00545", "MaxRequestsPerChild"),
  fix: "Rename MaxRequestsPerChild to MaxConnectionsPerChild (2.2 does not know the new name: keep the old one in a <IfVersion < 2.3> branch for a shared config).",
  help: "Guide, renamed directives: MaxRequestsPerChild → MaxConnectionsPerChild; the old name is still supported.",
  sample: { config: "MaxRequestsPerChild 1000", on24: "starts" },
};
