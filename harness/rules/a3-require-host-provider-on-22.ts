// A3 (with A1, M1): `Require ip|host|all granted|env|local|...` that 2.2 also reads, or that only 2.4 reads
// beside a user requirement 2.2 enforced. On 2.2 Require is an
// authentication directive that knows only users, so the line asks for a login (or answers 500 "AuthType not
// set!" without authentication); on 2.4 it is an authorization that grants by itself, and beside
// `Require valid-user` the lines form an implicit <RequireAny>: either one admits. A half-done port that adds
// `Require ip` next to `Require valid-user` (meaning "both", as 2.2's Satisfy All did) opens the page.
// Real servers (a fragment at the end of each image's stock httpd.conf; client 172.17.0.1, no credentials):
//   Order deny,allow / Deny from all / Allow from 172.17.0.1 + AuthType Basic ... Require ip 172.17.0.1 +
//       Require valid-user:                               2.2.34 401, 2.4.68 200.
//   AuthType Basic ... Require valid-user + Require ip 172.17.0.1:   2.2.34 401, 2.4.68 200.
//   <Directory P> AuthType Basic ... Require valid-user + <Directory P/sub> Require all granted:
//       P/sub/: 2.2.34 401 (the child's Require replaces the parent's and still needs a user), 2.4.68 200.
//   Without any AuthType (fixtures case a4): Require ip 127.0.0.1 in a Location: 2.2 500 "AuthType not set!",
//       2.4 200 from 127.0.0.1 and 403 (AH01630) from others.
//   This rule's sample (Require valid-user + Require all granted in a htdocs directory, on the stock configs):
//       2.2.34 401, 2.4.68 200.
//   A dual-syntax section: AuthType Basic ... Require valid-user, plus `Require all granted` under <IfModule
//       mod_authz_core.c> (and Order/Allow under <IfModule !mod_authz_core.c>): 2.2.34 401, 2.4.68 200.
//   The same `Require all granted` beside <Limit POST PUT DELETE> Require valid-user: POST 2.2.34 401,
//       2.4.68 200 (GET 200 on both).
// Refuted: `Satisfy Any` kept beside Require valid-user and a Require ip of another address, with Order
// deny,allow / Deny from all: 401 without and 200 with credentials on both.
import type { EffectiveSection } from "../conf/effective-config.ts";
import { walkConfig, type WalkedDirective } from "../conf/queries/walk-config.ts";
import { authTypeInScope, governingFindings, HOST_PROVIDERS, ownDirectives, requireLine, widening, innermostScope } from "./access-scope.ts";
import { claimedDetection } from "./access-outcome.ts";
import type { LintContext } from "./lint-context.ts";
import { writtenFor24 } from "./default-anchor.ts";
import { type Place, PlaceMap } from "./places.ts";
import type { Detection, Rule } from "./rule.ts";

const AUTHZ_CONTAINERS = new Set(["requireany", "requireall", "requirenone"]);

/** Lines 2.2 reads too, by place: a Require under <IfModule mod_authz_core.c> is only 2.4's and means what it
 * says. Made on first use: most trees' Require lines name users, and then neither part of the rule asks. */
class Read22 {
  #places: PlaceMap<WalkedDirective> | undefined;
  readonly #context: LintContext;

  constructor(context: LintContext) {
    this.#context = context;
  }

  has(place: Place): boolean {
    this.#places ??= PlaceMap.of(walkConfig(this.#context.source).byKey.get("require") ?? [], (entry) => entry.directive.span);
    return this.#places.has(place);
  }
}

