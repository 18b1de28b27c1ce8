// Pure: a side's error-log lines placed on the sends whose connections they name. Each send of a side (a single
// send, or one item of a batch) collects the lines of its window: those since its mark, once its access line came
// and the error log went quiet (server/httpd-server.ts errorLinesSince), or its share of a batch's window
// (batch-attribution.ts). A line that reaches the harness after its own send's window closed falls into the next
// window: a 2.4 AH00898 of one request, late, once landed on the request after it in a fleet run. So, after the
// side's last window, a line that names a client connection (2.4's `[client 10.77.1.5:43210]`,
// logs/client-connection.ts) of another send than the one whose window holds it is moved to that send; one that
// names a connection of its own send, or none at all (2.2's lines, 2.4's lines without a client), stays where it
// arrived, as before. A connection is a send's when its client reported its port, else when the send's window held
// the first line naming it. Lines after the last window (the side's trailing lines) are a window too, of no send.
// A line that names no connection (2.2's, 2.4's without a client) is placed by order where it can be: when one
// follower carries both logs (server/log-targets.ts scriptMergedFollowLines), its lines reach the harness in the
// order httpd wrote them, and httpd writes a request's error lines before its access line. Under load (a 2-core
// machine running the catalogue with a real 2.2) a send's access line once came after its window had waited for
// it, and all of its 2.2 lines fell into the next window: the request had no lines in one run and six in the
// other. So a line of no connection goes to the first send whose access line came after it, when that send is
// before the window that holds it and that send's window closed without its access line. Only then: httpd writes
// a request's access line after its answer went out, so a send that began before that line was written (which
// only a window closed without it lets happen) writes its first lines before it; a window that saw its own
// access line held all of its request's earlier lines. A line after its window's access line (a late line) stays
// in its window, as before.

import type { ClientConnection } from "../logs/client-connection.ts";

/** A connection a send opened, as its client told it: the client's address where it is known, written as
 * logs/client-connection.ts sameAddress writes a line's, and the local port. */
export interface SendConnection {
  /** null: unknown (then the port alone tells). */
  address: string | null;
  port: number;
}

export interface SendWindow {
  /** The connections it opened (curl's `%{local_port}`, the raw client's socket); empty when not known. */
  connections: readonly SendConnection[];
  /** The lines its window collected, in the order they arrived. */
  lines: readonly string[];
  /** Each line's place among the follower's lines, error and access lines alike, by index; absent: not known. */
  orders?: readonly number[];
  /** The place of its access line among them (batch-attribution.ts markLoggedSlots); absent: none, or not known. */
  loggedOrder?: number;
  /** Its window closed before its access line came (the wait for it ran out). */
  closedBeforeLogged?: boolean;
}

export interface PlacedLines {
  /** Per send, in the order of `sends`: its lines, those it kept and then those moved to it, each in arrival order. */
  sends: string[][];
  trailing: string[];
}

/** `sends` in the order they were sent; `connectionOf` reads a line's client connection (null: it names none). A
 * connection is a send's when its client reported it; one no client reported (the host's sends reach the server
 * through the engine's published port, from the proxy's port) is the send whose window held its first line: mod_ssl's
 * AH01964 "Connection ... established" in its own window, and the AH01992 of its close, logged late, in a later one. */
export function placeByConnection(
  sends: readonly SendWindow[],
  trailing: readonly string[],
  connectionOf: (line: string) => ClientConnection | null,
  trailingOrders?: readonly number[],
): PlacedLines {
  const placed: PlacedLines = { sends: sends.map(() => []), trailing: [] };
  const reported = (connection: ClientConnection): number[] => {
    const found: number[] = [];
    sends.forEach((send, index) => {
      if (send.connections.some((own) => own.port === connection.port && (own.address === null || own.address === connection.address))) found.push(index);
    });
    return found;
  };
  // Connections no client reported, by the window that first held a line naming them.
  const firstSeen = new Map<string, number>();
  sends.forEach((send, window) => {
    for (const line of send.lines) {
      const connection = connectionOf(line);
      if (connection === null || reported(connection).length > 0) continue;
      const key = `${connection.address} ${connection.port}`;
      if (!firstSeen.has(key)) firstSeen.set(key, window);
    }
  });
  // A line of no connection, by its order: the first send logged after it, when that is an earlier one whose
  // window closed before its access line came.
  const logged = sends.flatMap((send, index) => (send.loggedOrder === undefined ? [] : [{ index, order: send.loggedOrder }]));
  const byOrder = (order: number | undefined, window: number): number => {
    if (order === undefined) return window;
    const owner = logged.find((send) => send.order > order);
    return owner !== undefined && owner.index < window && sends[owner.index]!.closedBeforeLogged === true ? owner.index : window;
  };
  // A window's line goes to its own send when that send is one of the line's owners, else to the nearest owner
  // sent before the window (a late line), else to the nearest after it.
  const place = (line: string, window: number, order: number | undefined): number => {
    const connection = connectionOf(line);
    if (connection === null) return byOrder(order, window);
    const found = reported(connection);
    if (found.length === 0) return firstSeen.get(`${connection.address} ${connection.port}`) ?? window;
    if (found.includes(window)) return window;
    return found.filter((index) => index < window).at(-1) ?? found[0]!;
  };
  // Windows in the order they closed: a line moved to an earlier send comes after that send's own lines.
  sends.forEach((send, window) => {
    send.lines.forEach((line, index) => placed.sends[place(line, window, send.orders?.[index])]!.push(line));
  });
  trailing.forEach((line, index) => {
    const to = place(line, sends.length, trailingOrders?.[index]);
    (to === sends.length ? placed.trailing : placed.sends[to]!).push(line);
  });
  return placed;
}
