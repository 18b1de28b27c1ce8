// A model of httpd 2.2's access decision, for the translation's proof obligations and its exhaustive test. The
// per-directory state is merged as 2.2 merges it:
// - mod_authz_host has no merge function: a section with any Order/Allow/Deny replaces the inherited host
//   config wholesale (unset parts take the defaults: Order Deny,Allow, no entries);
// - Satisfy is core's: the nearest section that sets it; Require is core's too: the nearest section with any
//   Require line replaces the list; AuthType is inherited per directive.
// The decision follows ap_process_request_internal: Satisfy All = the host check (403), then, when a Require
// applies, authentication (401; 500 without AuthType) and authorization (401). Satisfy Any = the host check
// passing grants without a password; failing, a Require asks for one, no Require gives 403.
import type { AccessClient, AccessCredentials, AccessRequest, AccessStatus } from "./access-request.ts";
import { addressMatches, hostMatches, isAddressForm } from "./address-match.ts";

export type Order = "deny,allow" | "allow,deny" | "mutual-failure";

/** `from` values of Allow/Deny as written: all, an address form, a host name, env=VAR or env=!VAR. */
export interface HostConfig22 {
  order: Order;
  allow: string[];
  deny: string[];
}

/** A Require line's words after `Require`: ["valid-user"], ["user", "a", "b"], ["group", "g"]. */
export type RequireWords = readonly string[];

/** What one section sets; undefined: not set there (inherited). */
export interface Section22 {
  host?: HostConfig22;
  satisfy?: "all" | "any";
  require?: RequireWords[];
  authType?: boolean;
}

/** The merged state for a request. */
export interface State22 {
  host: HostConfig22 | null;
  satisfy: "all" | "any";
  require: RequireWords[];
  authType: boolean;
}

export const EMPTY_STATE_22: State22 = { host: null, satisfy: "all", require: [], authType: false };

export function merge22(base: State22, section: Section22): State22 {
  return {
    host: section.host ?? base.host,
    satisfy: section.satisfy ?? base.satisfy,
    require: section.require ?? base.require,
    authType: section.authType ?? base.authType,
  };
}

export function mergeAll22(sections: readonly Section22[], base: State22 = EMPTY_STATE_22): State22 {
  return sections.reduce(merge22, base);
}

/** One Allow/Deny `from` value against the client. */
export function hostEntryMatches(entry: string, client: AccessClient): boolean {
  if (entry.toLowerCase() === "all") return true;
  const env = /^env=(!?)(.+)$/i.exec(entry);
  if (env) return (env[1] === "!") !== client.env.has(env[2]!);
  if (isAddressForm(entry)) return addressMatches(entry, client.address);
  return hostMatches(entry, client.hostname);
}

/** Whether mod_authz_host (2.2) or mod_access_compat (2.4, the same code) lets the client through. */
export function hostAllows(host: HostConfig22 | null, client: AccessClient): boolean {
  if (host === null) return true;
  const allowed = host.allow.some((entry) => hostEntryMatches(entry, client));
  const denied = host.deny.some((entry) => hostEntryMatches(entry, client));
  switch (host.order) {
    case "deny,allow":
      return allowed || !denied;
    case "allow,deny":
    case "mutual-failure":
      return allowed && !denied;
  }
}

/** Whether a valid user meets one of the Require lines (2.2's authz_user and authz_groupfile, authoritative). */
export function requireMet(require: readonly RequireWords[], credentials: AccessCredentials): boolean {
  if (credentials.state !== "valid") return false;
  return require.some(([kind, ...args]) => {
    switch (kind?.toLowerCase()) {
      case "valid-user":
        return true;
      case "user":
        return args.includes(credentials.user);
      case "group":
        return args.some((group) => credentials.groups.includes(group));
      default:
        return false;
    }
  });
}

function authenticateAndAuthorize(state: State22, credentials: AccessCredentials): AccessStatus {
  if (!state.authType) return 500;
  if (credentials.state !== "valid") return 401;
  return requireMet(state.require, credentials) ? 200 : 401;
}

export function decide22(state: State22, request: AccessRequest): AccessStatus {
  const hostOk = hostAllows(state.host, request.client);
  const someAuth = state.require.length > 0;
  if (state.satisfy === "any") {
    if (hostOk) return 200;
    return someAuth ? authenticateAndAuthorize(state, request.credentials) : 403;
  }
  if (!hostOk) return 403;
  return someAuth ? authenticateAndAuthorize(state, request.credentials) : 200;
}
