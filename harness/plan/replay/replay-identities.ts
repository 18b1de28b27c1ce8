// Pure: the harness's client and credential identities a replay maps an access log's clients (%h) and users (%u)
// onto. Thousands of real addresses cannot each get a container, and most would mean nothing to the config; what
// the config can tell apart is which of its access forms (Allow/Deny from, Require ip/host/local) hold a client.
// So the identities are the probes' clients (plan/probes/probe-clients.ts: one inside each form, localhost for
// loopback forms, an outsider in none), and a logged client is sent by the identity that the same forms hold (the
// closest one when none has exactly its forms). A logged name (HostnameLookups On) is matched against the name
// forms; an address against the address forms.
//
// Users: the log never holds a password. A logged user becomes a probe user: the same name, written with the
// probe password into every user store the config names (the probe world, alike on both sides, replacing that
// user's line), so the request takes the authenticated path as that user, `Require user` and groups included. A line
// whose status was 401 is sent with a wrong password instead: the user was refused then.
import { addressBits, addressMatches, hostMatches, isAddressForm } from "../../access/address-match.ts";
import type { EffectiveConfig } from "../../conf/effective-config.ts";
import type { ConfigTree } from "../../conf/load-tree.ts";
import { PROBE_USER } from "../probes/generate-probes.ts";
import type { ProbeClient, WorldUser } from "../probes/probe.ts";
import { accessForms, probeClients, textAccessForms } from "../probes/probe-clients.ts";

export interface ReplayIdentities {
  clients: ProbeClient[];
  /** Every access form of the configs, in order: what a client is told apart by. */
  forms: string[];
}

/** The address and name forms of a tree's .htaccess files, which its configs do not hold. */
export function treeAccessForms(tree: ConfigTree): string[] {
  return [...tree.source.files].filter(([path]) => path === ".htaccess" || path.endsWith("/.htaccess")).flatMap(([, bytes]) => textAccessForms(bytes.toString("latin1")));
}

export function replayIdentities(configs: readonly EffectiveConfig[], extraForms: readonly string[] = []): ReplayIdentities {
  const forms = [...new Set([...configs.flatMap(accessForms), ...extraForms])];
  return { clients: probeClients(configs, extraForms), forms };
}

/** Which forms hold a client known by its address or its name. */
function membership(forms: readonly string[], address: string | null, name: string | null): boolean[] {
  return forms.map((form) => (isAddressForm(form) ? address !== null && addressMatches(form, address) : hostMatches(form, name)));
}

/** The name a probe client's reverse lookup gives: the full name, or a host inside the domain. */
function clientName(client: ProbeClient): string | null {
  if (client.domain === null) return null;
  return client.domain.startsWith(".") ? `probe${client.domain}` : client.domain;
}

/** The identity that sends a logged client's requests: the one the same forms hold, else the one that agrees
 * with it on the most forms (the outsider first when it agrees on all: no form holds either). A client the log
 * does not name (no %h) is the outsider. */
export function identityFor(identities: ReplayIdentities, remote: string | null): ProbeClient {
  const outsider = identities.clients.find((client) => client.kind === "outsider")!;
  if (remote === null) return outsider;
  const bare = remote.replace(/^\[|\]$/g, "");
  const isAddress = addressBits(bare) !== null;
  const wanted = membership(identities.forms, isAddress ? bare : null, isAddress ? null : bare);
  const ranked = [outsider, ...identities.clients.filter((client) => client !== outsider)];
  let best = outsider;
  let bestScore = -1;
  for (const client of ranked) {
    const held = membership(identities.forms, client.address, clientName(client));
    const score = held.filter((value, i) => value === wanted[i]).length;
    if (score > bestScore) {
      best = client;
      bestScore = score;
    }
  }
  return best;
}

/** The logged users as the world's identities: every user store of both sides holds each with the probe
 * password (plan/tree/world-staging.ts; a store's own line for the name is replaced). */
export function replayUsers(users: readonly string[]): WorldUser[] {
  return [...new Set(users)].sort().map((name) => ({ name, password: PROBE_USER.password, groups: [], reason: "a user of the access log" }));
}

/** identityFor with one answer per distinct logged client: a log repeats its clients many times over. */
export function identityResolver(identities: ReplayIdentities): (remote: string | null) => ProbeClient {
  const known = new Map<string | null, ProbeClient>();
  return (remote) => {
    let client = known.get(remote);
    if (client === undefined) known.set(remote, (client = identityFor(identities, remote)));
    return client;
  };
}
