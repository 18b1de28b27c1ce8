import { describe, expect, it } from "vitest";
import { fleetReport } from "../../../harness/fleet/fleet-report.ts";
import { renderFleetProgress, renderFleetText } from "../../../harness/report/fleet-text.ts";
import type { Report, ReportScenario } from "../../../harness/report/report-model.ts";
import { sampleReport, sampleReportWithSecurity } from "../../fixtures/reports/sample-report.ts";
import { fleetFixture, manifestOf, SIDES } from "../fleet/fleet-blobs.ts";

/** A fleet of the scenarios given, one config each (fleet/site-1 …), and a copy of the first (fleet/site-copy). */
function fleetOf(scenarios: readonly ReportScenario[], shards = 1): Report {
  const fixture = fleetFixture(scenarios, shards, { copy: true });
  return fleetReport({ manifest: manifestOf(fixture, 1), sides: SIDES, entries: fixture.entries, durationMs: 42_000, engines: null, toolVersion: "0.1.0" });
}

describe("renderFleetText", () => {
  it("lists the causes worst first with how many configs and which, then every config with its verdict and worst cause", () => {
    expect(renderFleetText(fleetOf(sampleReportWithSecurity().scenarios), { color: false }).split("\n")).toEqual([
      "fleet: 7 configs (1 the same tree as another, run once), 42.0 s",
      "",
      "causes across the fleet, worst first:",
      "  blocking              R9          in 1 config (fleet/site-3)  mutex and lock directives (AcceptMutex, LockFile, RewriteLock, SSLMutex) are replaced by Mutex",
      "  blocking              X3          in 1 config (fleet/site-3)  Order, Allow and Deny need mod_access_compat on 2.4",
      "  security (behaviour)  A7          in 2 configs (fleet/site-1, fleet/site-copy)  Satisfy Any with Require: 2.4 grants what 2.2 asked a password for",
      "  unexplained           unexplained in 1 config (fleet/site-4)  differences no rule explains",
      "  behaviour             D5          in 1 config (fleet/site-2)  SSLProxyCheckPeerExpire is on by default: an expired backend certificate fails the proxy",
      "",
      "configs:",
      "  same             fleet/site-1     A7 security (behaviour)",
      "  expected-change  fleet/site-2     D5 behaviour",
      "  expected-change  fleet/site-3     R9 blocking and 1 more",
      "  regression       fleet/site-4     unexplained",
      '  error            fleet/site-5     HARNESS_CONTAINER: candidate stopped answering: request "via proxy" got no response headers within 10000 ms',
      "  same             fleet/site-6     no cause",
      "  same             fleet/site-copy  A7 security (behaviour) (same tree as site-1)",
    ]);
  });

  it("names four configs of a cause and counts the rest", () => {
    const order = sampleReport.scenarios.find((s) => s.id === "x3-order-without-access-compat")!;
    const text = renderFleetText(fleetOf(Array.from({ length: 6 }, () => order), 3), { color: false });
    expect(text.split("\n")[0]).toBe("fleet: 7 configs (1 the same tree as another, run once), 42.0 s");
    expect(text).toContain("  blocking  X3 in 7 configs (fleet/site-1, fleet/site-2, fleet/site-3, fleet/site-4, … 3 more)  Order, Allow and Deny need mod_access_compat on 2.4\n");
  });

  it("colours the blocking and security causes red only when asked", () => {
    const report = fleetOf(sampleReportWithSecurity().scenarios);
    const coloured = renderFleetText(report, { color: true }).split("\n");
    expect(coloured.find((line) => line.includes(" A7 "))).toMatch(/^\u001b\[31m/);
    expect(coloured.find((line) => line.includes(" D5 "))).not.toMatch(/\u001b\[31m/);
    expect(renderFleetText(report, { color: false })).not.toContain("\u001b[");
  });

  it("is empty for a report that is not a fleet's", () => {
    expect(renderFleetText(sampleReport, { color: false })).toBe("");
  });
});

describe("renderFleetProgress", () => {
  const progress = { done: 5, total: 10, fromJournal: 0, label: "configs/app-htaccess", verdict: "regression", sinceStartMs: 4_000 };

  it("shows done/total, the percentage, the rate and the time left", () => {
    expect(renderFleetProgress(progress, { color: false })).toBe("[ 5/10]  50% configs/app-htaccess  regression  1.25 configs/s, about 4.0 s left");
  });

  it("leaves the configs a resumed run took from its journal out of the rate", () => {
    // 2 of the 5 done in 4 s: 0.5 configs/s, 5 to go.
    expect(renderFleetProgress({ ...progress, fromJournal: 3 }, { color: false })).toBe("[ 5/10]  50% configs/app-htaccess  regression  0.50 configs/s, about 10.0 s left");
  });

  it("says no time left when all are done, nor before a rate is known", () => {
    expect(renderFleetProgress({ ...progress, done: 10 }, { color: false })).toBe("[10/10] 100% configs/app-htaccess  regression  2.50 configs/s");
    expect(renderFleetProgress({ ...progress, done: 3, fromJournal: 3 }, { color: false })).toBe("[ 3/10]  30% configs/app-htaccess  regression  0.00 configs/s");
    expect(renderFleetProgress({ ...progress, done: 0, total: 0, sinceStartMs: 0 }, { color: false })).toBe("[0/0] 100% configs/app-htaccess  regression  0.00 configs/s");
  });
});
