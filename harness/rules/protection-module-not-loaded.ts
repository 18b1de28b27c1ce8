// protection-module-not-loaded: access rules written inside `<IfModule X>` where 2.2 loads X and the 2.4 target
// does not: on 2.4 the section is skipped and its protection with it, silently.
// Real servers (a fragment included at the end of each image's stock httpd.conf; the directory itself granted
// with `Require all granted` under <IfModule mod_authz_core.c> for 2.4 and Order/Allow for 2.2):
//   <IfModule mod_auth_digest.c> AuthType Digest ... Require valid-user </IfModule>:
//       GET without credentials: 2.2.34 401, 2.4.68 200 (stock 2.4 does not load mod_auth_digest).
//   <IfModule mod_rewrite.c> RewriteEngine On / RewriteRule .* - [F] </IfModule>:
//       2.2.34 403, 2.4.68 200 (stock 2.4 does not load mod_rewrite).
// A dual-syntax config's 2.2 branch (`<IfModule !mod_authz_core.c>`) is not this: its 2.4 branch replaces it.
import type { EffectiveDirective, Guard } from "../conf/effective-config.ts";
import { walkConfig } from "../conf/queries/walk-config.ts";
import { authTypeInScope, moduleOfCondition, credentialHeaderClaim, protects, wideningClaim } from "./access-scope.ts";
import type { LintFinding } from "./finding.ts";
import { claimedDetection } from "./access-outcome.ts";
import type { LintContext } from "./lint-context.ts";
import type { Detection, Rule } from "./rule.ts";

/** The protecting lines the access models read (the probe world holds users in every store the Auth*File lines
 * name); a RewriteRule, an SSL requirement or an LDAP URL they do not. */
const MODELLED = new Set(["order", "allow", "deny", "satisfy", "require", "authtype", "authuserfile", "authgroupfile", "authdbmuserfile", "authdbmgroupfile", "authbasicprovider", "authdigestprovider"]);

/** The module an `<IfModule X>` condition names when 2.2 loads it and the 2.4 target does not; null otherwise
 * (and for `!X`). */
function droppedModule(condition: string, context: LintContext): string | null {
  const trimmed = condition.trim();
  if (trimmed.startsWith("!")) return null;
  const module = moduleOfCondition(trimmed.split(/\s+/)[0]!.replace(/^"(.*)"$/, "$1"));
  return context.loaded.source.has(module) && !context.loaded.target.has(module) ? module : null;
}

/** The first guard that drops the line on 2.4, with its module; `dropped` holds each condition's answer for one
 * lint (a large tree repeats a few conditions over thousands of guards). */
function droppedGuard(guards: readonly Guard[], context: LintContext, dropped: Map<string, string | null>): { guard: Guard; module: string } | null {
  for (const guard of guards) {
    if (guard.name.toLowerCase() !== "ifmodule") continue;
    let module = dropped.get(guard.condition);
    if (module === undefined) dropped.set(guard.condition, (module = droppedModule(guard.condition, context)));
    if (module !== null) return { guard, module };
  }
  return null;
}

