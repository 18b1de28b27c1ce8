// Alias, AliasMatch, ScriptAlias and ScriptAliasMatch: the URL they map and the file system path they map it to.
// mod_alias makes the target absolute against the ServerRoot per request (try_alias_list:
// ap_server_root_relative, 2.2.34 and 2.4.62), so a relative target is resolved against the final ServerRoot.
// 2.4 also takes the one-argument form inside <Location> (mod_alias.c add_alias: TAKE12, the argument an
// expression, the Location's path the URL); 2.2's Alias and ScriptAlias take exactly two (TAKE2).
import type { EffectiveConfig, EffectiveSection } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { resolveServerPath } from "./server-root.ts";
import { directivesNamed, enclosingVirtualHost } from "./walk-config.ts";

export interface AliasTarget {
  directive: "Alias" | "AliasMatch" | "ScriptAlias" | "ScriptAliasMatch";
  /** The URL path, or the regular expression of a *Match; for the one-argument form, the Location's path (null
   * when it has none). */
  url: string | null;
  regex: boolean;
  /** Whether the target holds CGI scripts (ScriptAlias*). */
  cgi: boolean;
  /** As written. */
  target: string;
  /** Absolute inside the server; null when it starts with a back-reference ($1) only a request can fill. */
  path: string | null;
  /** The `<VirtualHost>` it belongs to, or null for the main server. */
  vhost: EffectiveSection | null;
  span: Span;
}

const NAMES = { alias: "Alias", aliasmatch: "AliasMatch", scriptalias: "ScriptAlias", scriptaliasmatch: "ScriptAliasMatch" } as const;

/** Per config value (never changed once evaluated): the probe planner maps thousands of URLs through them. */
const cache = new WeakMap<EffectiveConfig, AliasTarget[]>();

export function aliasTargets(config: EffectiveConfig): AliasTarget[] {
  const known = cache.get(config);
  if (known) return known;
  const targets = readAliasTargets(config);
  cache.set(config, targets);
  return targets;
}

function readAliasTargets(config: EffectiveConfig): AliasTarget[] {
  return directivesNamed(config, ...Object.keys(NAMES)).flatMap((entry) => {
    const directive = NAMES[entry.directive.key as keyof typeof NAMES];
    const args = entry.directive.args;
    const location = entry.sections.findLast((section) => section.key === "location" || section.key === "locationmatch");
    const [url, target] = args.length >= 2 ? [args[0]!, args[1]!] : [location?.args.at(-1) ?? null, args[0]];
    if (target === undefined || (args.length < 2 && (config.version.family === "2.2" || location === undefined))) return [];
    return [{
      directive,
      url,
      regex: directive.endsWith("Match") || (args.length < 2 && location?.key === "locationmatch"),
      cgi: directive.startsWith("Script"),
      target,
      path: target.startsWith("$") ? null : resolveServerPath(config, target, "final"),
      vhost: enclosingVirtualHost(entry.sections),
      span: entry.directive.span,
    }];
  });
}
