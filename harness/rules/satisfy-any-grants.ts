// satisfy-any-grants: `Satisfy Any` beside Order/Allow/Deny, where no user is required. On 2.2 Satisfy Any only
// matters with a Require (a user requirement): without one the host lines decide. On 2.4 it ORs the host lines
// (mod_access_compat) with whatever Require is in effect (mod_authz_core), and a `Require all granted` the
// section inherits (2.4's stock <Directory "/usr/local/apache2/htdocs">, a parent written for 2.4) or carries
// under <IfModule mod_authz_core.c> admits every client the host lines refuse.
// Real servers (client 172.17.0.1, a fragment at the end of each image's stock httpd.conf):
//   <Directory /usr/local/apache2/htdocs/internal> Order deny,allow / Deny from all / Allow from 10.0.0.0/8 /
//       Satisfy Any (pure 2.2 text): 2.2.34 403, 2.4.68 200 (AH01797 logged, then granted by the stock Require).
//   The same under a parent <Directory> with Order allow,deny / Allow from all and, for 2.4 only,
//       Require all granted: 2.2.34 403, 2.4.68 200.
//   The same with `Require all granted` under <IfModule mod_authz_core.c> in the section itself: 403 / 200.
//   <Location /admin> with the same four lines (a fragment; /admin served from the stock DocumentRoot): 403 / 200.
//   Without Satisfy Any: 403 on both. Outside htdocs (the stock <Directory /> denies): 403 on both (AH01797
//   then AH01630).
import type { EffectiveSection } from "../conf/effective-config.ts";
import { walkConfig } from "../conf/queries/walk-config.ts";
import { inEffect, innermostScope, ownDirectives, requireLine, sectionsAboveWith, wideningClaim } from "./access-scope.ts";
import { claimedDetection } from "./access-outcome.ts";
import type { LintContext } from "./lint-context.ts";
import { hostPolicy, render } from "./order-allow-deny-to-require.ts";
import { PlaceMap } from "./places.ts";
import type { Detection, Rule } from "./rule.ts";
import { stockDocumentRoot, stockGrantedRoot } from "./stock-access.ts";

function grantsAll(lines: ReturnType<typeof ownDirectives>): boolean {
  return lines.some((entry) => {
    const line = requireLine(entry.directive);
    return line !== null && !line.negated && line.provider === "all" && line.args[0]?.toLowerCase() === "granted";
  });
}

/** Where the `Require all granted` in effect for a section on 2.4 comes from; null when none is. */
function grantingRequire(context: LintContext, scope: EffectiveSection): string | null {
  const config = context.target;
  const own = ownDirectives(config, scope, "require");
  if (own.length > 0) return grantsAll(own) ? `this section's "Require all granted"` : null;
  const above = sectionsAboveWith(config, scope, "require")
    .sort((a, b) => (b.section.args[0]?.length ?? 0) - (a.section.args[0]?.length ?? 0))[0];
  if (above !== undefined) return grantsAll(ownDirectives(config, above.section, "require")) ? `the "Require all granted" of <Directory ${above.section.args[0]}> (line ${above.section.span.line})` : null;
  if (config.layout !== "fragment") return null;
  let path: string;
  if (scope.key === "directory") path = scope.args[0] ?? "";
  else if (scope.key === "location" && scope.args[0] !== "~") {
    // A <Location> the fragment does not alias is served from the stock DocumentRoot.
    const url = (scope.args[0] ?? "").replace(/\/+$/, "");
    const aliases = ["alias", "scriptalias", "aliasmatch", "scriptaliasmatch"].flatMap((key) => walkConfig(config).byKey.get(key) ?? []);
    const covers = (entry: (typeof aliases)[number]): boolean => {
      const prefix = (entry.directive.args[0] ?? "").replace(/\/+$/, "");
      return entry.directive.key.endsWith("match") || prefix === "" || url === prefix || url.startsWith(`${prefix}/`);
    };
    if (aliases.some(covers)) return null;
    path = `${stockDocumentRoot(context.targetModules.name)}${url}`;
  } else return null;
  const root = stockGrantedRoot(context.targetModules.name, path);
  return root === null ? null : `the "Require all granted" of the 2.4 stock config's <Directory "${root}">`;
}

