// N3: AuthnProviderAlias moved from mod_authn_alias (2.2) into mod_authn_core; 2.4 has no mod_authn_alias.so,
// so a 2.2 config loading it fails the config test, and the section is an invalid command without authn_core.
import { cannotLoadPattern, invalidCommandPattern, refusalClaim } from "./refusal-evidence.ts";
import type { Rule } from "./rule.ts";

export const N3: Rule = {
  id: "N3",
  seed: ["N3"],
  title: "AuthnProviderAlias is in mod_authn_core; mod_authn_alias is gone",
  severity: "blocking",
  owns: { moduleFiles: ["mod_authn_alias.so"], directives: ["AuthnProviderAlias"] },
  ownedLine: (node) =>
    node.key === "loadmodule"
      ? { message: "2.4 refuses to start: 2.4 has no mod_authn_alias.so (Cannot load ... into server); AuthnProviderAlias is in mod_authn_core", fix: "LoadModule authn_core_module modules/mod_authn_core.so" }
      : { message: "2.4 refuses to start: Invalid command '<AuthnProviderAlias' (AH00526): it is in mod_authn_core on 2.4, which this tree does not load", fix: "LoadModule authn_core_module modules/mod_authn_core.so" },
  recognise: (evidence) =>
    refusalClaim(evidence, cannotLoadPattern(["mod_authn_alias.so"]), () => "2.4 has no mod_authn_alias.so: AuthnProviderAlias is in mod_authn_core") ??
    refusalClaim(evidence, invalidCommandPattern(["AuthnProviderAlias"]), () => "2.4 refuses <AuthnProviderAlias>: load mod_authn_core"),
  fix: "Replace LoadModule authn_alias_module modules/mod_authn_alias.so with LoadModule authn_core_module modules/mod_authn_core.so; the <AuthnProviderAlias> sections stay as they are.",
  help: "Guide, renamed: AuthnProviderAlias (formerly in mod_authn_alias) is provided by mod_authn_core.",
  sample: { config: "LoadModule authn_alias_module modules/mod_authn_alias.so", on24: "refuses" },
};
