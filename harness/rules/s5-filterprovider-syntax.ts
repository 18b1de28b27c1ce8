// S5: 2.2's FilterProvider took four words (filter, provider, dispatch, match); 2.4 takes three, the last a
// boolean expression ("FilterProvider takes three arguments, filter-name provider-name match-expression",
// recorded). The hint writes the 2.2 dispatch and match as an expression where the form is plain.
import { detection, named } from "./detection.ts";
import { refusalClaim } from "./refusal-evidence.ts";
import type { Detection, Rule } from "./rule.ts";

function quoteString(text: string): string {
  return `'${text.replace(/'/g, "\\'")}'`;
}

/** The 2.4 expression for a 2.2 dispatch (`resp=Content-Type`, `req=Accept`, `env=X`, `handler`) and match
 * (`$text/html` contains, `/re/` regex, `=v` equals, `*` any, a leading `!` negates); null when not plain. */
export function filterExpression(dispatch: string, match: string): string | null {
  const [kind, header] = dispatch.includes("=") ? [dispatch.slice(0, dispatch.indexOf("=")).toLowerCase(), dispatch.slice(dispatch.indexOf("=") + 1)] : [dispatch.toLowerCase(), ""];
  let subject: string | null = null;
  if (kind === "resp" && header.toLowerCase() === "content-type") subject = "%{CONTENT_TYPE}";
  else if (kind === "resp" && header !== "") subject = `resp(${quoteString(header)})`;
  else if (kind === "req" && header !== "") subject = `req(${quoteString(header)})`;
  else if (kind === "env" && header !== "") subject = `reqenv(${quoteString(header)})`;
  else if (kind === "handler") subject = "%{HANDLER}";
  if (subject === null) return null;
  const negated = match.startsWith("!");
  const rest = negated ? match.slice(1) : match;
  let test: string | null = null;
  if (rest === "*") test = `-n ${subject}`;
  else if (rest.startsWith("$")) test = `${subject} =~ m#${rest.slice(1).replace(/[.*+?^${}()|[\]\\#]/g, "\\$&")}#`;
  else if (rest.startsWith("/") && rest.endsWith("/") && rest.length > 1) test = `${subject} =~ ${rest}`;
  else if (rest.startsWith("=")) test = `${subject} == ${quoteString(rest.slice(1))}`;
  if (test === null) return null;
  return negated ? `!(${test})` : test;
}

export const S5: Rule = {
  id: "S5",
  seed: ["S5"],
  title: "FilterProvider takes a boolean expression on 2.4",
  severity: "blocking",
  perDirectory: true,
  detect: (context) => {
    const found: Detection[] = [];
    for (const entry of named(context.target, "FilterProvider")) {
      const [name, provider, dispatch, match] = entry.directive.args;
      if (entry.directive.args.length !== 4 || name === undefined || provider === undefined) continue;
      const expression = filterExpression(dispatch!, match!);
      found.push(
        detection(
          entry,
          "2.4 refuses to start: FilterProvider takes three arguments, filter-name provider-name match-expression (AH00526): this is 2.2's dispatch/match form",
          expression === null ? `FilterProvider ${name} ${provider} "EXPRESSION" (write the dispatch '${dispatch}' and match '${match}' as a 2.4 expression)` : `FilterProvider ${name} ${provider} "${expression}"`,
        ),
      );
    }
    return found;
  },
  recognise: (evidence) => refusalClaim(evidence, /FilterProvider takes three arguments/, () => "2.4 refuses 2.2's FilterProvider syntax: the match is a boolean expression"),
  fix: "Write FilterProvider NAME PROVIDER \"EXPRESSION\": FilterProvider f DEFLATE resp=Content-Type $text/html → FilterProvider f DEFLATE \"%{CONTENT_TYPE} =~ m#text/html#\".",
  help: "Guide: FilterProvider (mod_filter) syntax changed; a boolean expression decides whether a filter applies.",
  sample: { config: "FilterDeclare compress\nFilterProvider compress DEFLATE resp=Content-Type $text/html\nFilterChain compress", modules: ["filter", "deflate"], on24: "refuses" },
};
