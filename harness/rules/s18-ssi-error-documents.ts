// S18: an ErrorDocument served through mod_include with a 2.2 <!--#if expr --> keeps its status on 2.4 but its
// text becomes "[an error occurred while processing this directive]" (AH01337), as S6 for every error answer
// (ssi-errordocument-legacy-expr).
import { detection, named } from "./detection.ts";
import type { Rule } from "./rule.ts";
import { legacyParserOn, ssiExpressionFailed, ssiExtensions, ssiLines } from "./ssi-expressions.ts";

export const S18: Rule = {
  id: "S18",
  seed: ["S18"],
  title: "error documents using mod_include #if expr are hit by the expression-parser change",
  severity: "behaviour",
  detect: (context) => {
    if (legacyParserOn(context) || ssiLines(context).length === 0) return [];
    const extensions = ssiExtensions(context);
    return named(context.target, "ErrorDocument")
      .filter((entry) => {
        const target = entry.directive.args[1] ?? "";
        const path = target.split("?")[0]!.toLowerCase();
        return target.startsWith("/") && [...extensions].some((extension) => path.endsWith(extension));
      })
      .map((entry) =>
        detection(
          entry,
          `the error document ${entry.directive.args[1]} goes through mod_include: a 2.2 <!--#if expr --> in it fails on 2.4 (AH01337) and every ${entry.directive.args[0]} answer shows "[an error occurred while processing this directive]"`,
          "<IfVersion >= 2.4>\n    SSILegacyExprParser on\n</IfVersion>  (in the <Directory> of the error documents)",
        ),
      );
  },
  recognise: (evidence) => {
    const { baseline, candidate } = evidence.status;
    if (candidate === null || candidate < 400 || baseline !== candidate || !ssiExpressionFailed(evidence)) return null;
    return { summary: `the ${candidate} error document cannot parse its 2.2 <!--#if expr --> on 2.4 (AH01337): same status, the SSI error text instead of the page` };
  },
  fix: "Rewrite the error documents' expressions in 2.4 syntax, or SSILegacyExprParser on (2.4 only) in their directory.",
  help: "Guide: error documents that use the mod_include #if expr= element are affected by the expression-parser change.",
  sample: {
    config: "AddType text/html .shtml\nAddOutputFilter INCLUDES .shtml\nOptions +Includes\nErrorDocument 404 /errors/notfound.shtml",
    modules: ["include"],
    on24: "starts",
    files: { "htdocs/errors/notfound.shtml": '<!--#if expr="$REDIRECT_URL = /shop/" -->Shop page not found<!--#else -->Page not found<!--#endif -->\n' },
    request: "/shop/missing.html",
  },
};
