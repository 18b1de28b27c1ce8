// One merged 2.2 access state → the 2.4 lines that decide every request alike, by meaning rather than by
// pattern. The host part is built as an expression that is strictly GRANTED or DENIED (never NEUTRAL), because
// a neutral child is skipped inside <RequireAll>, which would let a password stand in for a failed address
// check: an address list is `Require ip`/`host`/`env` (strict); "not D" is <RequireAll> Require all granted +
// <RequireNone> D </RequireNone>; Order Deny,Allow is A OR not D (allow overrides deny), Allow,Deny and
// Mutual-failure are A AND not D. Satisfy All is <RequireAll> host, requires; Satisfy Any is <RequireAny>.
// Checked against both models for every combination by test/unit/access/translate-access.test.ts.
import { isAddressForm } from "./address-match.ts";
import { authorizingRequire22, type HostConfig22, type RequireWords, type State22 } from "./model-22.ts";

/** A host expression: constant, or lines that are strictly granted or denied. */
type Expr = { kind: "const"; value: boolean } | { kind: "lines"; lines: string[]; container: boolean };

const TRUE: Expr = { kind: "const", value: true };
const FALSE: Expr = { kind: "const", value: false };

export type Translation = { lines: string[]; meaning: string } | { lines: null; reason: string };

function linesOf(expr: Expr): string[] {
  if (expr.kind === "const") return [`Require all ${expr.value ? "granted" : "denied"}`];
  return expr.lines;
}

function container(kind: "RequireAll" | "RequireAny" | "RequireNone", parts: readonly string[][]): string[] {
  return [`<${kind}>`, ...parts.flat().map((line) => `    ${line}`), `</${kind}>`];
}

/** Several strict parts OR-ed; one part stays as it is. */
function anyOf(parts: Expr[]): Expr {
  if (parts.some((p) => p.kind === "const" && p.value)) return TRUE;
  const live = parts.filter((p): p is Extract<Expr, { kind: "lines" }> => p.kind === "lines");
  if (live.length === 0) return FALSE;
  if (live.length === 1) return live[0]!;
  return { kind: "lines", lines: container("RequireAny", live.map(linesOf)), container: true };
}

function allOf(parts: Expr[]): Expr {
  if (parts.some((p) => p.kind === "const" && !p.value)) return FALSE;
  const live = parts.filter((p): p is Extract<Expr, { kind: "lines" }> => p.kind === "lines");
  if (live.length === 0) return TRUE;
  if (live.length === 1) return live[0]!;
  return { kind: "lines", lines: container("RequireAll", live.map(linesOf)), container: true };
}

/** Allow/Deny `from` entries OR-ed: one `Require ip` and one `Require host` line for all addresses and names (a
 * line with several values grants when any matches), a line per env=, and env=!X as a strict negation. */
function matchAny(entries: readonly string[]): Expr {
  if (entries.some((e) => e.toLowerCase() === "all")) return TRUE;
  const ips: string[] = [];
  const hosts: string[] = [];
  const parts: Expr[] = [];
  for (const entry of entries) {
    const env = /^env=(!?)(.+)$/i.exec(entry);
    if (env) {
      parts.push(env[1] === "!"
        ? { kind: "lines", lines: container("RequireAll", [["Require all granted"], [`Require not env ${env[2]}`]]), container: true }
        : { kind: "lines", lines: [`Require env ${env[2]}`], container: false });
    } else if (isAddressForm(entry)) ips.push(entry);
    else hosts.push(entry);
  }
  if (ips.length > 0) parts.unshift({ kind: "lines", lines: [`Require ip ${ips.join(" ")}`], container: false });
  if (hosts.length > 0) parts.splice(ips.length > 0 ? 1 : 0, 0, { kind: "lines", lines: [`Require host ${hosts.join(" ")}`], container: false });
  return anyOf(parts);
}

function not(expr: Expr): Expr {
  if (expr.kind === "const") return { kind: "const", value: !expr.value };
  return { kind: "lines", lines: container("RequireAll", [["Require all granted"], container("RequireNone", [linesOf(expr)])]), container: true };
}

export function hostExpression(host: HostConfig22 | null): Expr {
  if (host === null) return TRUE;
  const allowed = host.allow.length === 0 ? FALSE : matchAny(host.allow);
  const denied = host.deny.length === 0 ? FALSE : matchAny(host.deny);
  return host.order === "deny,allow" ? anyOf([allowed, not(denied)]) : allOf([allowed, not(denied)]);
}

const KNOWN_REQUIRES = new Set(["valid-user", "user", "group"]);

function requireLines(require: readonly RequireWords[]): string[] {
  return require.map((words) => `Require ${words.join(" ")}`);
}

function describeHost(host: HostConfig22 | null): string {
  if (host === null) return "every address";
  const expr = hostExpression(host);
  if (expr.kind === "const") return expr.value ? "every address" : "no address";
  const all = (entries: readonly string[]) => entries.some((e) => e.toLowerCase() === "all");
  const allow = host.allow.join(" ");
  const deny = host.deny.join(" ");
  if (host.order === "deny,allow") {
    if (all(host.deny) || host.deny.length === 0) return `only ${allow}`;
    return host.allow.length === 0 ? `everyone but ${deny}` : `${allow}, and everyone but ${deny}`;
  }
  if (all(host.allow)) return `everyone but ${deny}`;
  return host.deny.length === 0 ? `only ${allow}` : `${allow}, except ${deny}`;
}

export function translateAccess(state: State22): Translation {
  const unknown = state.require.find((words) => !KNOWN_REQUIRES.has(words[0]?.toLowerCase() ?? ""));
  if (unknown) return { lines: null, reason: `Require ${unknown.join(" ")}: a provider the translation does not model` };
  const host = hostExpression(state.host);
  if (state.require.length === 0) {
    return { lines: linesOf(host), meaning: `${describeHost(state.host)}; no password asked` };
  }
  // Only the lines that decide on 2.2 (a group line outranks user lines there: authorizingRequire22).
  const deciding = authorizingRequire22(state.require);
  const requires = requireLines(deciding);
  const users = deciding.map((words) => words.join(" ")).join(" or ");
  if (state.satisfy === "all") {
    if (host.kind === "const" && !host.value) return { lines: ["Require all denied"], meaning: "no one (Satisfy All with every address refused)" };
    if (host.kind === "const") return { lines: requires, meaning: `any address with a password (${users})` };
    const auth: string[] = requires.length > 1 ? container("RequireAny", [requires]) : requires;
    return { lines: container("RequireAll", [linesOf(host), auth]), meaning: `${describeHost(state.host)}, and then a password (${users})` };
  }
  if (host.kind === "const" && host.value) return { lines: ["Require all granted"], meaning: "everyone, no password (Satisfy Any with every address allowed)" };
  if (host.kind === "const") return { lines: requires, meaning: `a password (${users}) from any address` };
  return { lines: container("RequireAny", [linesOf(host), requires]), meaning: `${describeHost(state.host)} without a password, or anyone with one (${users})` };
}