/** The hosts of a section's own Allow or Deny lines (after `from`). A function, not a closure per Satisfy line:
 * tsx names each closure it makes, a property definition each. */
function hostsOf(context: LintContext, scope: EffectiveSection, key: string): string[] {
  return ownDirectives(context.target, scope, key).flatMap((line) => line.directive.args.slice(line.directive.args[0]?.toLowerCase() === "from" ? 1 : 0));
}

function detect(context: LintContext): Detection[] {
  const found: Detection[] = [];
  const source = walkConfig(context.source);
  const sourceByPlace = PlaceMap.of(source.byKey.get("satisfy") ?? [], (entry) => entry.directive.span);
  for (const entry of walkConfig(context.target).byKey.get("satisfy") ?? []) {
    if (entry.directive.args[0]?.toLowerCase() !== "any") continue;
    const scope = innermostScope(entry.sections);
    if (scope === null) continue;
    // On 2.2 a user requirement in effect makes it "host or password", the same as 2.4 then gives. Asked before
    // the host lines are read: in a large tree nearly every Satisfy Any sits beside a Require valid-user.
    const on22 = sourceByPlace.get(entry.directive.span);
    if (on22 === undefined || inEffect(context.source, on22.sections, "require")) continue;
    const host = hostPolicy(ownDirectives(context.target, scope, "order").at(-1)?.directive.args.join("") ?? "deny,allow", hostsOf(context, scope, "allow"), hostsOf(context, scope, "deny"));
    if (host.kind === "granted") continue;
    const grant = grantingRequire(context, scope);
    if (grant === null) continue;
    const fix = `Remove "Satisfy Any" and write the host rule for 2.4:\n${render(host)}`;
    // Who gets what there, from the model prove checks: no finding where it predicts the same on both.
    const claimed = claimedDetection(context, entry, {
      cause: `under Satisfy Any 2.4 admits a client that either check admits: the Order/Allow/Deny lines here, or ${grant}, which admits everyone; 2.2 had no user requirement here, so its host lines decided`,
      unpredicted: `2.4 admits a client that either check admits under Satisfy Any: the Order/Allow/Deny lines here, or ${grant}, which admits everyone. 2.2 had no user requirement here, so its host lines decided (403 for other clients); 2.4 answers them 200`,
      fix,
    });
    if (claimed !== null) found.push(claimed);
  }
  return found;
}

export const SATISFY_ANY_GRANTS: Rule = {
  id: "satisfy-any-grants",
  seed: ["A5", "Q6"],
  title: "Satisfy Any with host rules and no user requirement: 2.4 ORs them with an inherited Require all granted and admits everyone",
  severity: "security",
  security: true,
  detect,
  recognise: (evidence) =>
    wideningClaim(evidence, "satisfy-any-grants", "under Satisfy Any a Require all granted admits what the host lines refuse"),
  fix: "Drop Satisfy Any where no user is required, and write the host rule as Require ip/host (without Order/Allow/Deny).",
  help: "Guide rule 6 (A5) says mod_access_compat takes precedence when mixed; under Satisfy Any real 2.4.68 grants when either module grants.",
  sample: {
    config: ["<Directory /usr/local/apache2/htdocs/internal>", "    Order deny,allow", "    Deny from all", "    Allow from 192.0.2.0/24", "    Satisfy Any", "    <IfModule mod_authz_core.c>", "        Require all granted", "    </IfModule>", "</Directory>"].join("\n"),
    modules: ["access_compat", "authz_host"],
    request: "/internal/",
    on24: "starts",
    files: { "htdocs/internal/index.html": "internal\n" },
  },
};
