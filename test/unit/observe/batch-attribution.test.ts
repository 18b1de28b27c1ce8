import { describe, expect, it } from "vitest";
import { attributeBatchLines, markLoggedSlots } from "../../../harness/observe/batch-attribution.ts";

const slot = (receivedAt: number, localPort: number | null = null, skipped = false) => ({ receivedAt, localPort, skipped });

describe("attributeBatchLines", () => {
  it("places 2.4 lines by their client port, whenever they arrived", () => {
    const lines = [
      { text: "[authz_core:error] [pid 9] [client 10.77.1.5:40002] AH01630: client denied", arrivedAt: 5 },
      { text: "[core:info] [pid 9] [client 2001:db8:77::5:40001] AH00128: File does not exist", arrivedAt: 999 },
    ];
    expect(attributeBatchLines(lines, [slot(100, 40001), slot(200, 40002)], 30, "2.4")).toEqual([[lines[1]!.text], [lines[0]!.text]]);
  });

  it("takes no port from a 2.2 line, whose IPv6 client may end in a number", () => {
    const line = { text: "[Mon Nov 23 23:15:48 2026] [error] [client 2001:db8:77::5] client denied", arrivedAt: 210 };
    expect(attributeBatchLines([line], [slot(100, 5), slot(200, 40002)], 30, "2.2")).toEqual([[], [line.text]]);
  });

  it("places lines without a known port by arrival: up to half a gap after a record, they are its request's", () => {
    const text = (n: number) => `[Mon Nov 23 23:15:48 2026] [error] [client 10.77.1.5] line ${n}`;
    const lines = [
      { text: text(1), arrivedAt: 95 },
      { text: text(2), arrivedAt: 114 }, // 14 ms after the first record: still the first request's
      { text: text(3), arrivedAt: 190 },
      { text: text(4), arrivedAt: 260 }, // after the last window: the last request's late line
    ];
    expect(attributeBatchLines(lines, [slot(100), slot(200), slot(230)], 30, "2.4")).toEqual([[text(1), text(2)], [text(3)], [text(4)]]);
  });

  it("places lines without a known port by the access lines around them when one follower kept their order, whenever they arrived", () => {
    const text = (n: number) => `[Mon Nov 23 23:15:48 2026] [error] [client 10.77.1.5] line ${n}`;
    // The harness, busy, read the whole batch in one go: records and lines all arrived at 500.
    const logged = (order: number) => ({ ...slot(500), loggedAt: 500, loggedOrder: order });
    const lines = [
      { text: text(1), arrivedAt: 500, order: 0 },
      { text: text(2), arrivedAt: 500, order: 2 },
      { text: text(3), arrivedAt: 500, order: 3 },
      { text: text(4), arrivedAt: 500, order: 6 }, // after the last access line: the last request's late line
    ];
    expect(attributeBatchLines(lines, [logged(1), logged(4), logged(5)], 30, "2.4")).toEqual([[text(1)], [text(2), text(3)], [text(4)]]);
    // By arrival, all four were the first request's.
    expect(attributeBatchLines(lines, [slot(500), slot(500), slot(500)], 30, "2.4")).toEqual([[text(1), text(2), text(3), text(4)], [], []]);
  });

  it("places lines by arrival when a request has no access line to order by", () => {
    const line = { text: "[error] [client 10.77.1.5] late", arrivedAt: 130, order: 3 };
    const slots = [{ ...slot(100), loggedAt: 100, loggedOrder: 1 }, slot(200, null), { ...slot(300), loggedAt: 300, loggedOrder: 5 }];
    expect(attributeBatchLines([line], slots, 30, "2.4")).toEqual([[], [line.text], []]);
  });

  it("takes a request's access line as the end of its window when it came after the record", () => {
    // 18 ms after the record, 3 ms after the access line: the first request's, not the second's.
    const line = { text: "[error] [client 10.77.1.5] denied", arrivedAt: 118 };
    expect(attributeBatchLines([line], [{ ...slot(100), loggedAt: 115 }, { ...slot(200), loggedAt: 201 }], 30, "2.4")).toEqual([[line.text], []]);
    expect(attributeBatchLines([line], [slot(100), slot(200)], 30, "2.4")).toEqual([[], [line.text]]);
  });

  it("gives a skipped request nothing, and a port no request of the batch had is placed by time", () => {
    const line = { text: "[client 10.77.1.5:5] something", arrivedAt: 250 };
    expect(attributeBatchLines([line], [slot(100, 40001), slot(101, null, true), slot(300, 40003)], 30, "2.4")).toEqual([[], [], [line.text]]);
    expect(attributeBatchLines([line], [slot(0, null, true)], 30, "2.4")).toEqual([[]]);
  });
});

describe("markLoggedSlots", () => {
  const at = (order: number) => ({ arrivedAt: 500, order });

  it("marks each answered request by its access line when there is one per request, a Digest answer by its second", () => {
    const slots = [slot(100), slot(200), slot(300, null, true), slot(400)];
    const marked = markLoggedSlots(slots, [1, 2, 0, 1], [at(1), at(3), at(4), at(7)])!;
    expect(marked.map((s) => s.loggedOrder)).toEqual([1, 4, undefined, 7]);
    expect(marked[2]).toEqual(slots[2]);
  });

  it("marks each request by the first of its k lines when the config keeps k access logs, so that the batch's 2.2 lines stay with their own requests", () => {
    // rhel-balancer on 2.2: two CustomLogs, a DNS failure line before each proxied request's two access lines.
    // Follower order: 0 dns(/), 1-2 access(/), 3 dns(/.htaccess), 4-5 access(/.htaccess), 6-7 access(/static), 8 denied, 9-10 access(/icons).
    const logged = [1, 2, 4, 5, 6, 7, 9, 10].map(at);
    const marked = markLoggedSlots([slot(500), slot(500), slot(500), slot(500)], [1, 1, 1, 1], logged)!;
    expect(marked.map((s) => s.loggedOrder)).toEqual([1, 4, 6, 9]);
    const text = (n: number) => `[Mon Dec 07 18:30:00 2026] [error] line ${n}`;
    const lines = [{ text: text(0), arrivedAt: 500, order: 0 }, { text: text(3), arrivedAt: 500, order: 3 }, { text: text(8), arrivedAt: 500, order: 8 }];
    expect(attributeBatchLines(lines, marked, 30, "2.4")).toEqual([[text(0)], [text(3)], [], [text(8)]]);
    // Read by arrival (what the batch fell back to when the lines were counted one for one), every line was the first's.
    expect(attributeBatchLines(lines, [slot(500), slot(500), slot(500), slot(500)], 30, "2.4")).toEqual([[text(0), text(3), text(8)], [], [], []]);
  });

  it("leaves the slots to arrival when the access lines are no multiple of the requests (a log written for some requests only)", () => {
    expect(markLoggedSlots([slot(100), slot(200)], [1, 1], [at(1), at(2), at(4)])).toBeNull();
    expect(markLoggedSlots([slot(100, null, true)], [0], [])).toBeNull();
  });

  it("leaves the slots to arrival when answered requests logged no access line at all", () => {
    expect(markLoggedSlots([slot(100), slot(200)], [1, 1], [])).toBeNull();
  });
});