function detect(context: LintContext): Detection[] {
  const byGuard = new Map<string, { entries: Array<{ directive: EffectiveDirective; sections: Detection["sections"] }>; module: string; guard: Guard; password: boolean }>();
  const dropped = new Map<string, string | null>();
  const directives = walkConfig(context.source).directives;
  // An index loop: run once over every line, mostly unoptimised, where for-of makes an iterator result per line.
  for (let at = 0; at < directives.length; at++) {
    const entry = directives[at]!;
    // The guards first: most lines of a tree have none, and then what they are does not matter.
    if (entry.directive.guards.length === 0) continue;
    const found = droppedGuard(entry.directive.guards, context, dropped);
    if (found === null || !protects(entry.directive)) continue;
    const key = `${found.guard.span.file}:${found.guard.span.line}:${found.guard.span.column}`;
    const group = byGuard.get(key) ?? { entries: [], module: found.module, guard: found.guard, password: false };
    group.entries.push({ directive: entry.directive, sections: entry.sections });
    group.password ||= entry.directive.key === "authtype" || (entry.directive.key === "require" && authTypeInScope(context.source, entry));
    byGuard.set(key, group);
  }
  if (byGuard.size === 0) return [];
  // A fallback for the module's absence (`<IfModule !X>` with access rules of its own, read by 2.4) keeps
  // the place protected: not this rule's.
  const fallbacks = new Set<string>();
  const targetDirectives = walkConfig(context.target).directives;
  for (let at = 0; at < targetDirectives.length; at++) {
    const entry = targetDirectives[at]!;
    for (const guard of entry.directive.guards) {
      if (guard.name.toLowerCase() !== "ifmodule" || !guard.condition.trim().startsWith("!") || !protects(entry.directive)) continue;
      fallbacks.add(moduleOfCondition(guard.condition.trim().slice(1).trim().split(/\s+/)[0]!.replace(/^"(.*)"$/, "$1")));
    }
  }
  const found: Detection[] = [];
  for (const group of byGuard.values()) {
    if (fallbacks.has(group.module)) continue;
    const first = group.entries[0]!;
    const what = group.password ? "2.2 asks for a password here; 2.4 answers without one" : "2.2 refuses or restricts here; 2.4 lets every client in";
    const skipped = `the 2.4 target does not load ${group.module}, so <IfModule ${group.guard.condition}> (line ${group.guard.span.line}) and the access rules in it are skipped`;
    // Who gets what, from the model prove checks (the 2.4 view has no lines of the skipped section): the requests
    // the section's lines govern on 2.2. Lines the model does not read make the outcome unpredicted.
    const unread = group.entries.find((entry) => !MODELLED.has(entry.directive.key));
    const claimed = claimedDetection(context, first, {
      cause: skipped,
      unpredicted: `${skipped}: ${what}`,
      fix: `Load ${group.module} on 2.4, or take the access rules out of <IfModule ${group.guard.condition}> and write them with Require`,
      related: [group.guard.span, ...group.entries.slice(1).map((entry) => entry.directive.span)],
      // The module's line is still what migrate loads: the protection is gone on 2.4 even where nothing reaches it.
      latent: `once 2.4 lets a client reach these requests, the access rules in it are missing`,
      scope: { view: "2.2", ...(unread === undefined ? {} : { obstacle: `the access model does not read ${unread.directive.name}` }) },
    });
    if (claimed !== null) found.push(claimed);
  }
  return found;
}

/** The module a finding of this rule names as missing ("the 2.4 target does not load auth_digest_module, so"). */
export function protectionFindingModules(finding: LintFinding): string[] {
  const match = /the 2\.4 target does not load (\S+), so </.exec(finding.message);
  return match ? [match[1]!] : [];
}

export const PROTECTION_MODULE_NOT_LOADED: Rule = {
  id: "protection-module-not-loaded",
  seed: ["B4"],
  title: "access rules inside <IfModule X> for a module 2.2 loads and the 2.4 target does not vanish on 2.4",
  severity: "security",
  security: true,
  detect,
  recognise: (evidence) =>
    wideningClaim(evidence, "protection-module-not-loaded", "the access rules sit in an <IfModule> whose module 2.4 does not load") ??
    credentialHeaderClaim(evidence, "protection-module-not-loaded", "the authentication sits in an <IfModule> whose module 2.4 does not load"),
  fix: "Load the module on 2.4, or move the access rules out of the <IfModule> section (as Require lines).",
  help: "Guide: some LoadModule lines are commented out in the stock 2.4 httpd.conf; a section guarded by such a module is skipped there.",
  sample: {
    // The sample's 2.2 branch loads mod_rewrite (2.2's stock config does); the 2.4 side does not.
    config: [
      "<IfModule !mod_authz_core.c>",
      "    LoadModule rewrite_module modules/mod_rewrite.so",
      "</IfModule>",
      "<Directory /usr/local/apache2/htdocs/private>",
      "    <IfModule mod_rewrite.c>",
      "        RewriteEngine On",
      "        RewriteRule .* - [F]",
      "    </IfModule>",
      "</Directory>",
    ].join("\n"),
    request: "/private/",
    on24: "starts",
    files: { "htdocs/private/index.html": "private\n" },
  },
};
