// Probes: the requests prove (and run --config) send, generated from both effective configurations, and the
// cells of the request space they stand for. Pure data.
//
// The request space is cut into cells: virtual host × path region × client range × credential state × method.
// A cell is a set of requests both configurations must treat alike if they are equivalent (the same sections
// apply, the same access forms match the client); one representative request per cell is probed. A cell no
// request can stand for here (an IPv6 range on an engine without IPv6, a DBM user file whose users the harness
// cannot add) is named with the reason.

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

/** The virtual host a probe is for, as both the Host header and the TLS server name say it. */
export interface ProbeTarget {
  host: string | null;
  port: number;
  tls: boolean;
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
  /** Realm (AuthName) the credentials are for, when credentials are not "none". */
  realm: string | null;
  /** Why this path: inside or just outside a section's pattern, a file that must stay hidden, a vhost's root. */
  purpose: "root" | "inside" | "outside" | "hidden";
  /** The section pattern the path stands for ("<Location /admin>", "Alias /doc", "<Files ~ \.ht>"). */
  region: string;
}

export interface Cell {
  /** "vhost|region|client|credentials|method". */
  id: string;
  vhost: string;
  region: string;
  client: string;
  credentials: CredentialState;
  method: string;
  /** The probe standing for it; null when it could not be probed. */
  probe: string | null;
  /** Why it could not be probed. */
  unprobed: string | null;
}

/** A user the harness adds, on both sides alike, to a user file the config names, so that "valid" means
 * something: a line appended to the staged copy (htpasswd `{SHA}`, htdigest; a group file gets `GROUP: user`,
 * the group's name in `password`). */
export interface ProbeUser {
  /** The user file as the server reads it (absolute inside the server). */
  file: string;
  kind: "basic" | "digest" | "group";
  realm: string | null;
  user: string;
  password: string;
}

export interface ProbeSet {
  probes: Probe[];
  cells: Cell[];
  clients: ProbeClient[];
  users: ProbeUser[];
}
