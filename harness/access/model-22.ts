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

/** The Require lines that decide on 2.2. Its authz modules are authoritative and run one after another in the
 * order they were loaded, the first with a line of its own deciding: in the official image's (and Debian's) order
 * mod_authz_groupfile comes before mod_authz_user, so where any `Require group` line applies, only the group lines
 * count: a user a `Require user` line names but who is in none of the groups gets 401 (real 2.2.34: "AH01631
 * Authorization of user bob to access /fz0 failed, reason: user doesn't appear in group file"; the differential
 * fuzzer's fixtures). With no group line, authz_user decides on the user and valid-user lines. */
export function authorizingRequire22(require: readonly RequireWords[]): RequireWords[] {
  const groups = require.filter(([kind]) => kind?.toLowerCase() === "group");
  return groups.length > 0 ? groups : [...require];
}

/** Whether a valid user meets the Require lines that decide (authorizingRequire22). */
export function requireMet(require: readonly RequireWords[], credentials: AccessCredentials): boolean {
  if (credentials.state !== "valid") return false;
  return authorizingRequire22(require).some(([kind, ...args]) => {
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
