// U1: Basic authentication is written the same on both lines (AuthType Basic, AuthName, AuthUserFile,
// AuthBasicProvider, Require valid-user): 401 without and 200 with valid credentials on both, as the catalogue's
// basic-auth-valid-user scenario shows on real servers. Nothing to find or claim: what changes around it is other
// rows' (the modules it needs on 2.4: M4, X2; the 401 page's wording: error-document-wording). The rule holds the
// row's knowledge so that the registry names every row.
import type { Rule } from "./rule.ts";

export const U1: Rule = {
  id: "U1",
  seed: ["U1"],
  title: "Basic authentication (AuthType Basic, AuthUserFile, AuthName, Require valid-user) is unchanged",
  severity: "expected",
  fix: "Nothing to change; on 2.4 load mod_authn_core and mod_authz_core (and mod_authz_user for valid-user), see M4 and X2.",
  help: "Guide: AuthBasicProvider, AuthUserFile, AuthName and Require valid-user are unchanged; real 2.2.34 and 2.4 answer 401 without and 200 with credentials.",
};