function detect(context: LintContext): Detection[] {
  const read22 = new Read22(context);
  const found: Detection[] = [];
  for (const entry of walkConfig(context.target).byKey.get("require") ?? []) {
    const line = requireLine(entry.directive);
    if (line === null || !HOST_PROVIDERS.has(line.provider) || !read22.has(entry.directive.span)) continue;
    // Inside <RequireAny>/<RequireAll>/<RequireNone>, 2.4's own containers (2.2 refuses them at start), the line
    // is combined as written: no 2.2 reading, no implicit <RequireAny>.
    if (entry.sections.some((section) => AUTHZ_CONTAINERS.has(section.key))) continue;
    const denies = line.negated || (line.provider === "all" && line.args[0]?.toLowerCase() === "denied");
    const password = authTypeInScope(context.source, entry);
    const users = ownDirectives(context.target, innermostScope(entry.sections), "require").filter((other) => {
      const theirs = requireLine(other.directive);
      return theirs !== null && !HOST_PROVIDERS.has(theirs.provider);
    });
    const text = entry.directive.node.raw.trim();
    if (password && !denies) {
      const beside = users.length > 0 ? ` beside ${users[0]!.directive.node.raw.trim()} (an implicit <RequireAny>: either one admits)` : "";
      // Who gets what, from the model prove checks: no finding where it predicts the same on both.
      const claimed = claimedDetection(context, entry, {
        cause: `2.2 reads "${text}" as one more user requirement; 2.4 grants by it${beside}, without a password`,
        unpredicted: `2.2 reads "${text}" as one more user requirement and asks for a password here; 2.4 grants by it${beside}, without a password`,
        fix: users.length > 0
          ? `<RequireAll>\n    ${text}\n    ${users[0]!.directive.node.raw.trim()}\n</RequireAll>  (if both were meant, as Satisfy All did; if only the password was, remove "${text}")`
          : `Remove "${text}" to keep asking for a password, or keep it if anyone it names may enter without one`,
        severity: "security",
        related: users.map((other) => other.directive.span),
      });
      if (claimed !== null) found.push(claimed);
    } else if (!writtenFor24(context)) {
      // A tree written for 2.4 means its Require lines as 2.4 reads them; how 2.2 would have read them is moot.
      const reading = password ? `2.2 reads "${text}" as a user requirement (a password prompt)` : `2.2 cannot evaluate "${text}" without AuthType (AuthType not set!)`;
      const claimed = claimedDetection(context, entry, {
        cause: `${reading}; 2.4 ${denies ? "refuses" : "grants"} by it`,
        unpredicted: password ? `${reading}; 2.4 ${denies ? "refuses by it (403)" : "grants by it"}` : `2.2 cannot evaluate "${text}" without AuthType and answers 500 (AuthType not set!); 2.4 ${denies ? "refuses by it (403)" : "grants by it"}`,
        fix: null,
        severity: "behaviour",
      });
      if (claimed !== null) found.push(claimed);
    }
  }
  found.push(...only24BesideUsers(context, read22));
  return found;
}

/** A granting Require only 2.4 reads (under <IfModule mod_authz_core.c>), in a section whose users' Require
 * (its own, or a <Limit> inside it) 2.2 enforced: on 2.4 the lines form an implicit <RequireAny>. */
