// A5 (with A6, A7, T1): on 2.4, Order/Allow/Deny (mod_access_compat) and Require (mod_authz_core) are two
// separate checks, and under the default Satisfy All both must pass. The guide says the compat directives "take
// precedence"; real servers say they do not: a Require in effect where Allow lines admit a client still denies.
// Two shapes, both narrowing (2.4 refuses what 2.2 served):
//   - Allow lines in a section whose own Require (2.4-only, e.g. under <IfModule mod_authz_core.c>) refuses the
//     client: catalogue authz/access-compat-with-require /looser/ (Order allow,deny, Allow from all + Require ip
//     of another client): 200 on 2.2.34, 403 AH01630 on 2.4.68; with Satisfy Any 200 on both.
//   - Allow lines in a <Directory> with no Require of its own, under a <Directory> with `Require all denied`
//     (2.4's stock <Directory />): the inherited Require still applies. A fragment at the end of each image's
//     stock httpd.conf, <Directory /srv/x/cgi> Order allow,deny / Allow from all: 2.2.34 200, 2.4.68 403
//     "AH01630: client denied by server configuration" (authz_core). Fixtures case b1 (Directory Require all
//     denied + Location Order/Deny/Allow): 2.2 500, 2.4 403 AH01630. configs/tool-status-alias on the stock
//     configs: /statgraph-status/ and its server-status Location from 127.0.0.1: 200 on 2.2.34, 403 on 2.4.68.
// Refuted as a difference: fixtures case a1 (Directory Order deny,allow / Deny from all + Location Require ip):
// 403 on both (2.4 AH01797).
import type { EffectiveConfig, EffectiveDirective, EffectiveSection } from "../conf/effective-config.ts";
import { walkConfig, type WalkedDirective } from "../conf/queries/walk-config.ts";
import { governingFindings, hasOwn, innermostScope, ownDirectives, requireLine, sectionsAboveWith, virtualHostOf } from "./access-scope.ts";
import { claimedDetection } from "./access-outcome.ts";
import { recordsWithCode } from "./evidence.ts";
import { eventFamily, HANDLER_REFUSALS } from "../logs/message-map.ts";
import type { LintContext } from "./lint-context.ts";
import { hostPolicy, render } from "./order-allow-deny-to-require.ts";
import { PlaceMap } from "./places.ts";
import type { Detection, Rule } from "./rule.ts";
import { stockGrantedRoot } from "./stock-access.ts";

/** The section's own Order/Allow/Deny as 2.4 Require lines. */
function requireForm(config: EffectiveConfig, scope: EffectiveSection): string {
  const lines = (key: string) => ownDirectives(config, scope, key);
  const from = (key: string) => lines(key).flatMap((entry) => entry.directive.args.slice(entry.directive.args[0]?.toLowerCase() === "from" ? 1 : 0));
  return render(hostPolicy(lines("order").at(-1)?.directive.args.join("") ?? "deny,allow", from("allow"), from("deny")));
}

function isAny(directive: EffectiveDirective): boolean {
  return directive.args[0]?.toLowerCase() === "any";
}

function satisfiesAny(config: EffectiveConfig, scope: EffectiveSection | null): boolean {
  return hasOwn(config, scope, "satisfy", isAny);
}

function deniesAll(config: EffectiveConfig, scope: EffectiveSection): boolean {
  const requires = ownDirectives(config, scope, "require");
  return requires.length > 0 && requires.every((entry) => {
    const line = requireLine(entry.directive);
    return line !== null && line.provider === "all" && line.args[0]?.toLowerCase() === "denied" && !line.negated;
  });
}

/** The <Directory> above `scope` whose Require denies everyone on 2.4 (the tree's own, or the target's stock
 * <Directory /> around a fragment); null when none. */
function deniedAbove(context: LintContext, scope: EffectiveSection, server: EffectiveSection | null): string | null {
  const config = context.target;
  // The nearest one with a Require decides (a nearer `Require all granted` overrides <Directory />).
  const withRequire = sectionsAboveWith(config, scope, "require", server);
  const nearest = withRequire.sort((a, b) => (b.section.args[0]?.length ?? 0) - (a.section.args[0]?.length ?? 0))[0];
  if (nearest !== undefined) return deniesAll(config, nearest.section) ? `<Directory ${nearest.section.args[0]}> (line ${nearest.section.span.line})` : null;
  if (config.layout === "fragment" && scope.key === "directory" && stockGrantedRoot(context.targetModules.name, scope.args[0] ?? "") === null) return "<Directory /> of the 2.4 stock httpd.conf";
  return null;
}

