// What S6 and S18 share: where a tree runs mod_include (the INCLUDES filter or 2.2's server-parsed handler),
// whether it asks for the legacy expression parser, and how 2.4 fails a 2.2 expression: AH01337 "Could not
// parse expr ... Parse error near '$'" (include:error) and "[an error occurred while processing this directive]"
// in the page, where 2.2 rendered a branch (ssi-legacy-if-expr).
import { walkConfig, type WalkedDirective } from "../conf/queries/walk-config.ts";
import { ownDirectives } from "./access-scope.ts";
import { named } from "./detection.ts";
import type { Evidence } from "./evidence.ts";
import type { LintContext } from "./lint-context.ts";

export const SSI_ERROR_TEXT = "[an error occurred while processing this directive]";

/** Lines that send pages through mod_include: INCLUDES filters, the server-parsed handler, XBitHack. */
export function ssiLines(context: LintContext): WalkedDirective[] {
  if (!context.loaded.source.has("include_module") && !context.loaded.target.has("include_module")) return [];
  if (!includesMayRun(context)) return [];
  const config = context.target;
  const filters = named(config, "AddOutputFilter", "SetOutputFilter", "AddOutputFilterByType").filter((entry) =>
    (entry.directive.args[0] ?? "").split(";").some((name) => name.toUpperCase() === "INCLUDES"),
  );
  const handlers = named(config, "AddHandler", "SetHandler").filter((entry) => (entry.directive.args[0] ?? "").toLowerCase() === "server-parsed");
  const xbit = named(config, "XBitHack").filter((entry) => ["on", "full"].includes((entry.directive.args[0] ?? "").toLowerCase()));
  return [...filters, ...handlers, ...xbit].sort((a, b) => a.index - b.index);
}

/** Whether some directory may parse pages: mod_include removes its filter where Options has no Includes (or
 * IncludesNOEXEC). Only a tree whose <Directory /> sets Options and AllowOverride, with no Options line that
 * enables Includes (All, Includes, IncludesNOEXEC) and no AllowOverride that lets .htaccess do it, parses none on
 * either version (a tree without them has 2.2's default Options All and AllowOverride All somewhere). */
function includesMayRun(context: LintContext): boolean {
  const config = context.target;
  const root = walkConfig(config).sections.filter((entry) => entry.section.key === "directory" && entry.sections.length === 0 && (entry.section.args[0] ?? "").replace(/^"|"$/g, "") === "/");
  const own = (key: string) => root.flatMap((entry) => ownDirectives(config, entry.section, key));
  if (own("options").length === 0 || own("allowoverride").length === 0) return true;
  const enables = [context.source, context.target].some((version) =>
    named(version, "Options").some((entry) => entry.directive.args.some((arg) => /^\+?(all|includes|includesnoexec)$/i.test(arg))),
  );
  const overrides = [context.source, context.target].some((version) =>
    named(version, "AllowOverride").some((entry) => entry.directive.args.some((arg) => /^(all|options)(=.*)?$/i.test(arg))),
  );
  return enables || overrides;
}

/** The extensions the tree parses for SSI (AddOutputFilter INCLUDES .shtml, AddHandler server-parsed .shtml). */
export function ssiExtensions(context: LintContext): Set<string> {
  const extensions = new Set<string>([".shtml"]);
  for (const entry of ssiLines(context)) {
    if (entry.directive.key === "addoutputfilter" || entry.directive.key === "addhandler") {
      for (const arg of entry.directive.args.slice(1)) extensions.add((arg.startsWith(".") ? arg : `.${arg}`).toLowerCase());
    }
  }
  return extensions;
}

/** Whether the tree turns the legacy parser on anywhere (2.4 only, so a dual config has it in a 2.4 branch). */
export function legacyParserOn(context: LintContext): boolean {
  return named(context.target, "SSILegacyExprParser").some((entry) => (entry.directive.args[0] ?? "").toLowerCase() === "on");
}

/** Whether the candidate failed an SSI expression the baseline evaluated: AH01337, or the error text in the page. */
export function ssiExpressionFailed(evidence: Evidence): boolean {
  const logged = evidence.log.candidate.some((record) => record.code === "AH01337" || /Could not parse expr/.test(record.message));
  const shown = evidence.field === "body" && (evidence.candidate ?? "").includes(SSI_ERROR_TEXT) && !(evidence.baseline ?? "").includes(SSI_ERROR_TEXT);
  return (["body", "errorLog"].includes(evidence.field) && logged) || shown;
}
