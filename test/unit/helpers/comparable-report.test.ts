// The container tests' comparison of two runs' error logs (test/helpers/comparable-report.ts loggedLines): lines are
// counted per scenario and side wherever they landed, so a line placed on another request of the same run compares
// equal, and a line lost or added does not. The case is 2.2's https-origin-proxy in a fleet run with and without
// reuse: eight proxied probes, one AH00898 each, on eight requests in one run and on five in the other.
import { describe, expect, it } from "vitest";
import type { ReportErrorLogLine, ReportScenario } from "../../../harness/report/report-model.ts";
import { comparableScenario, loggedLines } from "../../helpers/comparable-report.ts";

const line = (code: string, message = "proxy: DNS lookup failure for: origin.internal returned by /"): ReportErrorLogLine => ({
  code: null,
  level: "error",
  module: null,
  message,
  event: code,
  raw: `[Mon Dec 07 22:08:04 2026] [error] [client 127.0.0.1] ${message}`,
});

/** A scenario whose baseline requests hold these lines, one list per request, and these trailing lines. */
function scenario(perRequest: ReportErrorLogLine[][], trailing: ReportErrorLogLine[] = []): ReportScenario {
  const side = (errorLog: ReportErrorLogLine[]) => ({ outcome: "response", status: 502, httpVersion: "1.1", headers: {}, body: null, bodyBytes: 0, bodySha256: null, transportError: null, exec: null, errorLog });
  const notRun = { ok: true, stated: false, failures: [] };
  return {
    id: "https-origin-proxy",
    verdict: "regression",
    error: null,
    expectations: { baseline: notRun, candidate: notRun },
    configTest: { baseline: null, candidate: null },
    servers: { baseline: { trailingLog: trailing }, candidate: null },
    requests: perRequest.map((errorLog, index) => ({ name: `p${index}`, sent: "GET /", baseline: side(errorLog), candidate: null })),
  } as unknown as ReportScenario;
}

const ah = (n: number) => Array.from({ length: n }, () => line("AH00898"));

describe("loggedLines", () => {
  it("counts each line once wherever its run placed it, so a line on another request is the same log", () => {
    const spread = scenario([ah(1), ah(1), ah(1), [], ah(1), ah(1), ah(1), ah(1), ah(1)]);
    const bunched = scenario([ah(3), [], [], ah(1), ah(2), [], ah(1), [], ah(1)]);
    const trailed = scenario([ah(3), [], [], ah(1), ah(2), [], ah(1), [], []], ah(1));
    expect(loggedLines([bunched])).toEqual(loggedLines([spread]));
    expect(loggedLines([trailed])).toEqual(loggedLines([spread]));
    // What the comparison counted before: the requests holding the message, 8 against 5.
    const holding = (s: ReportScenario) => (comparableScenario(s) as { requests: Array<{ baseline: { errorLog: string[] } }> }).requests.filter((r) => r.baseline.errorLog.includes("AH00898")).length;
    expect([holding(spread), holding(bunched)]).toEqual([8, 5]);
  });

  it("tells a run that lost or added a line, and leaves out the lines load decides", () => {
    const eight = scenario([ah(4), ah(4)]);
    expect(loggedLines([scenario([ah(4), ah(3)])])).not.toEqual(loggedLines([eight]));
    expect(loggedLines([scenario([ah(4), ah(5)])])).not.toEqual(loggedLines([eight]));
    expect(loggedLines([scenario([[...ah(4), line("AH01797", "client denied by server configuration: /x")], ah(4)])])).not.toEqual(loggedLines([eight]));
    expect(loggedLines([scenario([[...ah(4), line("AH10159", "within MinSpareThreads")], ah(4)], [line("AH00106", "piped log program restarted")])])).toEqual(loggedLines([eight]));
    expect(loggedLines([eight])).toEqual([{ id: "https-origin-proxy", baseline: { AH00898: 8 }, candidate: {} }]);
  });
});