function only24BesideUsers(context: LintContext, read22: Read22): Detection[] {
  const found: Detection[] = [];
  const requires = walkConfig(context.target).byKey.get("require") ?? [];
  // The granting host lines only 2.4 reads, first: without one (most trees) no users' lines are gathered.
  const granting: Array<{ entry: WalkedDirective; scope: EffectiveSection }> = [];
  for (const entry of requires) {
    const line = requireLine(entry.directive);
    if (line === null || line.negated || !HOST_PROVIDERS.has(line.provider) || read22.has(entry.directive.span)) continue;
    if (line.provider === "all" && line.args[0]?.toLowerCase() !== "granted") continue;
    const scope = innermostScope(entry.sections);
    if (scope !== null) granting.push({ entry, scope });
  }
  if (granting.length === 0) return found;
  // Users' Require lines 2.2 enforced, by the section they apply to (a <Limit> counts as its section's).
  const usersBySection = new Map<EffectiveSection, typeof requires>();
  for (const other of requires) {
    const theirs = requireLine(other.directive);
    if (theirs === null || HOST_PROVIDERS.has(theirs.provider) || !read22.has(other.directive.span)) continue;
    const own = innermostScope(other.sections);
    const section = own !== null && (own.key === "limit" || own.key === "limitexcept") ? innermostScope(other.sections.slice(0, other.sections.indexOf(own))) : own;
    if (section === null) continue;
    usersBySection.set(section, [...(usersBySection.get(section) ?? []), other]);
  }
  for (const { entry, scope } of granting) {
    const users = usersBySection.get(scope) ?? [];
    if (users.length === 0) continue;
    const text = entry.directive.node.raw.trim();
    const user = users[0]!.directive.node.raw.trim();
    const claimed = claimedDetection(context, entry, {
      cause: `2.4 reads "${text}" beside "${user}" as an implicit <RequireAny>: anyone it admits gets in without a password. 2.2 never read this line`,
      unpredicted: `2.4 reads "${text}" beside "${user}" as an implicit <RequireAny>: anyone it admits gets in without a password. 2.2 never read this line and asked for the password`,
      fix: `Drop "${text}" here (the user requirement is the 2.4 rule), or write <RequireAll> ${text} / ${user} </RequireAll> if both are meant`,
      severity: "security",
      related: users.map((other) => other.directive.span),
    });
    if (claimed !== null) found.push(claimed);
  }
  return found;
}

export const A3: Rule = {
  id: "A3",
  seed: ["A3", "A1", "M1"],
  title: "Require ip/host/all/env/local: a user requirement on 2.2, an authorization that grants (implicitly OR-ed with valid-user) on 2.4",
  severity: "security",
  security: true,
  detect,
  recognise: (evidence) => {
    const kind = widening(evidence);
    if (kind === null && !(evidence.field === "status" && evidence.status.baseline === 500 && evidence.status.candidate !== null && evidence.status.candidate < 400)) return null;
    const findings = governingFindings(evidence, "A3");
    if (findings.length === 0) return null;
    const lines = findings.map((finding) => ({ file: finding.file, line: finding.line }));
    if (kind === "password") {
      return { summary: `2.2 asked for a password on ${evidence.request!.path} (401), 2.4 answered ${evidence.status.candidate} without one: a Require ip/host/all line grants on 2.4`, lines, severity: "security" };
    }
    return { summary: `2.2 answered ${evidence.status.baseline} on ${evidence.request!.path}, 2.4 ${evidence.status.candidate}: 2.4 grants by a Require ip/host/all line 2.2 read as a user requirement`, lines, severity: kind === "refusal" ? "security" : "behaviour" };
  },
  fix: "To need both a user and an address write <RequireAll> Require valid-user / Require ip ... </RequireAll>; put 2.4-only Require lines under <IfModule mod_authz_core.c> and keep 2.2's Order/Allow under <IfModule !mod_authz_core.c>.",
  help: "Guide: several Require directives without a container are an implicit <RequireAny> (A3); host checks are Require ip/host (A1, M1). Real servers: 401 on 2.2, 200 on 2.4 for a partial port that adds Require ip beside Require valid-user.",
  sample: {
    config: [
      "<Directory /usr/local/apache2/htdocs/members>",
      "    AuthType Basic",
      '    AuthName "members"',
      "    AuthUserFile /usr/local/apache2/conf/members.passwd",
      "    Require valid-user",
      "    Require all granted",
      "</Directory>",
    ].join("\n"),
    modules: ["auth_basic", "authn_file", "authz_user", "authz_host"],
    request: "/members/",
    on24: "starts",
    files: { "htdocs/members/index.html": "members\n", "conf/members.passwd": "alice:$apr1$tnvw49ed$0hlmL.O1MV1oDc4pCEb/i/\n" },
  },
};
