// M4, X6: AuthType and AuthName are mod_authn_core's on 2.4 (core's on 2.2); 2.2's mod_authn_default and
// mod_authz_default (and their Auth*DefaultAuthoritative) are gone, their job done by mod_authn_core and
// mod_authz_core. Without mod_authn_core a request needing authentication is a 500 ("configuration error:
// couldn't check user"), and its directives are invalid commands.
import { candidateLogs } from "./evidence.ts";
import { ownedLineOnce } from "./owned-line-once.ts";
import { cannotLoadPattern, invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

const GONE_FILES = ["mod_authn_default.so", "mod_authz_default.so"];
const GONE_DIRECTIVES = ["AuthDefaultAuthoritative", "AuthzDefaultAuthoritative"];
const LOAD = "LoadModule authn_core_module modules/mod_authn_core.so";

export const M4: Rule = {
  id: "M4",
  seed: ["M4", "X6"],
  title: "AuthType and AuthName need mod_authn_core on 2.4; mod_authn_default and mod_authz_default are gone",
  severity: "blocking",
  owns: { modules: ["authn_core_module"], moduleFiles: GONE_FILES, directives: GONE_DIRECTIVES },
  ownedLine: (node, context) => {
    if (node.key === "loadmodule") {
      const file = (node.args[1] ?? "").split("/").pop() ?? "";
      const core = file.includes("authz") ? "LoadModule authz_core_module modules/mod_authz_core.so" : LOAD;
      return { message: `2.4 refuses to start: 2.4 has no ${file} (Cannot load ... into server); ${file.includes("authz") ? "mod_authz_core" : "mod_authn_core"} does its job`, fix: core };
    }
    if (GONE_DIRECTIVES.some((name) => name.toLowerCase() === node.key)) {
      return { message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 has no such directive (its module is gone)`, fix: "remove it; 2.4 falls through to the next provider by itself, and <RequireAny>/<RequireAll> decide how Require lines combine" };
    }
    // By name as written, once per lint: every vhost's AuthType and AuthName.
    return ownedLineOnce(context, "M4", node.name, null, () => ({ message: `2.4 refuses to start: Invalid command '${node.name}' (AH00526): 2.4 has it in mod_authn_core, which this tree does not load`, fix: LOAD }));
  },
  recognise: (evidence) => {
    const refused =
      refusalClaim(evidence, cannotLoadPattern(GONE_FILES), (refusal) => `2.4 has no ${refusal.match[2]}: mod_authn_core/mod_authz_core replace it`) ??
      refusalClaim(evidence, invalidCommandPattern(["AuthType", "AuthName", ...GONE_DIRECTIVES]), (refusal) => `2.4 refuses '${refusal.match[1]}': load mod_authn_core`);
    if (refused !== null) return refused;
    // X6: the request-time form, a 500.
    if (evidence.request === null || evidence.status.candidate !== 500) return null;
    const line = candidateLogs(evidence, /couldn't check user/);
    return line.length > 0 ? { summary: "500 on 2.4: configuration error: couldn't check user (load mod_authn_core)", severity: "behaviour" } : null;
  },
  fix: `${LOAD}; drop LoadModule lines of mod_authn_default/mod_authz_default and AuthDefaultAuthoritative/AuthzDefaultAuthoritative.`,
  help: "Guide: mod_authn_core must be loaded to avoid the user-check configuration error (X6: configuration error: couldn't check user => load mod_authn_core).",
  sample: { config: "LoadModule authn_default_module modules/mod_authn_default.so", on24: "refuses" },
};
