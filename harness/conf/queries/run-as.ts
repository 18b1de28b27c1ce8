// User and Group the children run as. Both are global (2.2 core/unixd, 2.4 mod_unixd): the main server's last
// line wins; a User inside <VirtualHost> is not the process user.
import type { EffectiveConfig } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { serverDirectives } from "./walk-config.ts";

export interface RunAs {
  user: { value: string; span: Span } | null;
  group: { value: string; span: Span } | null;
}

export function runAs(config: EffectiveConfig): RunAs {
  const last = (key: string) => {
    const entry = serverDirectives(config, null, key).at(-1);
    const value = entry?.directive.args[0];
    return entry === undefined || value === undefined ? null : { value, span: entry.directive.span };
  };
  return { user: last("user"), group: last("group") };
}
