// Q1-Q6: the guide's old-to-new table. 2.2's Order/Allow/Deny/Satisfy keep working on 2.4 only through
// mod_access_compat; this rule writes the same policy with Require, from what the real servers did rather
// than from the table's wording (catalogue authz/, confirmed on 2.2.34 and 2.4.68):
//   Q1 Order deny,allow + Deny from all == Require all denied;  Q2 Order allow,deny + Allow from all == Require
//   all granted;  Q3 ... + Allow from <domain> == Require host <domain>;  Q5 Satisfy All + Allow from <ip> +
//   valid-user == <RequireAll>;  Q6 Satisfy Any == <RequireAny>: all the same statuses on both.
//   Q4: the guide's "snippet that disables host-based control" (Order Deny,Allow + Deny from all) under Satisfy
//   All refuses every client on 2.2, password or not (403); dropping it on 2.4 gives 401/200. The translation
//   keeps 2.2's meaning (Require all denied) and says so.
//   Q6: the guide's 2.2 text (Order allow,deny + Deny from all + Satisfy any) admits by password only on 2.2
//   (401 for the listed address without credentials); its "equivalent" Require ip admits that address on 2.4.
// "Allow overrides Deny" (Order deny,allow with a partial Deny) is written <RequireAny> Require ip A /
// <RequireAll> Require all granted, Require not ip D </RequireAll> </RequireAny>: run on 2.4.68 it admits A
// inside D (200) and refuses the rest of D (403, AH01630), as 2.2's Order deny,allow does.
// Where the target does not load mod_access_compat the lines are refused at start (the invalid-command pass).
import type { EffectiveSection } from "../conf/effective-config.ts";
import { walkConfig, type WalkedDirective } from "../conf/queries/walk-config.ts";
import type { Probe } from "../plan/probes/probe.ts";
import { HOST_PROVIDERS, innermostScope, ownDirectives, requireLine } from "./access-scope.ts";
import { governedCells, governingSection, NOT_REACHED, whyOf } from "./access-outcome.ts";
import { detection } from "./detection.ts";
import type { LintContext } from "./lint-context.ts";
import type { Detection, Rule } from "./rule.ts";

/** A 2.4 authorization: granted, denied, Require lines, or a container. */
export type Policy =
  | { kind: "granted" }
  | { kind: "denied" }
  | { kind: "lines"; lines: string[] }
  | { kind: "all" | "any"; parts: Policy[] };

const GRANTED: Policy = { kind: "granted" };
const DENIED: Policy = { kind: "denied" };

/** `Allow from X` / `Deny from X` hosts as Require arguments ("ip 10.0.0.0/8", "host example.org", "env X"). */
export function hostRequirement(spec: string): string {
  const env = /^env=(!?)(.+)$/i.exec(spec);
  if (env) return `${env[1] === "!" ? "not " : ""}env ${env[2]}`;
  if (/^[0-9.]+(\/[0-9.]+)?$/.test(spec) || spec.includes(":")) return `ip ${spec}`;
  return `host ${spec}`;
}

// Several positive lines are OR-ed only on their own or in <RequireAny>: inside <RequireAll> they would be AND-ed.
function either(lines: readonly string[]): Policy {
  const policy: Policy = { kind: "lines", lines: [...lines] };
  return lines.length > 1 ? { kind: "any", parts: [policy] } : policy;
}

/** One line per provider: `Require ip` and `Require host` take several addresses or names. */
function grouped(specs: readonly string[], prefix: string): string[] {
  const byProvider = new Map<string, string[]>();
  const lines: string[] = [];
  for (const spec of specs) {
    const [provider, ...rest] = hostRequirement(spec).split(" ");
    if (provider === "ip" || provider === "host") byProvider.set(provider, [...(byProvider.get(provider) ?? []), ...rest]);
    else lines.push(`${prefix}${provider} ${rest.join(" ")}`.replace("not not ", ""));
  }
  return [...[...byProvider].map(([provider, values]) => `${prefix}${provider} ${values.join(" ")}`), ...lines];
}

function anyOf(specs: readonly string[]): Policy {
  return either(grouped(specs, "Require "));
}

function noneOf(specs: readonly string[]): Policy {
  // Negated lines cannot grant: a RequireAll with "all granted" makes "everyone but these" a policy that can.
  return { kind: "all", parts: [{ kind: "lines", lines: ["Require all granted"] }, { kind: "lines", lines: grouped(specs, "Require not ") }] };
}

