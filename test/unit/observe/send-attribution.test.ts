import { describe, expect, it } from "vitest";
import { clientConnectionOf } from "../../../harness/logs/client-connection.ts";
import { placeByConnection, type SendWindow } from "../../../harness/observe/send-attribution.ts";

const of24 = (line: string) => clientConnectionOf(line, "2.4");
const of22 = (line: string) => clientConnectionOf(line, "2.2");
const proxyError = (address: string, port: number) =>
  `[Mon Dec 07 21:10:02.119 2026] [proxy:error] [pid 9:tid 12] [client ${address}:${port}] AH00898: Error during SSL Handshake with remote server returned by /`;
const denied = (address: string, port: number) =>
  `[Mon Dec 07 21:10:02.120 2026] [authz_core:error] [pid 9:tid 13] [client ${address}:${port}] AH01630: client denied by server configuration: /usr/local/apache2/htdocs/denied`;
const send = (connections: SendWindow["connections"], lines: string[] = []): SendWindow => ({ connections, lines });

describe("placeByConnection", () => {
  it("gives request 1 its late line that arrived during request 2's window, and request 2 only its own", () => {
    const late = proxyError("10.77.1.5", 40001);
    const own = denied("10.77.1.5", 40002);
    const placed = placeByConnection([send([{ address: "10.77.1.5", port: 40001 }]), send([{ address: "10.77.1.5", port: 40002 }], [late, own])], [], of24);
    expect(placed.sends).toEqual([[late], [own]]);
    expect(placed.trailing).toEqual([]);
  });

  it("gives a send its late line from the side's trailing lines, after the lines its own window held", () => {
    const first = denied("10.77.1.5", 40001);
    const late = proxyError("10.77.1.5", 40001);
    const placed = placeByConnection([send([{ address: "10.77.1.5", port: 40001 }], [first]), send([{ address: "10.77.1.6", port: 40001 }])], [late], of24);
    expect(placed.sends).toEqual([[first, late], []]);
    expect(placed.trailing).toEqual([]);
  });

  it("never gives a send a line that names another send's connection, even from the same client", () => {
    const lines = [denied("10.77.1.5", 40003), denied("10.77.1.5", 40001)];
    const placed = placeByConnection(
      [send([{ address: "10.77.1.5", port: 40001 }]), send([{ address: "10.77.1.5", port: 40002 }], lines), send([{ address: "10.77.1.5", port: 40003 }])],
      [],
      of24,
    );
    expect(placed.sends[1]).toEqual([]);
    expect(placed.sends).toEqual([[lines[1]], [], [lines[0]]]);
  });

  it("tells two clients' connections apart by address when their ports are the same", () => {
    const late = denied("10.77.1.6", 40001);
    const placed = placeByConnection([send([{ address: "10.77.1.5", port: 40001 }]), send([{ address: "10.77.1.6", port: 40001 }]), send([{ address: "10.77.1.5", port: 40009 }], [late])], [], of24);
    expect(placed.sends).toEqual([[], [late], []]);
  });

  it("takes a port alone where the send's address is not known", () => {
    const late = denied("172.18.0.1", 40001);
    const placed = placeByConnection([send([{ address: null, port: 40001 }]), send([], [late])], [], of24);
    expect(placed.sends).toEqual([[late], []]);
  });

  it("leaves where they arrived the lines that name no connection, or none the side's sends know", () => {
    const startup = "[Mon Dec 07 21:10:02.100 2026] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/2.4.68 (Unix) configured -- resuming normal operations";
    const host = denied("172.18.0.1", 51234); // from the host, through the engine's published port: no known port
    const placed = placeByConnection([send([{ address: "10.77.1.5", port: 40001 }]), send([], [startup, host])], [denied("10.77.1.5", 40077)], of24);
    expect(placed.sends).toEqual([[], [startup, host]]);
    expect(placed.trailing).toEqual([denied("10.77.1.5", 40077)]);
  });

  it("gives a connection no client reported to the send whose window held its first line: a host send's late close", () => {
    const established = "[Mon Dec 07 22:27:54.327265 2026] [ssl:info] [pid 41:tid 45] [client 172.20.0.1:60716] AH01964: Connection to child 0 established (server server:443)";
    const closed = "[Mon Dec 07 22:27:55.217437 2026] [ssl:info] [pid 42:tid 69] (70014)End of file found: [client 172.20.0.1:60716] AH01992: SSL library error 6 reading data";
    const next = "[Mon Dec 07 22:27:55.340247 2026] [ssl:info] [pid 42:tid 70] [client 172.20.0.1:60734] AH01964: Connection to child 67 established (server server:443)";
    const placed = placeByConnection([send([], [established]), send([], [closed, next])], [denied("172.20.0.1", 60716)], of24);
    expect(placed.sends).toEqual([[established, closed, denied("172.20.0.1", 60716)], [next]]);
    expect(placed.trailing).toEqual([]);
  });

  it("keeps 2.2's port-less lines where they arrived: the window after their own, as before", () => {
    const late = "[Mon Dec 07 21:10:02 2026] [error] [client 10.77.1.5] client denied by server configuration: /usr/local/apache2/htdocs/denied";
    const placed = placeByConnection([send([{ address: "10.77.1.5", port: 40001 }]), send([{ address: "10.77.1.5", port: 40002 }], [late])], [], of22);
    expect(placed.sends).toEqual([[], [late]]);
  });

  it("keeps a line on its own send when a later send reused its port", () => {
    const line = denied("10.77.1.5", 40001);
    const placed = placeByConnection([send([{ address: "10.77.1.5", port: 40001 }]), send([{ address: "10.77.1.5", port: 40001 }], [line]), send([{ address: "10.77.1.5", port: 40005 }], [denied("10.77.1.5", 40001)])], [], of24);
    // The second window's line is its own send's; the third's goes to the nearest earlier send with that port.
    expect(placed.sends).toEqual([[], [line, denied("10.77.1.5", 40001)], []]);
  });

  describe("a line that names no connection, where one follower carries both logs in httpd's order", () => {
    const debug22 = (message: string) => `[Mon Dec 07 22:50:32 2026] [debug] mod_cache.c(772): ${message}`;
    // The 2.2 lines of cache-session-id-substring's jsessionid-1-again (orders 10, 11: its access line 12) fell
    // into jsessionid-2's window, whose own lines are 13, 14 (its access line 15).
    const again = [debug22("cache: serving /page.shtml"), debug22("cache: Removing CACHE_REMOVE_URL filter.")];
    const second = [debug22("cache: serving /page.shtml"), debug22("disk_cache: Recalled cached URL info header")];

    it("goes to the send whose access line came after it when its window closed before that line arrived", () => {
      const placed = placeByConnection(
        [
          { connections: [], lines: [], loggedOrder: 12, closedBeforeLogged: true },
          { connections: [], lines: [...again, ...second], orders: [10, 11, 13, 14], loggedOrder: 15 },
        ],
        [],
        of22,
      );
      expect(placed.sends).toEqual([again, second]);
    });

    it("goes from the trailing lines to the last send when that send's access line came after it", () => {
      const placed = placeByConnection(
        [
          { connections: [], lines: second, orders: [3, 4], loggedOrder: 5 },
          { connections: [], lines: [], loggedOrder: 12, closedBeforeLogged: true },
        ],
        again,
        of22,
        [10, 11],
      );
      expect(placed.sends).toEqual([second, again]);
      expect(placed.trailing).toEqual([]);
    });

    it("stays in its window when it came after that window's own access line (a late line), and in the trailing lines after the last", () => {
      const late = debug22("child pid 42 exit signal Segmentation fault (11)");
      const placed = placeByConnection(
        [
          { connections: [], lines: [second[0]!, late], orders: [3, 6], loggedOrder: 5, closedBeforeLogged: true },
          { connections: [], lines: [again[0]!], orders: [7], loggedOrder: 8, closedBeforeLogged: true },
        ],
        [again[1]!],
        of22,
        [9],
      );
      expect(placed.sends).toEqual([[second[0], late], [again[0]]]);
      expect(placed.trailing).toEqual([again[1]]);
    });

    it("stays in the next send's window when it was written before an earlier send's access line whose window saw that line", () => {
      // Sent without waiting for the first send's access line, the second's first lines (orders 4, 5) were written
      // before it (6): httpd logs a request once its answer went out. A window that saw its access line held all of
      // its request's lines.
      const placed = placeByConnection(
        [
          { connections: [], lines: again, orders: [1, 2], loggedOrder: 6 },
          { connections: [], lines: second, orders: [4, 5], loggedOrder: 9 },
        ],
        [],
        of22,
      );
      expect(placed.sends).toEqual([again, second]);
    });

    it("stays where it arrived when the sends' access lines are not known", () => {
      const placed = placeByConnection([{ connections: [], lines: [] }, { connections: [], lines: [...again, ...second], orders: [10, 11, 13, 14] }], [], of22);
      expect(placed.sends).toEqual([[], [...again, ...second]]);
    });
  });
});
