// A log as its distinct requests with counts, most frequent first, and its bad lines counted by kind.
import { describe, expect, it } from "vitest";
import { compileLogFormat, STANDARD_LOG_FORMATS } from "../../../../harness/logs/access-log-format.ts";
import { ReplayCollector } from "../../../../harness/plan/replay/replay-collector.ts";
import { replayContext } from "./replay-context.ts";

const line = (host: string, request: string, status = 200, user = "-") => `${host} - ${user} [10/Oct/2024:13:55:36 +0000] "${request}" ${status} 5 "-" "curl/8"`;

describe("ReplayCollector", () => {
  it("de-duplicates lines into requests with counts, most lines first, the earliest first on a tie", () => {
    const collector = new ReplayCollector(compileLogFormat(STANDARD_LOG_FORMATS.combined!), replayContext());
    const log = [
      line("192.0.2.1", "GET /a HTTP/1.1"),
      line("10.0.0.9", "GET /admin/ HTTP/1.1"),
      line("192.0.2.2", "GET /b HTTP/1.1"),
      "",
      line("192.0.2.7", "GET /b HTTP/1.1"),
      line("10.9.9.9", "GET /admin/ HTTP/1.1"),
      line("10.9.9.9", "GET /admin/ HTTP/1.1"),
    ];
    log.forEach((text, i) => collector.add(i + 1, text));
    const result = collector.result();
    expect(result).toMatchObject({ lines: 7, blank: 1, replayed: 6, bad: { count: 0, byKind: [], samples: [] } });
    expect(result.entries.map((e) => [e.request.target, e.request.client, e.count, e.firstLine])).toEqual([
      ["/admin/", "addr-1", 3, 2],
      ["/b", "outsider", 2, 3],
      ["/a", "outsider", 1, 1],
    ]);
  });

  it("counts bad lines by kind and keeps the first few, cut to a readable length, never stopping", () => {
    const collector = new ReplayCollector(compileLogFormat(STANDARD_LOG_FORMATS.combined!), replayContext(), 2);
    const log = ["garbage", line("192.0.2.1", "CONNECT a:443 HTTP/1.1"), `x${"y".repeat(300)}`, line("192.0.2.1", "GET / HTTP/1.1")];
    log.forEach((text, i) => collector.add(i + 1, text));
    const result = collector.result();
    expect(result.entries).toHaveLength(1);
    expect(result.bad.count).toBe(3);
    expect(result.bad.byKind).toEqual([{ kind: "format", count: 2 }, { kind: "proxy", count: 1 }]);
    expect(result.bad.samples.map((s) => [s.line, s.kind])).toEqual([[1, "format"], [2, "proxy"]]);
    collector.add(5, `z${"w".repeat(300)}`);
    expect(collector.result().bad.samples).toHaveLength(2);
  });

  it("cuts a shown bad line to 160 characters", () => {
    const collector = new ReplayCollector(compileLogFormat(STANDARD_LOG_FORMATS.common!), replayContext());
    collector.add(1, "q".repeat(500));
    expect(collector.result().bad.samples[0]!.text).toBe(`${"q".repeat(160)}…`);
  });
});