/** 2.2's host check (mod_authz_host's Order/Allow/Deny) as a 2.4 policy. */
export function hostPolicy(order: string, allows: readonly string[], denies: readonly string[]): Policy {
  const allowAll = allows.some((spec) => spec.toLowerCase() === "all");
  const denyAll = denies.some((spec) => spec.toLowerCase() === "all");
  if (order.replace(/\s+/g, "").toLowerCase() === "deny,allow") {
    // Allowed unless denied; an Allow overrides a Deny.
    if (allowAll || denies.length === 0) return GRANTED;
    if (denyAll) return allows.length === 0 ? DENIED : anyOf(allows);
    return allows.length === 0 ? noneOf(denies) : { kind: "any", parts: [anyOf(allows), noneOf(denies)] };
  }
  // allow,deny (and mutual-failure): denied unless allowed; a Deny overrides an Allow.
  if (denyAll || allows.length === 0) return DENIED;
  if (denies.length === 0) return allowAll ? GRANTED : anyOf(allows);
  if (allowAll) return noneOf(denies);
  return { kind: "all", parts: [anyOf(allows), { kind: "lines", lines: grouped(denies, "Require not ") }] };
}

/** The host check combined with the user requirement under Satisfy All (both) or Any (either). */
export function combined(host: Policy, users: readonly string[], satisfy: "all" | "any"): Policy {
  if (users.length === 0) return host;
  const user = either(users);
  if (satisfy === "all") {
    if (host.kind === "granted") return user;
    if (host.kind === "denied") return DENIED;
    return { kind: "all", parts: [user, ...(host.kind === "all" ? host.parts : [host])] };
  }
  if (host.kind === "granted") return GRANTED;
  if (host.kind === "denied") return user;
  const flat = (policy: Policy): Policy[] => (policy.kind === "any" ? policy.parts : [policy]);
  return { kind: "any", parts: [...flat(user), ...flat(host)] };
}

/** The policy as Require lines and containers, indented by `depth`. */
export function render(policy: Policy, depth = 0): string {
  const pad = "    ".repeat(depth);
  switch (policy.kind) {
    case "granted":
      return `${pad}Require all granted`;
    case "denied":
      return `${pad}Require all denied`;
    case "lines":
      return policy.lines.map((line) => pad + line).join("\n");
    default: {
      const name = policy.kind === "all" ? "RequireAll" : "RequireAny";
      return [`${pad}<${name}>`, ...policy.parts.map((part) => render(part, depth + 1)), `${pad}</${name}>`].join("\n");
    }
  }
}

function ownLines(entries: readonly WalkedDirective[], scope: EffectiveSection | null, key: string): WalkedDirective[] {
  return entries.filter((entry) => entry.directive.key === key && innermostScope(entry.sections) === scope);
}

