// How reading a configuration differs between release lines, as data keyed by family, so the evaluator asks
// "does this version do X" and never compares version strings. Each entry says where in httpd's source it comes
// from (tags 2.2.34 and 2.4.62 of github.com/apache/httpd).
import type { Family } from "../versions/httpd-version.ts";

export interface ConfTraits {
  /** `IncludeOptional` exists (2.4 server/core.c core_cmds; absent from 2.2, where it is an invalid command). */
  includeOptional: boolean;
  /** Which path components of an Include may hold wildcards. 2.2 config.c ap_process_resource_config: the last
   * one only ("Wildcard patterns not allowed in Include"); 2.4 util.c ap_dir_fnmatch: any component. */
  includeWildcards: "last-component" | "any-component";
  /** A wildcard Include that matches nothing: 2.4 ap_dir_fnmatch fails ("No matches for the wildcard ...")
   * unless IncludeOptional; 2.2 reads nothing and goes on. */
  includeWildcardWithoutMatch: "refuse" | "ignore";
  /** `Define` / `UnDefine` exist (2.4 core.c set_define, unset_define; EXEC_ON_READ, so they act in file
   * order wherever they are written). */
  define: boolean;
  /** Where `${NAME}` is looked up (ap_resolve_env): 2.4 Define'd values then the environment; 2.2 the
   * environment only. Undefined ones stay as written either way. */
  variableSources: ReadonlyArray<"define" | "environment">;
  /** 2.4 logs AH00111 "Config variable ${X} is not defined" (not for names holding ':'); 2.2 says nothing. */
  warnsUndefinedVariable: boolean;
  /** Conditional sections of core besides IfModule and IfDefine (2.4: IfFile, IfDirective, IfSection). */
  coreConditionals: readonly string[];
  /** Module ids whose presence makes `<IfVersion>` and `<Macro>`/`Use` work. */
  versionModule: string;
  macroModule: string;
}

export const CONF_TRAITS: Readonly<Record<Family, ConfTraits>> = {
  "2.2": {
    includeOptional: false,
    includeWildcards: "last-component",
    includeWildcardWithoutMatch: "ignore",
    define: false,
    variableSources: ["environment"],
    warnsUndefinedVariable: false,
    coreConditionals: [],
    versionModule: "version_module",
    macroModule: "macro_module",
  },
  "2.4": {
    includeOptional: true,
    includeWildcards: "any-component",
    includeWildcardWithoutMatch: "refuse",
    define: true,
    variableSources: ["define", "environment"],
    warnsUndefinedVariable: true,
    coreConditionals: ["iffile", "ifdirective", "ifsection"],
    versionModule: "version_module",
    macroModule: "macro_module",
  },
};

export function confTraits(family: Family): ConfTraits {
  return CONF_TRAITS[family];
}
