// S6: mod_include's <!--#if expr=... --> uses 2.4's expression parser: a 2.2 expression ("$QUERY_STRING =
// /foo/") fails with AH01337 and the page shows "[an error occurred while processing this directive]" (2.4.62
// then printed the if-branch whatever the condition; 2.4.68 prints none). SSILegacyExprParser on restores 2.2's
// syntax; 2.2 does not know the directive (ssi-legacy-if-expr).
import { detection } from "./detection.ts";
import type { Rule } from "./rule.ts";
import { legacyParserOn, ssiExpressionFailed, ssiLines } from "./ssi-expressions.ts";

export const S6: Rule = {
  id: "S6",
  seed: ["S6"],
  title: "mod_include #if expr uses the 2.4 expression parser; SSILegacyExprParser on restores 2.2's",
  severity: "behaviour",
  detect: (context) =>
    legacyParserOn(context)
      ? []
      : ssiLines(context).map((entry) =>
          detection(
            entry,
            "pages parsed by mod_include here evaluate <!--#if expr --> with 2.4's parser: a 2.2 expression ($VAR = /regex/, $VAR = text) fails (AH01337) and the page shows \"[an error occurred while processing this directive]\"",
            "<IfVersion >= 2.4>\n    SSILegacyExprParser on\n</IfVersion>",
          ),
        ),
  recognise: (evidence) => {
    // An error document's failure is S18's.
    if ((evidence.status.candidate ?? 200) >= 400 || !ssiExpressionFailed(evidence)) return null;
    return { summary: "2.4 cannot parse a 2.2 <!--#if expr --> (AH01337): the page shows the SSI error text" };
  },
  fix: "Rewrite expressions in 2.4 syntax (%{QUERY_STRING} =~ /foo/), or SSILegacyExprParser on (2.4 only) where the pages are.",
  help: "Guide, changed semantics: the #if expr element of mod_include uses the new expression parser; SSILegacyExprParser restores the old syntax.",
  sample: {
    config: "AddType text/html .shtml\nAddOutputFilter INCLUDES .shtml\nOptions +Includes",
    modules: ["include"],
    on24: "starts",
    files: { "htdocs/t.shtml": '<p><!--#if expr="$QUERY_STRING = /foo/" -->match<!--#else -->no-match<!--#endif --></p>\n' },
    request: "/t.shtml?xfoox",
  },
};
