// R1-R6: the Authz*Authoritative directives are gone; 2.4's authorization decides through Require containers
// (<RequireAny>, <RequireAll>, <RequireNone>) instead of falling through modules. Each is an invalid command on
// 2.4 even with its module loaded (recorded for all six).
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

// Row, directive, the modules its sample loads (on both versions), and what the real servers added to the guide.
const ROWS: ReadonlyArray<readonly [string, string, readonly string[], string]> = [
  ["R1", "AuthzLDAPAuthoritative", ["ldap", "authnz_ldap"], ""],
  // 2.2 has no mod_authz_dbd: its sample loads what both have (mod_dbd, mod_authn_dbd).
  ["R2", "AuthzDBDAuthoritative", ["dbd", "authn_dbd"], " Recorded: 2.2.34 never had it either (mod_authz_dbd came with 2.4), so 2.2 refuses it as well."],
  ["R3", "AuthzDBMAuthoritative", ["authz_dbm"], ""],
  ["R4", "AuthzGroupFileAuthoritative", ["authz_groupfile"], ""],
  ["R5", "AuthzUserAuthoritative", ["authz_user"], ""],
  ["R6", "AuthzOwnerAuthoritative", ["authz_owner"], ""],
];

function authoritativeRule(id: string, directive: string, modules: readonly string[], recorded: string): Rule {
  return {
    id,
    seed: [id],
    title: `${directive} is removed`,
    severity: "blocking",
    owns: { directives: [directive] },
    ownedLine: (node, context) => ({
      message:
        context.directives["2.2"].modulesOf(node.key).length > 0
          ? `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 removed it; Require containers decide instead`
          : `2.4 refuses to start: Invalid command '${node.name}' (AH00526): no httpd release has it (2.2 refuses it too); Require containers decide instead`,
      fix: `remove ${node.name}; combine the Require lines with <RequireAny> (any one grants, what "${node.name} Off" let through) or <RequireAll>`,
    }),
    recognise: (evidence) => refusalClaim(evidence, invalidCommandPattern([directive]), () => `2.4 refuses '${directive}': removed, use <RequireAny>/<RequireAll>`),
    fix: `Remove ${directive}; express the fall-through with <RequireAny>, <RequireAll> or <RequireNone>.`,
    help: `Guide, removed directives: ${directive} - replaced by RequireAny, RequireNone, RequireAll.${recorded}`,
    sample: {
      config: `<Directory htdocs>\n    ${directive} Off\n</Directory>`,
      modules: [...modules],
      on24: "refuses",
      ...(recorded === "" ? {} : { refusedBy22: recorded.trim() }),
    },
  };
}

export const AUTHZ_AUTHORITATIVE_RULES: readonly Rule[] = ROWS.map(([id, directive, modules, recorded]) => authoritativeRule(id, directive, modules, recorded));
