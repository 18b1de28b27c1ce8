// X2: Require is mod_authz_core's on 2.4, and each of its providers is a module of its own: `Require
// valid-user` needs mod_authz_user, `Require group` mod_authz_groupfile, `Require ip` mod_authz_host. Without
// mod_authz_core the line is an invalid command; with it but without the provider's module, the config test
// fails with "Unknown Authz provider: valid-user" (both recorded on 2.4).
import { walkConfig } from "../conf/queries/walk-config.ts";
import { detection } from "./detection.ts";
import { ownedLineOnce } from "./owned-line-once.ts";
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Detection, Rule } from "./rule.ts";

/** The 2.4 module that registers each authz provider (httpd 2.4's authz_*_provider registrations). */
export const AUTHZ_PROVIDERS: Readonly<Record<string, string>> = {
  "valid-user": "authz_user_module",
  user: "authz_user_module",
  group: "authz_groupfile_module",
  "file-owner": "authz_owner_module",
  "file-group": "authz_owner_module",
  "dbm-group": "authz_dbm_module",
  "dbm-file-group": "authz_dbm_module",
  "dbd-group": "authz_dbd_module",
  "dbd-login": "authz_dbd_module",
  "dbd-logout": "authz_dbd_module",
  "ldap-user": "authnz_ldap_module",
  "ldap-group": "authnz_ldap_module",
  "ldap-dn": "authnz_ldap_module",
  "ldap-attribute": "authnz_ldap_module",
  "ldap-filter": "authnz_ldap_module",
  "ldap-search": "authnz_ldap_module",
  ip: "authz_host_module",
  host: "authz_host_module",
  local: "authz_host_module",
  "forward-dns": "authz_host_module",
  all: "authz_core_module",
  env: "authz_core_module",
  method: "authz_core_module",
  expr: "authz_core_module",
};

function moduleFile(id: string): string {
  return `modules/mod_${id.replace(/_module$/, "")}.so`;
}

export const X2: Rule = {
  id: "X2",
  seed: ["X2", "M1"],
  title: "Require needs mod_authz_core and the module of its provider on 2.4",
  severity: "blocking",
  perDirectory: true,
  owns: { modules: ["authz_core_module"] },
  // By name as written, once per lint: a large tree has a Require in every vhost.
  ownedLine: (node, context) =>
    ownedLineOnce(context, "X2", node.name, null, () => ({
      message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 has it in mod_authz_core, which this tree does not load`,
      fix: "LoadModule authz_core_module modules/mod_authz_core.so (and the module of each Require provider: mod_authz_user for valid-user, mod_authz_groupfile for group, mod_authz_host for ip/host)",
    })),
  // With mod_authz_core loaded: a provider whose module the target does not load.
  detect: (context) => {
    if (!context.loaded.target.has("authz_core_module")) return [];
    const found: Detection[] = [];
    for (const entry of walkConfig(context.target).byKey.get("require") ?? []) {
      const words = entry.directive.args;
      const provider = ((words[0] ?? "").toLowerCase() === "not" ? words[1] : words[0])?.toLowerCase();
      if (provider === undefined) continue;
      const module = AUTHZ_PROVIDERS[provider];
      if (module === undefined || context.loaded.target.has(module)) continue;
      found.push(detection(entry, `2.4 refuses to start: Unknown Authz provider: ${provider} (AH00526): the provider is mod_${module.replace(/_module$/, "")}'s, which this tree does not load on 2.4`, `LoadModule ${module} ${moduleFile(module)}`));
    }
    return found;
  },
  recognise: (evidence) =>
    refusalClaim(evidence, /Unknown Authz provider: (\S+)/, (refusal) => {
      const module = AUTHZ_PROVIDERS[refusal.match[1]!.toLowerCase()];
      return `2.4 has no authz provider '${refusal.match[1]}'${module ? `: load mod_${module.replace(/_module$/, "")}` : ""}`;
    }) ?? refusalClaim(evidence, invalidCommandPattern(["Require"]), () => "2.4 refuses 'Require': load mod_authz_core and an authz provider module"),
  fix: "LoadModule authz_core_module modules/mod_authz_core.so, and for each Require provider its module: valid-user/user → mod_authz_user, group → mod_authz_groupfile, ip/host/local → mod_authz_host, dbm-group → mod_authz_dbm, ldap-* → mod_authnz_ldap, file-owner/file-group → mod_authz_owner.",
  help: "Guide: Invalid command 'Require' => load mod_authn_core and an authz module (recorded: the directive itself is mod_authz_core's; a missing provider module gives 'Unknown Authz provider').",
  sample: { config: "<Directory htdocs>\n    Require valid-user\n</Directory>", on24: "refuses" },
};
