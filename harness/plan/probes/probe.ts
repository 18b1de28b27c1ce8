// Probes: the requests prove (and run --config) send, generated from both effective configurations, and the
// cells of the request space they stand for. Pure data.
//
// The request space is cut into cells: virtual host × path region × client range × credential state × method.
// A cell is a set of requests both configurations must treat alike if they are equivalent (the same sections
// apply, the same access forms match the client); one representative request per cell is probed. A cell no
// request can stand for here (an IPv6 range on an engine without IPv6, a realm whose users live in LDAP) is named
// with the reason.
//
// Every probe asks for something that exists on both sides (the probe world, probe-world.ts): an object the tree
// holds, or one the harness plants with a marker unique to its URL, and credentials of identities the harness
// added to every store the config names. So an answer says what the config decided, not what the harness lacked.

import type { AuthScheme, ConfigOrigin, ObjectKind, ProbeObject, ProbeTarget, ProbeWorld, SectionPlace, WorldObject, WorldUser } from "../../scenario/probe-world.ts";

export type { AuthScheme, ConfigOrigin, ObjectKind, ProbeObject, ProbeTarget, ProbeWorld, SectionPlace, WorldObject, WorldUser };

/** none: no Authorization header; valid: a user every store of the realm holds (the probe's `user`); wrong-password:
 * that user with another password; other-realm: a user no store holds. */
export type CredentialState = "none" | "valid" | "wrong-password" | "other-realm";

/** Who sends a probe: the forms of the config it stands for decide what the server must see. */
export interface ProbeClient {
  /** Also its scenario client name ([a-z][a-z0-9-]*), except the built-in host, localhost and localhost6. */
  id: string;
  kind: "host" | "localhost" | "localhost6" | "address" | "hostname" | "outsider";
  /** The address the server must see (fixed for address and outsider clients). */
  address: string | null;
  /** The name the server must find by reverse then forward DNS (a full name, or a domain with a leading dot). */
  domain: string | null;
  /** The config form it stands for: "10.0.0.0/8", "127.0.0.1", ".example.com", "outsider". */
  range: string;
}

export interface Probe {
  /** Stable, readable: "p0042". */
  id: string;
  cell: string;
  target: ProbeTarget;
  method: string;
  /** URL path and query as sent. */
  path: string;
  /** ProbeClient id. */
  client: string;
  credentials: CredentialState;
  /** The user the credentials name (valid and wrong-password: a world identity; other-realm: a user no store
   * holds); null without credentials. */
  user: string | null;
  /** How the credentials are sent; null without credentials. */
  scheme: AuthScheme | null;
  /** Realm (AuthName) the credentials are for, when credentials are not "none". */
  realm: string | null;
  /** Why this path: inside or just outside a section's pattern, a file that must stay hidden, a vhost's root. */
  purpose: "root" | "inside" | "outside" | "hidden";
  /** The section pattern the path stands for ("<Location /admin>", "Alias /doc", "<Files ~ \.ht>"). */
  region: string;
  /** What the path names, planted by the world where the tree does not hold it. */
  object: ProbeObject;
  /** The per-directory sections the path meets on the baseline's and the candidate's trees, each once. */
  sections: SectionPlace[];
}

export interface Cell {
  /** "vhost|region|client|credentials|method"; credentials "valid:NAME" for a valid user. */
  id: string;
  vhost: string;
  region: string;
  client: string;
  credentials: CredentialState;
  /** The user of valid and wrong-password credentials. */
  user: string | null;
  method: string;
  /** The probe standing for it; null when it could not be probed. */
  probe: string | null;
  /** Why it could not be probed. */
  unprobed: string | null;
}

export interface ProbeSet {
  probes: Probe[];
  cells: Cell[];
  clients: ProbeClient[];
  world: ProbeWorld;
}
