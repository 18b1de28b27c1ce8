// R1-R6: the Authz*Authoritative directives are gone; 2.4's authorization decides through Require containers
// (<RequireAny>, <RequireAll>, <RequireNone>) instead of falling through modules. Each is an invalid command on
// 2.4 even with its module loaded (recorded for all six).
import { invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

const ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ["R1", "AuthzLDAPAuthoritative", "authnz_ldap"],
  ["R2", "AuthzDBDAuthoritative", "authz_dbd"],
  ["R3", "AuthzDBMAuthoritative", "authz_dbm"],
  ["R4", "AuthzGroupFileAuthoritative", "authz_groupfile"],
  ["R5", "AuthzUserAuthoritative", "authz_user"],
  ["R6", "AuthzOwnerAuthoritative", "authz_owner"],
];

function authoritativeRule(id: string, directive: string, module: string): Rule {
  return {
    id,
    seed: [id],
    title: `${directive} is removed`,
    severity: "blocking",
    owns: { directives: [directive] },
    ownedLine: (node) => ({
      message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 removed it; Require containers decide instead`,
      fix: `remove ${node.name}; combine the Require lines with <RequireAny> (any one grants, what "${node.name} Off" let through) or <RequireAll>`,
    }),
    recognise: (evidence) => refusalClaim(evidence, invalidCommandPattern([directive]), () => `2.4 refuses '${directive}': removed, use <RequireAny>/<RequireAll>`),
    fix: `Remove ${directive}; express the fall-through with <RequireAny>, <RequireAll> or <RequireNone>.`,
    help: `Guide, removed directives: ${directive} - replaced by RequireAny, RequireNone, RequireAll.`,
    sample: { config: `<Directory htdocs>\n    ${directive} Off\n</Directory>`, modules: [module], on24: "refuses" },
  };
}

export const AUTHZ_AUTHORITATIVE_RULES: readonly Rule[] = ROWS.map(([id, directive, module]) => authoritativeRule(id, directive, module));