function detect(context: LintContext): Detection[] {
  if (!context.loaded.target.has("access_compat_module")) return [];
  const walked = walkConfig(context.target);
  const scopes = [...new Set(["order", "allow", "deny", "satisfy"].flatMap((key) => walked.byKey.get(key) ?? []).map((entry) => innermostScope(entry.sections)))].filter(
    (scope): scope is EffectiveSection => scope !== null,
  );
  const read22 = new Set((walkConfig(context.source).byKey.get("require") ?? []).map((entry) => `${entry.directive.span.file}:${entry.directive.span.line}`));
  const found: Detection[] = [];
  for (const scope of scopes) {
    const mine = ownDirectives(context.target, scope, "order", "allow", "deny", "satisfy");
    const requires = ownDirectives(context.target, scope, "require");
    // Already ported (a Require only 2.4 reads): the A5 rule speaks about mixing.
    if (requires.some((entry) => !read22.has(`${entry.directive.span.file}:${entry.directive.span.line}`))) continue;
    const order = ownLines(mine, scope, "order").at(-1)?.directive.args.join("") ?? "deny,allow";
    const from = (key: string) => ownLines(mine, scope, key).flatMap((entry) => entry.directive.args.slice(entry.directive.args[0]?.toLowerCase() === "from" ? 1 : 0));
    const allows = from("allow");
    const denies = from("deny");
    // A lone Order is a policy too: 2.2's mod_authz_host has no merger, so a section with any of its lines replaces
    // what it inherits, and `Order allow,deny` alone denies everyone (the Drupal-era <FilesMatch> idiom).
    if (allows.length === 0 && denies.length === 0 && ownLines(mine, scope, "order").length === 0) continue;
    const satisfy = ownLines(mine, scope, "satisfy").at(-1)?.directive.args[0]?.toLowerCase() === "any" ? "any" : "all";
    const users = requires.map((entry) => entry.directive).filter((directive) => {
      const line = requireLine(directive);
      return line !== null && !HOST_PROVIDERS.has(line.provider);
    }).map((directive) => directive.node.raw.trim());
    const host = hostPolicy(order, allows, denies);
    const policy = combined(host, users, satisfy);
    const notes: string[] = [];
    // Each note's prediction in words, the place's own (the message stays the cause's).
    const predicted: string[] = [];
    // What 2.2 does here, from the model prove checks over the requests the section governs: said where it agrees.
    if (users.length > 0 && satisfy === "all" && host.kind === "denied") {
      const on22 = twoTwo(context, scope, (cell) => cell.outcome === "denied");
      if (on22 !== null) {
        notes.push(`2.2 refuses every client here, even with a password (${on22.words}; the guide's Q4 advice to drop the host lines would open it to users)`);
        predicted.push(`2.2 refuses every client here: ${on22.text}`);
      }
    }
    if (users.length > 0 && satisfy === "any" && host.kind === "denied") {
      const on22 = twoTwo(context, scope, (cell, probe) => (probe.credentials === "valid") === (cell.outcome === "served" || cell.outcome === "redirected"));
      if (on22 !== null) {
        notes.push(`these host lines admit no one on 2.2, so only the password does (${on22.words}; not Require ip beside Require valid-user, as the guide's Q6 row has it)`);
        predicted.push(`only the password admits on 2.2: ${on22.text}`);
      }
    }
    const first = ownLines(mine, scope, "order")[0] ?? mine.find((entry) => entry.directive.key !== "satisfy")!;
    found.push(
      detection(
        first,
        `Order/Allow/Deny work on 2.4 only through mod_access_compat; the same policy in 2.4's Require form is given as the fix${notes.length > 0 ? `. Note: ${notes.join("; ")}` : ""}`,
        render(policy),
        { related: mine.filter((entry) => entry !== first).map((entry) => entry.directive.span), ...(predicted.length === 0 ? {} : { predicted: predicted.join("; ") }) },
      ),
    );
  }
  return found;
}

/** Whether every request the section governs gets on 2.2 what `holds` asks, by the model prove checks: the words
 * the message says ("predicted by the access model", the same at every place of the cause) and the place's own
 * ("predicted by the access model for the 12 requests probed here"), null where the model says otherwise, and
 * where it cannot tell, "not predicted" and the reason (the note is the rule's own reading then). */
function twoTwo(context: LintContext, scope: EffectiveSection, holds: (prediction: { outcome: string }, probe: Probe) => boolean): { words: string; text: string } | null {
  const notPredicted = (why: string) => ({ words: "not predicted", text: `not predicted: ${why}` });
  const governing = governingSection([scope]);
  if (governing.obstacle !== null) return notPredicted(governing.obstacle);
  const cells = governedCells(context, { section: governing.section, view: "2.4", aspect: "access" });
  if (!Array.isArray(cells)) return notPredicted(cells.over);
  if (cells.length === 0) return notPredicted(NOT_REACHED);
  const unpredicted = cells.find((cell) => cell["2.2"].outcome === "unpredicted");
  if (unpredicted !== undefined) return notPredicted(whyOf(unpredicted));
  return cells.every((cell) => holds(cell["2.2"], cell.probe)) ? { words: "predicted by the access model", text: `predicted by the access model for the ${cells.length} requests probed here` } : null;
}

export const ORDER_ALLOW_DENY_TO_REQUIRE: Rule = {
  id: "order-allow-deny-to-require",
  seed: ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "A2"],
  title: "Order/Allow/Deny/Satisfy work on 2.4 only through mod_access_compat: write the same policy with Require",
  severity: "deprecated",
  detect,
  fix: "Order deny,allow + Deny from all → Require all denied; Order allow,deny + Allow from all → Require all granted; Deny from all + Allow from X → Require ip|host X; Satisfy All with a user → <RequireAll>; Satisfy Any → <RequireAny>.",
  help: "Guide, old-to-new table (Q1-Q6); the catalogue's authz scenarios record where the table's 2.2 text means something else on a real 2.2 (Q4, Q6).",
  sample: { config: "<Directory /usr/local/apache2/htdocs>\n    Order allow,deny\n    Allow from all\n</Directory>", modules: ["access_compat"], request: "/", on24: "starts" },
};
