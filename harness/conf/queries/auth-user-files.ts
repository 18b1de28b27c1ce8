// The password and group files a config points authentication at: AuthUserFile, AuthGroupFile, AuthDBMUserFile
// and AuthDBMGroupFile. All four are ap_set_file_slot directives (mod_authn_file, mod_authz_groupfile,
// mod_authn_dbm, mod_authz_dbm, 2.2.34 and 2.4.62), which resolve a relative path against the ServerRoot when
// the line is read.
import type { EffectiveConfig, EffectiveSection } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { isAccessSection } from "./access-sections.ts";
import { resolveServerPath } from "./server-root.ts";
import { directivesNamed, enclosingVirtualHost } from "./walk-config.ts";

export interface AuthUserFile {
  directive: string;
  kind: "users" | "groups";
  dbm: boolean;
  /** As written. */
  value: string;
  /** Absolute inside the server. */
  path: string;
  /** The innermost Directory/Location/Files section it is in, or null. */
  section: EffectiveSection | null;
  vhost: EffectiveSection | null;
  span: Span;
}

export function authUserFiles(config: EffectiveConfig): AuthUserFile[] {
  return directivesNamed(config, "authuserfile", "authgroupfile", "authdbmuserfile", "authdbmgroupfile").flatMap((entry) => {
    const value = entry.directive.args[0];
    if (value === undefined) return [];
    const key = entry.directive.key;
    return [{
      directive: entry.directive.name,
      kind: key.endsWith("userfile") ? "users" : "groups",
      dbm: key.startsWith("authdbm"),
      value,
      path: resolveServerPath(config, value, { readAt: entry.index }),
      section: entry.sections.findLast(isAccessSection) ?? null,
      vhost: enclosingVirtualHost(entry.sections),
      span: entry.directive.span,
    }];
  });
}
