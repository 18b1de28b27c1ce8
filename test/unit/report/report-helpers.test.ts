import { describe, expect, it } from "vitest";
import type { Difference } from "../../../harness/judge/difference.ts";
import { describeSide } from "../../../harness/report/describe-side.ts";
import { formatValue, truncate } from "../../../harness/report/format-value.ts";
import type { ReportScenario } from "../../../harness/report/report-model.ts";
import { scenarioDifferences } from "../../../harness/report/scenario-differences.ts";
import { sampleReport } from "../../fixtures/reports/sample-report.ts";
import { probeScenario } from "./probe-report.ts";

function scenario(id: string): ReportScenario {
  const found = sampleReport.scenarios.find((s) => s.id === id);
  if (found === undefined) throw new Error(id);
  return found;
}

describe("describeSide", () => {
  it("lists statuses, or says why there are none", () => {
    expect(sampleReport.scenarios.map((s) => [s.id, describeSide(s, "baseline"), describeSide(s, "candidate")])).toEqual([
      ["a6-server-status-denied", "403", "403"],
      ["d5-proxy-expired-cert", "200", "500"],
      ["x3-order-without-access-compat", "200", "config test failed"],
      ["q6-satisfy-any-ip-or-user", "200, 404", "401, 404"],
      ["d4-proxy-wrong-name-cert", "200", "no response"],
      ["e2-namevirtualhost", "baseline missing", "200"],
    ]);
  });

  it("tells a server that passed the config test but did not start", () => {
    const a6 = scenario("a6-server-status-denied");
    const candidate = a6.servers.candidate;
    if (candidate === null) throw new Error("fixture");
    const stopped: ReportScenario = { ...a6, servers: { ...a6.servers, candidate: { ...candidate, started: false } } };
    expect(describeSide(stopped, "candidate")).toBe("did not start");
  });
});

describe("describeSide, a probe run", () => {
  it("tells the baseline by its number of requests and the candidate by its cells' classes", () => {
    const p1 = probeScenario();
    expect(describeSide(p1, "baseline")).toBe("9 requests");
    expect(describeSide(p1, "candidate", (cls, text) => (cls === "narrowed" ? `<${text}>` : text))).toBe(
      "11 cells: 2 equal, 2 widened (security), 1 source-exposed (security), <1 narrowed>, 1 changed, 1 vacuous, 2 unprobed, 1 accepted",
    );
  });

  it("still says why a side has no answers", () => {
    const p1 = probeScenario();
    const failed: ReportScenario = { ...p1, configTest: { ...p1.configTest, candidate: { ok: false, exitCode: 1, messages: [], syntaxError: null } } };
    expect(describeSide(failed, "candidate")).toBe("config test failed");
  });
});

describe("scenarioDifferences", () => {
  it("lists server-level differences first, then each request's", () => {
    expect(scenarioDifferences(scenario("x3-order-without-access-compat")).map(({ request, difference }) => [request, difference.field])).toEqual([
      [null, "configTest"],
      [null, "started"],
      ["index", "status"],
    ]);
  });

  it("lists a difference once when the scenario list repeats a request's", () => {
    const d5 = scenario("d5-proxy-expired-cert");
    const repeated: ReportScenario = { ...d5, differences: d5.requests.flatMap((r) => r.differences) };
    expect(scenarioDifferences(repeated).map(({ request, difference }) => [request, difference.field])).toEqual([
      ["via proxy", "status"],
      ["via proxy", "errorLog"],
      ["via proxy", "body"],
    ]);
  });

  it("keeps a server-level difference that only looks like a request's when it is extra", () => {
    const d5 = scenario("d5-proxy-expired-cert");
    const first = d5.requests[0]?.differences[0] as Difference;
    const extra: ReportScenario = { ...d5, differences: [first, first] };
    expect(scenarioDifferences(extra).filter(({ request }) => request === null)).toHaveLength(1);
  });
});

describe("formatValue", () => {
  it("renders the value shapes differences carry", () => {
    expect(formatValue(null)).toBe("(absent)");
    expect(formatValue(undefined)).toBe("(absent)");
    expect(formatValue(404)).toBe("404");
    expect(formatValue(false)).toBe("false");
    expect(formatValue([])).toBe("(none)");
    expect(formatValue(["a", { code: "AH01797" }])).toBe('a\n{"code":"AH01797"}');
    expect(formatValue({ exitCode: 1 })).toBe('{"exitCode":1}');
  });

  it("truncates long text and says by how much", () => {
    expect(truncate("abcdef", 4)).toBe("abcd… (2 more characters)");
    expect(truncate("abc", 4)).toBe("abc");
  });
});
