// include-no-match (a harness fact, no guide row): what the configuration model refuses on the 2.4 view only.
// 2.2 reads on past an Include wildcard that matches nothing; 2.4 stops ("Include/IncludeOptional: No matches
// for the wildcard 'nomatch-*.conf' in '/usr/local/apache2/conf/extra', failing", recorded), and refuses a
// wildcard directory that is not there. IncludeOptional is 2.4's way to say "none may match".
import { refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

export const INCLUDE_NO_MATCH: Rule = {
  id: "include-no-match",
  seed: [],
  title: "an Include that 2.4 refuses and 2.2 read past (a wildcard matching nothing)",
  severity: "blocking",
  ownsRefusals: [/No matches for the wildcard/, /Could not open directory/, /Include directory '.*' not found/, /Wildcard patterns not allowed in Include/, /Could not open configuration file/],
  recognise: (evidence) =>
    refusalClaim(evidence, /(?:Include\/IncludeOptional: )?(No matches for the wildcard '[^']*' in '[^']*'|Could not open directory \S+|Could not open configuration file \S+)/, (refusal) => `2.4 refuses the Include: ${refusal.match[1]}`),
  fix: "Use IncludeOptional for a wildcard that may match nothing (or create a file it matches).",
  help: "Recorded on 2.4: Include conf/extra/nomatch-*.conf with no match fails the config test; 2.2 accepted it.",
  sample: { config: "Include conf/*.nomatch", on24: "refuses" },
};
