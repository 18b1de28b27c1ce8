// The clients a scenario uses without declaring them. `host` is the machine running the harness (through the
// published port). The local clients send from inside the server's own network namespace to its loopback
// addresses, as software on the server machine would: real configs open status pages and admin areas to
// `127.0.0.1 ::1` only (`Allow from 127.0.0.1 ::1`, `Require local`), which no other client can reach.

/** Local client name → the loopback address it sends to, which is also the address the server sees. */
export const LOCAL_CLIENTS = { localhost: "127.0.0.1", localhost6: "::1" } as const;

export type LocalClientName = keyof typeof LOCAL_CLIENTS;
export type LoopbackAddress = (typeof LOCAL_CLIENTS)[LocalClientName];

/** Names a scenario may not declare in `clients:`. */
export const RESERVED_CLIENT_NAMES: readonly string[] = ["host", ...Object.keys(LOCAL_CLIENTS)];

/** What a local client's address resolves back to inside the server container (Docker's /etc/hosts lists
 * `127.0.0.1 localhost` and `::1 localhost ip6-localhost ip6-loopback`). */
export const LOCAL_CLIENT_HOSTNAME = "localhost";

export function isLocalClient(name: string): name is LocalClientName {
  return Object.hasOwn(LOCAL_CLIENTS, name);
}

/** The loopback address a request from `client` goes to, or null for host and the network clients. */
export function loopbackOf(client: string): LoopbackAddress | null {
  return isLocalClient(client) ? LOCAL_CLIENTS[client] : null;
}