function detect(context: LintContext): Detection[] {
  const config = context.target;
  const found: Detection[] = [];
  // A Require 2.2 reads too is rule A3's (2.2 takes it for a user requirement); here only 2.4's own lines.
  // Made when a section first has a Require: most sections with Allow lines have none.
  let read22: PlaceMap<WalkedDirective> | undefined;
  const scopes = new Map<EffectiveSection, WalkedDirective[]>();
  for (const entry of walkConfig(config).byKey.get("allow") ?? []) {
    const scope = innermostScope(entry.sections);
    if (scope === null) continue;
    // Appended in place: a copy per line is quadratic in a section's Allow lines.
    const list = scopes.get(scope);
    if (list) list.push(entry);
    else scopes.set(scope, [entry]);
  }
  for (const [scope, allows] of scopes) {
    if (satisfiesAny(config, scope)) continue;
    const first = allows[0]!;
    const requires = ownDirectives(config, scope, "require");
    if (requires.length > 0) read22 ??= PlaceMap.of(walkConfig(context.source).byKey.get("require") ?? [], (entry) => entry.directive.span);
    const only24 = requires.filter((entry) => !read22!.has(entry.directive.span));
    // `Require all granted` beside host lines is the usual dual-syntax port: both checks pass where the host
    // lines admit, the same as 2.2 (real servers: 403 on both for a refused client, 200 for an admitted one).
    const grantsAll = only24.every((entry) => {
      const line = requireLine(entry.directive);
      return line !== null && !line.negated && line.provider === "all" && line.args[0]?.toLowerCase() === "granted";
    });
    if (only24.length > 0 && grantsAll) continue;
    if (only24.length > 0) {
      const require = only24[0]!;
      const both = `2.4 checks "${first.directive.node.raw.trim()}" (access_compat) and "${require.directive.node.raw.trim()}" (authz_core) separately and needs both (Satisfy All): the Allow lines do not take precedence`;
      // Who gets what, from the model prove checks: no finding where it predicts the same on both.
      const claimed = claimedDetection(context, first, {
        cause: both,
        unpredicted: `${both}, a client they admit is still refused by the Require (403, AH01630)`,
        fix: "Express the whole rule with Require on 2.4 and drop Order/Allow/Deny there (or add Satisfy Any if either check should admit)",
        related: [require.directive.span],
      });
      if (claimed !== null) found.push(claimed);
      continue;
    }
    if (requires.length > 0 || scope.key !== "directory") continue;
    // The scope's <VirtualHost> is the one around its Allow lines.
    const denied = deniedAbove(context, scope, virtualHostOf(first.sections));
    if (denied === null) continue;
    const inherited = `on 2.4 the "Require all denied" of ${denied} still applies here beside "${first.directive.node.raw.trim()}" (access_compat), and both must pass`;
    const claimed = claimedDetection(context, first, { cause: inherited, unpredicted: `${inherited}: 2.4 answers 403 (AH01630) where 2.2 served`, fix: requireForm(config, scope) });
    if (claimed !== null) found.push(claimed);
  }
  return found;
}

export const A5: Rule = {
  id: "A5",
  seed: ["A5", "A6", "A7", "T1"],
  title: "Order/Allow/Deny and Require are both checked on 2.4 (Satisfy All): an inherited or added Require refuses what Allow admits",
  severity: "behaviour",
  detect,
  recognise: (evidence) => {
    // Both 403, for different reasons: 2.2's access let the request in and its handler refused it (recorded on
    // 2.2.34: "Options ExecCGI is off", "attempt to invoke directory as script"), 2.4 refused it at access control.
    if (evidence.field === "errorLog" && evidence.request !== null && evidence.status.baseline === 403 && evidence.status.candidate === 403) {
      const handler = evidence.log.baseline.find((record) => HANDLER_REFUSALS.has(eventFamily(record.event) ?? ""));
      const denials = recordsWithCode(evidence.log.candidate, "AH01630", "AH01797");
      const findings = governingFindings(evidence, "A5");
      if (handler === undefined || denials.length === 0 || findings.length === 0 || recordsWithCode(evidence.log.baseline, "AH01797").length > 0) return null;
      return {
        summary: `2.2 let ${evidence.request.path} past access control and its handler refused it (403: ${handler.message}); 2.4 refused it at access control (${denials[0]!.code ?? denials[0]!.event}): 2.4 checks Order/Allow and Require separately and needs both`,
        lines: findings.map((finding) => ({ file: finding.file, line: finding.line })),
        severity: "behaviour",
      };
    }
    if (evidence.field !== "status" || evidence.request === null || evidence.status.candidate !== 403) return null;
    const baseline = evidence.status.baseline;
    if (baseline === null || baseline === 403 || baseline === 401) return null;
    const denials = recordsWithCode(evidence.log.candidate, "AH01630", "AH01797");
    if (denials.length === 0) return null;
    const findings = governingFindings(evidence, "A5");
    const code = denials.some((record) => record.code === "AH01630") ? "AH01630 (authz_core: a Require refused)" : "AH01797 (access_compat: Order/Deny refused)";
    return {
      summary: `2.2 answered ${baseline} on ${evidence.request.path}, 2.4 refused it with 403, ${code}: 2.4 checks Order/Allow and Require separately and needs both`,
      lines: findings.map((finding) => ({ file: finding.file, line: finding.line })),
      severity: "behaviour",
    };
  },
  fix: "On 2.4 write the access rule with Require only (Require all granted, Require ip ..., Require host ...); mixing with Order/Allow/Deny needs both to pass unless Satisfy Any is set.",
  help: "Guide rules 6-8 (A5-A7) and T1: mod_access_compat and mod_authz_core both decide; real 2.4.68 denies with AH01630 where the guide says the compat directives take precedence.",
  sample: {
    config: [
      "<Directory /usr/local/apache2/htdocs/open>",
      "    Order allow,deny",
      "    Allow from all",
      "    <IfModule mod_authz_core.c>",
      "        Require ip 192.0.2.1",
      "    </IfModule>",
      "</Directory>",
    ].join("\n"),
    modules: ["access_compat", "authz_host"],
    request: "/open/",
    on24: "starts",
    files: { "htdocs/open/index.html": "open\n" },
  },
};
