// A model of httpd 2.4's access decision: authz_core's Require providers and containers with the result algebra
// of apply_authz_sections (GRANTED, DENIED, DENIED_NO_USER, NEUTRAL; a neutral child is skipped; in a
// RequireAll a denial stops, in a RequireAny a grant stops; negation turns GRANTED into DENIED and a denial
// into NEUTRAL, so `Require not` and <RequireNone> never grant), AuthMerging Off (a section with any authz
// config replaces the inherited one), and authorize_user_core's statuses: without a user, GRANTED passes,
// DENIED and NEUTRAL are 403, DENIED_NO_USER asks for authentication; with one, anything but GRANTED is 401.
// mod_access_compat (the same host check as 2.2) is combined with it through Satisfy, as ap_process_request_
// internal does. Lines are read from text, so a test checks the very lines migrate writes.
import type { AccessCredentials, AccessRequest, AccessStatus } from "./access-request.ts";
import { portableRegex } from "../conf/portable-regex.ts";
import { addressMatches, hostMatches } from "./address-match.ts";
import { hostAllows, type HostConfig22 } from "./model-22.ts";

export type AuthzResult = "granted" | "denied" | "denied-no-user" | "neutral";

export interface AuthzProvider {
  kind: "provider";
  provider: string;
  args: string[];
  negate: boolean;
}

export interface AuthzContainer {
  kind: "all" | "any";
  negate: boolean;
  children: Authz[];
}

export type Authz = AuthzProvider | AuthzContainer;

export interface State24 {
  /** The authz config in effect (the nearest section that has one); null: none anywhere. */
  authz: Authz | null;
  /** mod_access_compat's host config in effect; null: none. */
  compat: HostConfig22 | null;
  satisfy: "all" | "any";
  authType: boolean;
}

/** Require lines and <RequireAll|Any|None> lines as written in one section → its authz config (the section's
 * top level is an implicit RequireAny); null when the lines hold no Require. */
export function parseAuthz(lines: readonly string[]): Authz | null {
  const root: AuthzContainer = { kind: "any", negate: false, children: [] };
  const stack: AuthzContainer[] = [root];
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const open = /^<Require(All|Any|None)\s*>$/i.exec(line);
    if (open) {
      const which = open[1]!.toLowerCase();
      const node: AuthzContainer = { kind: which === "all" ? "all" : "any", negate: which === "none", children: [] };
      stack[stack.length - 1]!.children.push(node);
      stack.push(node);
      continue;
    }
    if (/^<\/Require(All|Any|None)\s*>$/i.test(line)) {
      stack.pop();
      continue;
    }
    const words = line.split(/\s+/);
    if (words[0]!.toLowerCase() !== "require") throw new Error(`not a Require line: ${line}`);
    const negate = words[1]?.toLowerCase() === "not";
    const [provider = "", ...args] = words.slice(negate ? 2 : 1);
    stack[stack.length - 1]!.children.push({ kind: "provider", provider: provider.toLowerCase(), args, negate });
  }
  return root.children.length === 0 ? null : root;
}

/** The providers this model decides. Any other (a module's own, dbm-group, ...) is not modelled: callers ask
 * `modelledAuthz` first and say so instead of guessing. */
const MODELLED = new Set(["all", "ip", "host", "env", "local", "valid-user", "user", "group"]);

/** `Require expr` in the one form modelled: REQUEST_FILENAME matched (or, with `!`, not matched) against a
 * regular expression, `m#...#` (what migrate writes to keep the 2.2 <FilesMatch "^\.ht"> denial under a Require). */
