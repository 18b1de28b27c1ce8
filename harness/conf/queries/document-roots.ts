// DocumentRoot of the main server and of each virtual host. httpd makes it absolute against the ServerRoot of
// the moment it reads the line (core.c set_document_root: ap_server_root_relative); a vhost without one takes
// the main server's (core.c merge_core_server_configs).
import type { EffectiveConfig, EffectiveSection } from "../effective-config.ts";
import type { Span } from "../syntax-tree.ts";
import { resolveServerPath } from "./server-root.ts";
import { serverDirectives, virtualHostSections } from "./walk-config.ts";

export interface DocumentRoot {
  /** As written (after ${VAR} substitution). */
  value: string;
  /** Absolute inside the server. */
  path: string;
  span: Span;
  /** True when a vhost has none of its own and this is the main server's. */
  inherited: boolean;
}

export interface HostDocumentRoot {
  /** The `<VirtualHost>` section, or null for the main server. */
  vhost: EffectiveSection | null;
  /** null when the main server sets none: httpd then serves its compiled-in default (DOCUMENT_LOCATION). */
  documentRoot: DocumentRoot | null;
}

function ownDocumentRoot(config: EffectiveConfig, vhost: EffectiveSection | null): DocumentRoot | null {
  const last = serverDirectives(config, vhost, "documentroot").at(-1);
  const value = last?.directive.args[0];
  if (last === undefined || value === undefined) return null;
  return { value, path: resolveServerPath(config, value, { readAt: last.index }), span: last.directive.span, inherited: false };
}

/** The DocumentRoot httpd uses for the main server (`vhost` null) or one virtual host. */
export function documentRoot(config: EffectiveConfig, vhost: EffectiveSection | null): DocumentRoot | null {
  const own = ownDocumentRoot(config, vhost);
  if (own !== null || vhost === null) return own;
  const main = ownDocumentRoot(config, null);
  return main === null ? null : { ...main, inherited: true };
}

/** The main server's, then each virtual host's, in reading order. */
export function documentRoots(config: EffectiveConfig): HostDocumentRoot[] {
  return [null, ...virtualHostSections(config)].map((vhost) => ({ vhost, documentRoot: documentRoot(config, vhost) }));
}
