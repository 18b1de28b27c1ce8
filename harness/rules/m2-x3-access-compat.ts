// M2, X3: Order, Allow, Deny and Satisfy are mod_access_compat's on 2.4; a 2.2 config that never loads it
// fails the config test with "Invalid command 'Order', ...". Two ways out: load mod_access_compat (the old
// rules keep working, with 2.4's merging), or write the rule as Require (the hint gives the line's Require).
import type { EffectiveDirective, EffectiveSection } from "../conf/effective-config.ts";
import { ownedLineOnce } from "./owned-line-once.ts";
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

const LOAD = "LoadModule access_compat_module modules/mod_access_compat.so";

/** An Allow/Deny address: a (partial) IPv4 address, network/netmask or /bits, or an IPv6 one; else a host. */
function isAddress(word: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){0,3}\.?(\/[\d.]+)?$/.test(word) || (word.includes(":") && /^[0-9a-f:.]+(\/\d+)?$/i.test(word));
}

/** The Require line(s) that say what one Allow/Deny/Satisfy line says, or null when none does alone (Order). */
export function requireTranslation(node: EffectiveDirective | EffectiveSection): string | null {
  const args = node.args;
  if (node.key === "satisfy") return (args[0] ?? "").toLowerCase() === "any" ? "<RequireAny> around the Require lines" : "<RequireAll> around the Require lines";
  if (node.key !== "allow" && node.key !== "deny") return null;
  if ((args[0] ?? "").toLowerCase() !== "from") return null;
  const not = node.key === "deny" ? "not " : "";
  const lines: string[] = [];
  const ips: string[] = [];
  const hosts: string[] = [];
  for (const word of args.slice(1)) {
    const lower = word.toLowerCase();
    if (lower === "all") lines.push(node.key === "deny" ? "Require all denied" : "Require all granted");
    else if (lower.startsWith("env=")) lines.push(`Require ${not}env ${word.slice(4).replace(/^!/, "")}`);
    else if (isAddress(word)) ips.push(word);
    else hosts.push(word);
  }
  if (ips.length > 0) lines.push(`Require ${not}ip ${ips.join(" ")}`);
  if (hosts.length > 0) lines.push(`Require ${not}host ${hosts.join(" ")}`);
  return lines.length > 0 ? lines.join("\n") : null;
}

export const M2: Rule = {
  id: "M2",
  seed: ["M2", "X3"],
  title: "Order, Allow, Deny and Satisfy need mod_access_compat on 2.4",
  severity: "blocking",
  owns: { modules: ["access_compat_module"] },
  // The words depend on the name as written and the arguments only: made once per lint for each.
  ownedLine: (node, context) =>
    ownedLineOnce(context, "M2", node.name, node.args, () => {
      const require = requireTranslation(node);
      return {
        message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 has it in mod_access_compat, which this tree does not load`,
        fix: require === null ? `${LOAD}, or write the rule with Require (Order has no Require of its own)` : `${require}\n(or keep the line and ${LOAD})`,
      };
    }),
  recognise: (evidence) => refusalClaim(evidence, invalidCommandPattern(["Order", "Allow", "Deny", "Satisfy"]), (refusal) => `2.4 refuses '${refusal.match[1]}': load mod_access_compat or use Require`),
  fix: `${LOAD}; or, better, replace Order/Allow/Deny/Satisfy with Require (Allow from all → Require all granted, Deny from all → Require all denied, Allow from 10.0.0.0/8 → Require ip 10.0.0.0/8, Allow from example.org → Require host example.org, Satisfy any → <RequireAny>).`,
  help: "Guide: mod_access_compat keeps Order/Allow/Deny/Satisfy; error Invalid command 'Order' => load mod_access_compat.",
  sample: { config: "<Directory htdocs>\n    Order deny,allow\n    Deny from all\n</Directory>", modules: ["authz_host"], on24: "refuses" },
};