export function filenameExpr(args: readonly string[]): { negate: boolean; pattern: string } | null {
  const text = args.join(" ").trim().replace(/^"(.*)"$/, "$1").trim();
  const match = /^(!)?\s*(\()?\s*%\{REQUEST_FILENAME\}\s*=~\s*m#([^#]*)#\s*(\))?$/.exec(text);
  if (!match || (match[2] === undefined) !== (match[4] === undefined)) return null;
  if (!portableRegex(match[3]!)) return null;
  return { negate: match[1] === "!", pattern: match[3]! };
}

/** Why the model cannot decide an authz config (a provider it does not know, an expression it does not read);
 * null when it can. */
export function unmodelledAuthz(node: Authz): string | null {
  if (node.kind !== "provider") {
    for (const child of node.children) {
      const why = unmodelledAuthz(child);
      if (why !== null) return why;
    }
    return null;
  }
  if (node.provider === "expr") return filenameExpr(node.args) === null ? `Require expr ${node.args.join(" ")}: this expression is not modelled` : null;
  return MODELLED.has(node.provider) ? null : `Require ${node.provider}: this provider is not modelled`;
}

function provider(name: string, args: readonly string[], request: AccessRequest, user: AccessCredentials | null): AuthzResult {
  const strict = (ok: boolean): AuthzResult => (ok ? "granted" : "denied");
  switch (name) {
    case "all":
      return args[0]?.toLowerCase() === "granted" ? "granted" : "denied";
    case "ip":
      return strict(args.some((spec) => addressMatches(spec, request.client.address)));
    case "host":
      return strict(args.some((spec) => hostMatches(spec, request.client.hostname)));
    case "env":
      return strict(args.some((name) => request.client.env.has(name)));
    case "local":
      return strict(addressMatches("127.0.0.0/8", request.client.address) || addressMatches("::1", request.client.address));
    case "valid-user":
      return user === null ? "denied-no-user" : "granted";
    case "user":
      if (user === null) return "denied-no-user";
      return strict(user.state === "valid" && args.includes(user.user));
    case "group":
      if (user === null) return "denied-no-user";
      return strict(user.state === "valid" && args.some((group) => user.groups.includes(group)));
    case "expr": {
      const expr = filenameExpr(args);
      if (expr === null || request.filename === undefined) return "denied";
      return strict(new RegExp(expr.pattern).test(request.filename) !== expr.negate);
    }
    default:
      return "denied";
  }
}

/** apply_authz_sections. `user` is null before authentication. */
export function evaluateAuthz(node: Authz, request: AccessRequest, user: AccessCredentials | null): AuthzResult {
  let result: AuthzResult;
  if (node.kind === "provider") result = provider(node.provider, node.args, request, user);
  else {
    result = "neutral";
    for (const child of node.children) {
      const childResult = evaluateAuthz(child, request, user);
      if (childResult === "neutral") continue;
      if (node.kind === "all") {
        if (childResult === "denied") {
          result = childResult;
          break;
        }
        if ((childResult === "denied-no-user" && result !== "denied") || result === "neutral") result = childResult;
      } else {
        if (childResult === "granted") {
          result = childResult;
          break;
        }
        if ((childResult === "denied-no-user" && result === "denied") || result === "neutral") result = childResult;
      }
    }
  }
  if (node.negate) {
    if (result === "granted") result = "denied";
    else if (result === "denied" || result === "denied-no-user") result = "neutral";
  }
  return result;
}

/** access_checker_ex, then authentication and auth_checker; "pass" when the request goes on. */
function authzCore(state: State24, request: AccessRequest): AccessStatus {
  if (state.authz === null) return state.authType ? 500 : 200;
  const userless = evaluateAuthz(state.authz, request, null);
  if (userless === "granted") return 200;
  if (userless !== "denied-no-user") return 403;
  if (!state.authType) return 500;
  if (request.credentials.state !== "valid") return 401;
  return evaluateAuthz(state.authz, request, request.credentials) === "granted" ? 200 : 401;
}

export function decide24(state: State24, request: AccessRequest): AccessStatus {
  const compatOk = hostAllows(state.compat, request.client);
  if (state.satisfy === "any") {
    if (compatOk) return 200;
    return authzCore(state, request);
  }
  if (!compatOk) return 403;
  return authzCore(state, request);
}
